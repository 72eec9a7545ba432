"""Interview notes or a transcript split into the questions asked, offline (/debrief without an LLM).

Three ways a question shows itself, tried in this order on the whole text:
1. speaker turns: "Interviewer:", "面试官：", "Q:", "问：", "追问：", "Q1:", "问题1：", "第一题" open a turn of the
   interviewer; "Me:", "A:", "Candidate:", "我：", "答：", "候选人：" one of the candidate. A turn labelled "Q"
   or numbered is a question; an "Interviewer:" turn is one when it asks (a question mark, or words that ask:
   "how", "tell me", "为什么", "讲一下" ...), else it is small talk and skipped.
2. numbering: "1.", "1)", "(1)", "（1）", "一、" at the start of a line, in the style that comes first, when its
   numbers go up (numbers that start again at 1 are an answer's list, not questions).
3. question marks: each sentence with "?" or "？" (consecutive ones on a line are one question).
In a transcript with labels, an unlabelled numbered line that asks ("2. 为什么用 warmup？") is a question too.
Everything after a question until the next one is the user's recalled answer (the candidate's turns, in a
transcript with labels). Conservative: a line with no question mark, number or label is never a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from bot.text.numerals import ONE_TO_TEN, cn_int

MAX_QUESTIONS = 30


@dataclass(frozen=True)
class Asked:
    """A question asked, and what the user recalls answering ("" when nothing)."""

    question: str
    answer: str = ""


@dataclass(frozen=True)
class Split:
    items: list[Asked]
    more: int = 0
    """Questions found past MAX_QUESTIONS, left out."""


_ASK_LABEL = r"(?:interviewer|面试官|考官|q|question|问题|问|提问|追问|follow[- ]?up)(?:问我|问|说)?"
_REPLY_LABEL = r"(?:me|a|answer|my answer|candidate|interviewee|我|答|回答|我的回答|我答|我说|我回答|候选人)"
_WHO = r"\s*+(?:[(（][^)）\n]{0,30}[)）]\s*+)?+"  # "Interviewer (Alice):", "面试官（张）："; blanks taken whole
ASK_TURN = re.compile(rf"^{_ASK_LABEL}{_WHO}[:：]\s*", re.I)
REPLY_TURN = re.compile(rf"^{_REPLY_LABEL}{_WHO}[:：]\s*", re.I)
_CN_NUM = ONE_TO_TEN
NUMBERED_ASK = re.compile(  # "Q1:", "Q 2.", "问题3：", "第一题", "第2问": a question, whatever follows
    rf"^(?:(?:q|question|问题|题目?)\s*(\d{{1,2}})|第\s*([{_CN_NUM}\d]{{1,3}})\s*[题问个])\s*[:：.．、)）]?\s*", re.I
)
NUMBER_STYLES = {  # a style's pattern at the start of a line: its number in group 1
    "dot": re.compile(r"^(\d{1,2})\s*[.．、](?!\d)\s*"),
    "paren": re.compile(r"^(\d{1,2})\s*[)）]\s*"),
    "enclosed": re.compile(r"^[(（]\s*(\d{1,2})\s*[)）]\s*"),
    "chinese": re.compile(rf"^([{_CN_NUM}]{{1,3}})\s*[、.．]\s*"),
}
_TIMESTAMP = re.compile(r"^[\[(]?\d{1,2}:\d{2}(?::\d{2})?[\])]?\s*")
_BULLET = re.compile(r"^(?:#{1,6}\s+|[-*•·●▪]\s+|\*\*|__)")
_INLINE_REPLY = re.compile(  # "...? A: ...", "...？答：...": the answer on the question's line
    rf"(?<=[?？.。!！])\s*(?=(?:{_REPLY_LABEL}){_WHO}[:：])", re.I
)
_INLINE_TURN = re.compile(  # in notes flattened to one line: "... Interviewer: ...", "... Q2: ..."
    rf"(?<=[?？.。!！])\s*(?=(?:{_ASK_LABEL}|{_REPLY_LABEL}){_WHO}[:：]|(?:q|question|问题)\s*\d{{1,2}}\s*[:：.])", re.I
)
_INLINE_NUMBER = re.compile(r"(?:^|(?<=\s))(\d{1,2})\s*[.．、)）](?!\d)\s")
_QMARK = re.compile(r"[?？]")
_SENTENCE = re.compile(r"(?<=[?？!！。])|(?<=[.])(?=\s)")
ASKING = re.compile(  # an interviewer turn with no question mark that still asks something
    r"^(?:(?:so|and|now|ok|okay|next|um+|uh+|well|right|alright|great)\b[,.]?\s+)*(?:tell me|describe|explain|walk me through|talk (?:me )?"
    r"(?:about|through)|how|what|why|which|when|where|can you|could you|would you|do you|did you|have you|compare|"
    r"design|implement|write|give me|let'?s (?:talk|discuss)|suppose|imagine)\b"
    r"|为什么|怎么|如何|(?<!没)(?<!没有)什么|哪些|哪个|哪里|多少|是否|能不能|可不可以|吗|讲一下|讲讲|说说|说一下|介绍|解释|谈谈|聊聊|描述|"
    r"比较|对比|区别|设计一个|实现一个|手写|推导",
    re.I,
)


def _number(value: str) -> int:
    """A question's number, "3" or "十一"; 0 for what is no number (一一), which breaks a 1, 2, 3 run."""
    return cn_int(value) or 0


def _unflatten(text: str) -> str:
    """Notes that lost their line breaks (a Discord command option keeps none): a line again before each
    speaker label and each number of a 1, 2, 3 ... run."""
    text = _INLINE_TURN.sub("\n", text)
    starts = [m for m in _INLINE_NUMBER.finditer(text)]
    run = [m for i, m in enumerate(starts) if int(m.group(1)) == i + 1]
    if len(run) >= 2 and len(run) == len(starts):
        for m in reversed(run):
            text = text[: m.start()] + "\n" + text[m.start() :]
    return text


def _clean_lines(text: str) -> list[str]:
    """Lines without timestamps, bullets, heading marks or blank lines; an answer given on its question's
    line ("...? A: ...") moved to its own line."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u3000", " ")
    text = re.sub(r"[\u200b-\u200f\ufeff]", "", text)
    if "\n" not in text.strip():
        text = _unflatten(text)
    lines: list[str] = []
    for raw in text.split("\n"):
        line = raw.strip()
        for pattern in (_TIMESTAMP, _BULLET):
            line = pattern.sub("", line, count=1).strip()
        line = line.replace("**", "").strip()
        if line:
            lines.extend(part.strip() for part in _INLINE_REPLY.split(line) if part.strip())
    return lines


def _tidy(text: str, limit: int) -> str:
    text = re.sub(r"[ \t]+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass
class _Block:
    question: list[str]
    answer: list[str]
    asks: bool = True


def _speaker_blocks(lines: list[str], replies_labelled: bool) -> list[_Block]:
    """Turns by label; an unlabelled line continues the turn it follows when the candidate's turns are
    labelled too, else it is the answer to the question before it."""
    blocks: list[_Block] = []
    turn = ""  # "ask", "reply" or "" before any label
    for line in lines:
        opened = NUMBERED_ASK.match(line) or ASK_TURN.match(line)
        reply = REPLY_TURN.match(line)
        numbered = None if opened or reply else _numbered_question(line)
        if opened:
            rest = line[opened.end() :]
            strong = not re.match(r"(?i)interviewer|面试官|考官", line)  # "Q:" and "Q1:" always ask
            blocks.append(_Block([rest] if rest else [], [], strong))
            turn = "ask"
        elif numbered is not None:  # "2. How does ZeRO-3 ...?" between labelled turns: a question of its own
            blocks.append(_Block([numbered], []))
            turn = "ask"
        elif reply and blocks:
            blocks[-1].answer.append(line[reply.end() :])
            turn = "reply"
        elif blocks and turn == "ask" and (replies_labelled or not blocks[-1].question):
            blocks[-1].question.append(line)
        elif blocks and turn:
            blocks[-1].answer.append(line)
    kept: list[_Block] = []
    for block in blocks:
        said = " ".join(block.question)
        if block.asks or _QMARK.search(said) or ASKING.search(said):
            kept.append(block)
        elif kept:  # small talk ("Interviewer: Mm-hm, go on."): the answer goes on
            kept[-1].answer.extend(block.answer)
    return kept


def _numbered_question(line: str) -> str | None:
    """An unlabelled numbered line that asks (a question mark, or words that ask), without its number; None
    for anything else (an answer's numbered list: "1. check the data first")."""
    for pattern in NUMBER_STYLES.values():
        m = pattern.match(line)
        if m:
            rest = line[m.end() :].strip()
            return rest if rest and (_QMARK.search(rest) or ASKING.search(rest)) else None
    return None


def _number_style(lines: list[str]) -> str | None:
    """The numbering of the questions: the style of the first numbered line, when its numbers go up and no
    unnumbered question comes before it (else the numbers are an answer's list)."""
    for line in lines:
        for name, pattern in NUMBER_STYLES.items():
            if pattern.match(line):
                numbers = [_number(m.group(1)) for x in lines if (m := pattern.match(x))]
                rising = all(b > a for a, b in pairwise(numbers))
                return name if rising else None
        if _QMARK.search(line):
            return None
    return None


def _numbered_blocks(lines: list[str], style: str) -> list[_Block]:
    pattern = NUMBER_STYLES[style]
    blocks: list[_Block] = []
    for line in lines:
        m = pattern.match(line)
        if m:
            rest = line[m.end() :]
            label = ASK_TURN.match(rest)  # "1. Q: ..."
            question, answer = _question_then_answer(rest[label.end() :] if label else rest)
            blocks.append(_Block([question], [answer] if answer else []))
        elif blocks:
            reply = REPLY_TURN.match(line)
            blocks[-1].answer.append(line[reply.end() :] if reply else line)
    return blocks


def _question_then_answer(line: str) -> tuple[str, str]:
    """A numbered line's question and, after its last question mark, the start of its answer."""
    marks = list(_QMARK.finditer(line))
    if not marks or not line[marks[-1].end() :].strip():
        return line, ""
    return line[: marks[-1].end()], line[marks[-1].end() :].strip(" :：-—→>")


def _question_mark_blocks(lines: list[str]) -> list[_Block]:
    """Sentences with a question mark are questions; the sentences after one are its answer (a line of
    answer stays one line)."""
    blocks: list[_Block] = []
    for line in lines:
        reply = REPLY_TURN.match(line)
        if reply and blocks:
            blocks[-1].answer.append(line[reply.end() :])
            continue
        said: list[str] = []  # this line's answer sentences so far, for the last block
        asking = False  # the last sentence was a question
        for sentence in (s.strip() for s in _SENTENCE.split(line)):
            if not sentence:
                continue
            if _QMARK.search(sentence):
                if asking:
                    blocks[-1].question.append(sentence)  # "What is X? And why?" is one question
                else:
                    if said:
                        blocks[-1].answer.append(" ".join(said))
                        said = []
                    blocks.append(_Block([sentence], []))
                asking = True
            elif blocks:
                said.append(sentence)
                asking = False
        if said:
            blocks[-1].answer.append(" ".join(said))
    return blocks


def split_notes(text: str, max_question: int = 2000, max_answer: int = 6000) -> Split:
    """The questions in `text` with their recalled answers, at most MAX_QUESTIONS (in order)."""
    lines = _clean_lines(text)
    if any(NUMBERED_ASK.match(x) or ASK_TURN.match(x) for x in lines):
        blocks = _speaker_blocks(lines, any(REPLY_TURN.match(x) for x in lines))
    elif (style := _number_style(lines)) is not None:
        blocks = _numbered_blocks(lines, style)
    else:
        blocks = _question_mark_blocks(lines)
    items: list[Asked] = []
    for block in blocks:
        question = _tidy(" ".join(block.question), max_question)
        answer = "\n".join(x.strip() for x in block.answer if x.strip())
        if not question or (items and items[-1].question == question and not answer):
            continue
        items.append(Asked(question, _tidy(answer, max_answer) if answer else ""))
    return Split(items[:MAX_QUESTIONS], max(0, len(items) - MAX_QUESTIONS))
