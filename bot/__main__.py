"""Command line: run | chat | grade | content check|stats | db upgrade."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from importlib import metadata
from pathlib import Path

from bot.config import Settings, SettingsError, load_settings


def _settings() -> Settings:
    try:
        return load_settings()
    except SettingsError as err:
        print(err, file=sys.stderr)
        raise SystemExit(2) from None


async def _chat(settings: Settings, user: str, lang: str | None) -> None:
    from bot.runner import serve

    await serve(settings, console_only=True, console_user=user, console_lang=lang)


async def _run(settings: Settings) -> None:
    from bot.runner import serve

    await serve(settings)


async def _db_upgrade(settings: Settings) -> None:
    from bot.storage.engine import make_engines
    from bot.storage.migrate import upgrade

    engines = make_engines(settings.database_url)
    try:
        await upgrade(engines)
    finally:
        await engines.dispose()
    print("database is at the latest revision")


def _content(action: str, path: str | None, ids: list[str] | None = None) -> int:
    from bot.content.loader import DEFAULT_CONTENT_DIR, BankMissing, check_present, load_bank
    from bot.content.stats import print_stats, print_summary

    root = Path(path) if path else (_settings().content_dir or DEFAULT_CONTENT_DIR)
    try:
        check_present(root)
    except BankMissing as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    result = load_bank(root)
    if action == "stats":
        print_stats(result.questions)
        return 0
    if action == "probe":
        from bot.grading.probe_report import print_probes
        from bot.shipped_bank import use_shipped_weights

        use_shipped_weights()
        return print_probes(result.questions, ids or [])
    from bot.grading.prompts import PromptError, load_prompts

    try:
        load_prompts()
    except PromptError as err:
        result.problems.append(str(err))
    for problem in result.problems:
        print(problem)
    if result.problems:
        print(f"{len(result.problems)} problems in {len(result.questions)} loaded questions")
        return 1
    verified = sum(1 for q in result.questions if q.verified is not None)
    print(f"{len(result.questions)} questions OK ({verified} with a verified: record)")
    print_summary(result.questions)
    return 0


def _grade(args: argparse.Namespace) -> int:
    from bot.grading.batch import run_batch
    from bot.grading.factory import llm_grader
    from bot.shipped_bank import questions_by_id, use_shipped_weights

    # per-row fallbacks and not-graded rows are logged at WARNING: show them (and nothing chattier) on stderr
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    grader = None
    if args.grader != "offline":
        grader = llm_grader(_settings().llm)
        if grader is None and args.grader == "llm":
            print("error: --grader llm needs LLM_MODEL and LLM_BASE_URL or LLM_API_KEY", file=sys.stderr)
            return 2
    use_shipped_weights()
    return run_batch(Path(args.input), Path(args.output), args.lang, grader, args.concurrency, bank=questions_by_id)


def _usage(settings: Settings, days: int) -> int:
    from bot.storage.engine import make_engines
    from bot.storage.usage import usage_by_day

    async def go() -> list[tuple[str, int, int]]:
        engines = make_engines(settings.database_url)
        try:
            return await usage_by_day(engines, days)
        finally:
            await engines.dispose()

    rows = asyncio.run(go())
    print(f"{'day (UTC)':<12} {'gradings':>9} {'tokens':>10}")
    for day, gradings, tokens in rows:
        print(f"{day:<12} {gradings:>9} {tokens:>10}")
    print(f"{'total':<12} {sum(r[1] for r in rows):>9} {sum(r[2] for r in rows):>10}")
    return 0


def _local_llm(port: int) -> int:
    """Serve the llm-real extra's model with llama-server until Ctrl-C, and say how to point the bot at it."""
    from bot.grading.local_server import LOCAL_SETTINGS, LocalModelMissing, llama_server

    async def serve() -> None:
        async with llama_server(port=port) as running:
            settings = {"LLM_BASE_URL": running.base_url, "LLM_MODEL": running.model, **LOCAL_SETTINGS}
            print("llama-server is ready. Run the bot with:\n" + " ".join(f"{k}={v}" for k, v in settings.items()))
            print(f"(server log: {running.log}; Ctrl-C stops it)", flush=True)
            await asyncio.Event().wait()

    try:
        asyncio.run(serve())
    except LocalModelMissing as err:
        print(err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


def version() -> str:
    try:
        return metadata.version("llm-interview-drill-bot")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="LLM interview drill bot (also installed as the `drill-bot` command). Settings come from the "
        "environment or .env: see README.md, Configuration.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="cmd", metavar="command")
    sub.add_parser("run", help="serve every configured platform (the terminal chat when none is); the default")
    chat = sub.add_parser("chat", help="the terminal chat")
    chat.add_argument("--user", default="local", help="console identity: each has its own data (default: local)")
    chat.add_argument("--lang", choices=["zh", "en"], default=None, help="a new user's language (default: en)")
    grade = sub.add_parser("grade", help="batch-grade a CSV of answers")
    grade.add_argument("--input", required=True, help="CSV with an answer column, and question_id or question + "
                       "reference_answer (optional key_points, ';'-separated)")  # fmt: skip
    grade.add_argument("--output", required=True, help="CSV to write: the input's columns, then score and dimensions")
    grade.add_argument("--lang", choices=["zh", "en"], default="en", help="language of the answers (default: en)")
    grade.add_argument("--grader", choices=["auto", "llm", "offline"], default="auto",
                       help="auto: the LLM when LLM_MODEL is set, else offline (default: auto)")  # fmt: skip
    grade.add_argument("--concurrency", type=int, default=4, help="LLM requests in flight (default 4)")
    usage = sub.add_parser("usage", help="LLM tokens and gradings per day")
    usage.add_argument("--days", type=int, default=30, help="how many days back (default 30)")
    content = sub.add_parser("content", help="validate or summarise the question bank")
    content.add_argument("action", choices=["check", "stats", "probe"],
                         help="check: validate the bank and prompts; stats: counts; probe: the offline grader on "
                         "each question's adversarial answers")  # fmt: skip
    content.add_argument("ids", nargs="*", help="probe: question ids (default: all)")
    content.add_argument("--path", default=None, help="the bank folder (default: CONTENT_DIR, else content/)")
    local = sub.add_parser("local-llm", help="serve the small local model of the llm-real extra on the CPU")
    local.add_argument("--port", type=int, default=8080, help="port of llama-server on 127.0.0.1 (default 8080)")
    db = sub.add_parser("db", help="database migrations")
    db.add_argument("action", choices=["upgrade"], help="upgrade: to the latest revision (the bot does this on start)")
    transcribe = sub.add_parser("transcribe", help="transcribe an audio file and show the speaking insights")
    transcribe.add_argument("file", help="an audio file (OGG, WebM, MP3, WAV, FLAC, M4A)")
    transcribe.add_argument("--lang", choices=["zh", "en"], default="en", help="language hint (default en)")
    transcribe.add_argument("--backend", choices=["openai", "local"], default=None, help="default: TRANSCRIBE_BACKEND")
    transcribe.add_argument("--model", default=None, help="WHISPER_MODEL (local) or TRANSCRIBE_MODEL (openai)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    cmd = args.cmd or "run"
    if cmd == "content":
        return _content(args.action, args.path, args.ids)
    if cmd == "grade":
        return _grade(args)
    if cmd == "usage":
        return _usage(_settings(), args.days)
    if cmd == "local-llm":
        return _local_llm(args.port)
    if cmd == "transcribe":
        from bot.transcribe import run_transcribe

        return run_transcribe(_settings(), args.file, args.lang, args.backend, args.model)
    from bot.logging_setup import configure_logging, level_of
    from bot.storage.process_lock import DatabaseInUse, hold_database
    from bot.storage.sqlite_file import DatabaseUnavailable, check_writable

    settings = _settings()
    console = cmd == "chat" or (cmd == "run" and not (settings.telegram.token or settings.discord.token))
    # the terminal chat shows warnings only; elsewhere LOG_LEVEL (libraries at INFO), secrets redacted
    configure_logging(settings, level=max(logging.WARNING, level_of(settings.log_level)) if console else None)
    try:
        check_writable(settings.database_url)  # before the slow imports: a read-only file gets one line at once
    except DatabaseUnavailable as err:  # read-only, cannot be opened, not a database
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:  # one process per SQLite file (run, chat); PostgreSQL takes several replicas
        held = hold_database(settings.database_url) if cmd in ("run", "chat") else None
    except DatabaseInUse as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        return _serve(cmd, args, settings)
    finally:
        if held is not None:
            held.close()


def _serve(cmd: str, args: argparse.Namespace, settings: Settings) -> int:
    from bot.bootstrap import ContentError
    from bot.storage.sqlite_file import DatabaseFileGone

    try:
        if cmd == "db":
            asyncio.run(_db_upgrade(settings))
        elif cmd == "chat":
            asyncio.run(_chat(settings, args.user, args.lang))
        else:
            asyncio.run(_run(settings))
    except (SettingsError, ContentError) as err:  # found while building the app (a voice backend without its key,
        print(err, file=sys.stderr)  # a bank file or a prompt that does not validate ...)
        return 2
    except DatabaseFileGone as err:  # the SQLite file was deleted or replaced while the bot ran
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
