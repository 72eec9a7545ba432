"""/notes, the answer notebook: versions of the user's own answers to a question, each with its score, date,
company tag and the key points it covered, the best one marked; compared side by side, written by hand
(typed or spoken), rewritten by the LLM when there is one, exported as Markdown.

  /notes                     the questions with saved versions, numbered
  /notes <N | id | words>    one question's versions side by side
  /notes export              the notebook as a Markdown file

Buttons are `cr:notes:<verb>:<id>`; every id is checked to be the user's own (another user's is "not found").
The notebook is private: it is in /export and /forget deletes it with the rest."""

from __future__ import annotations

from bot.features.career.models import NoteEntry
from bot.features.career.tool import Tool
from bot.features.notebook.versions import Notebook, add_version, discard, keep, propose, save_attempt
from bot.features.notebook.view import Group, compare_page, export, grouped, list_page, short, version_page
from bot.features.review.companies import company_name
from bot.kernel import actions
from bot.kernel.i18n import t, tn
from bot.kernel.models import Question, User
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Idle, InCareer
from bot.kernel.yes_no import is_number

EXPORT_WORDS = frozenset({"export", "导出", "md", "markdown"})


async def groups_of(book: Notebook, user: User) -> list[Group]:
    """The user's versions by question, the question saved to last first."""
    notes = await book.notes.list_notes(user.id)
    questions = {qid: await book.questions.get(qid) for qid in {n.question_id for n in notes}}
    return grouped(notes, questions)


async def command(args: str, book: Notebook, user: User) -> list[Reply]:
    words = " ".join(args.split())
    if not words:
        return [list_page(await groups_of(book, user), user)]
    if words.casefold() in EXPORT_WORDS:
        return await _export(book, user)
    return await _find(words, book, user)


async def _export(book: Notebook, user: User) -> list[Reply]:
    groups = await groups_of(book, user)
    if not groups:
        return [Reply(t(user.language, "notes.empty"))]
    file = export(groups, user, book.clock.now())
    return [Reply(t(user.language, "notes.export.done"), file=file)]


async def _find(words: str, book: Notebook, user: User) -> list[Reply]:
    """/notes N (the Nth of the list), /notes <question id> (also a bank question with no version yet, to write
    one), or /notes <words> (the questions with versions whose wording has them)."""
    lang, groups = user.language, await groups_of(book, user)
    if is_number(words):
        n = int(words)
        if 1 <= n <= len(groups):
            return [compare_page(groups[n - 1], user)]
        return [Reply(t(lang, "notes.find.no_number", n=n, count=len(groups)), kind="error")]
    by_id = next((g for g in groups if g.question_id == words), None)
    if by_id is not None:
        return [compare_page(by_id, user)]
    if book.bank.get(words) is not None:
        return [compare_page(Group(words, book.bank.get(words), []), user)]
    needle = words.casefold()
    found = [(i, g) for i, g in enumerate(groups, 1) if g.question and _matches(g.question, needle)]
    if len(found) == 1:
        return [compare_page(found[0][1], user)]
    if not found:
        return [Reply(t(lang, "notes.find.none", words=words[:60]), kind="error")]
    lines = [t(lang, "notes.find.several")]
    lines += [f"{i}. {short(g.question.prompt.get(lang), lang)}" for i, g in found[:10] if g.question]
    buttons = [
        [Button(str(i), actions.Career(tool="notes", arg=f"view:{g.notes[-1].id}").encode()) for i, g in found[:5]]
    ]
    return [Reply("\n".join(lines), buttons)]


def _matches(q: Question, needle: str) -> bool:
    """Every word typed is in the question's wording (either language), or the whole phrase is."""
    text = " ".join([q.prompt.en, q.prompt.zh, q.id]).casefold()
    return needle in text or all(word in text for word in needle.split())


def _id(arg: str) -> int | None:
    """A record id from a button: ASCII digits only, else None."""
    return int(arg) if 0 < len(arg) <= 12 and arg.isascii() and arg.isdigit() else None


async def _own(book: Notebook, user: User, arg: str) -> NoteEntry | None:
    """The user's own entry by the id in a button; None for garbage, a missing id or another user's."""
    note_id = _id(arg)
    if note_id is None:
        return None
    note = await book.notes.get_note(note_id)
    return note if note is not None and note.user_id == user.id else None


async def action(arg: str, book: Notebook, user: User) -> list[Reply]:
    verb, _, rest = arg.partition(":")
    lang = user.language
    attempt_id = _id(rest)
    if verb == "save" and attempt_id is not None:
        return await save_attempt(attempt_id, book, user)
    if verb == "export":
        return await _export(book, user)
    if verb == "keep":
        return await keep(book, user)
    if verb in ("drop", "cancel"):
        return await discard(book, user)
    if verb == "write":
        return await _start_writing(rest, book, user)
    note = await _own(book, user, rest)
    if note is None or verb not in NOTE_ACTIONS:
        return [Reply(t(lang, "notes.not_found"), kind="error")]
    return await NOTE_ACTIONS[verb](note, book, user)


async def _view(note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    notes = await book.notes.list_notes(user.id, note.question_id)
    return [compare_page(Group(note.question_id, await book.questions.get(note.question_id), notes), user)]


async def _open(note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    q = await book.questions.get(note.question_id)
    star = book.star_writer is not None and q is not None and q.type == "case"
    tighten = book.tightener is not None and q is not None
    return [version_page(note, q, user, star, tighten)]


async def _best(note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    if not await book.notes.mark_best(user.id, note.id):
        return [Reply(t(user.language, "notes.not_found"), kind="error")]
    q = await book.questions.get(note.question_id)
    prompt = short(q.prompt.get(user.language) if q else note.question_id, user.language)
    back = [[Button(t(user.language, "notes.btn.all"), actions.Career(tool="notes", arg=f"view:{note.id}").encode())]]
    return [Reply(t(user.language, "notes.best.done", n=note.version, prompt=prompt), back)]


async def _ask_tag(note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    await book.users.set_session(user.id, InCareer(tool="notes", step="tag", data={"note_id": str(note.id)}))
    cancel = [[Button(t(user.language, "btn.cancel"), actions.Career(tool="notes", arg="cancel").encode())]]
    return [Reply(t(user.language, "notes.tag.ask", n=note.version), cancel, ask_text=True)]


async def _ask_delete(note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    lang = user.language
    buttons = [[Button(t(lang, "notes.btn.delete_yes"), actions.Career(tool="notes", arg=f"delok:{note.id}").encode()),
                Button(t(lang, "btn.cancel"), actions.Career(tool="notes", arg=f"open:{note.id}").encode())]]  # fmt: skip
    return [Reply(t(lang, "notes.delete.ask", n=note.version), buttons)]


async def _delete(note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    await book.notes.delete_note(user.id, note.id)
    return [Reply(t(user.language, "notes.delete.done", n=note.version))]


async def _star(note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    return await _proposal("star", note, book, user)


async def _tighten(note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    return await _proposal("tighten", note, book, user)


async def _proposal(kind: str, note: NoteEntry, book: Notebook, user: User) -> list[Reply]:
    q = await book.questions.get(note.question_id)
    if q is None:
        return [Reply(t(user.language, "notes.not_found"), kind="error")]
    return await propose(kind, note, q, book, user)


NOTE_ACTIONS = {
    "view": _view,
    "open": _open,
    "best": _best,
    "tag": _ask_tag,
    "del": _ask_delete,
    "delok": _delete,
    "star": _star,
    "tight": _tighten,
}


async def _start_writing(question_id: str, book: Notebook, user: User) -> list[Reply]:
    """ "Write a new version": a question of the bank, or one the user has versions of (a personal question)."""
    lang = user.language
    mine = {n.question_id for n in await book.notes.list_notes(user.id)}
    q = book.bank.get(question_id) or (await book.questions.get(question_id) if question_id in mine else None)
    if q is None:
        return [Reply(t(lang, "notes.not_found"), kind="error")]
    await book.users.set_session(user.id, InCareer(tool="notes", step="write", data={"question_id": q.id}))
    cancel = [[Button(t(lang, "btn.cancel"), actions.Career(tool="notes", arg="cancel").encode())]]
    return [Reply(t(lang, "notes.write.ask", prompt=q.prompt.get(lang)), cancel, ask_text=True)]


async def text(value: str, book: Notebook, user: User, state: InCareer) -> list[Reply]:
    """Text while /notes waits: a company for a tag, a version written by hand, or words while a proposal waits."""
    lang = user.language
    if state.step == "tag":
        return await _tag(value, book, user, state)
    if state.step == "write":
        q = await book.questions.get(state.data.get("question_id", ""))
        if q is None:
            await book.users.set_session(user.id, Idle())
            return [Reply(t(lang, "notes.not_found"), kind="error")]
        return await add_version(book, user, q, value, "hand")
    if state.step == "propose":
        return [Reply(t(lang, "notes.proposal.waiting"), [[Button(t(lang, "notes.btn.keep"), actions.Career(tool="notes", arg="keep").encode()),
                                                            Button(t(lang, "notes.btn.discard"), actions.Career(tool="notes", arg="drop").encode())]])]  # fmt: skip
    await book.users.set_session(user.id, Idle())
    return [Reply(t(lang, "career.expired"))]


async def _tag(value: str, book: Notebook, user: User, state: InCareer) -> list[Reply]:
    """The company a version is for: a known company by its one name (字节 and ByteDance are one), "-" clears it."""
    lang = user.language
    name = " ".join(value.split())
    if not name:
        return [Reply(t(lang, "notes.tag.empty"), kind="error")]
    if len(name) > book.limits.max_field_chars:
        return [
            Reply(
                t(lang, "notes.tag.too_long", chars=tn(lang, "count.character", book.limits.max_field_chars)),
                kind="error",
            )
        ]
    note = await _own(book, user, state.data.get("note_id", ""))
    await book.users.set_session(user.id, Idle())
    if note is None:
        return [Reply(t(lang, "notes.not_found"), kind="error")]
    company = "" if name in ("-", "—", "无", "none") else company_name(name, "en")
    await book.notes.save_note(note.model_copy(update={"company": company}))
    back = [[Button(t(lang, "notes.btn.all"), actions.Career(tool="notes", arg=f"view:{note.id}").encode())]]
    if not company:
        return [Reply(t(lang, "notes.tag.cleared", n=note.version), back)]
    return [Reply(t(lang, "notes.tag.done", n=note.version, company=company_name(company, lang)), back)]


TOOL = Tool(command=command, action=action, text=text)
