"""A ReDoS scan (issue #34): every regular expression in bot/, tried on inputs built from its own shape.

`patterns()` finds them: each module under bot/ is imported and its `re.Pattern` objects collected (module level,
class attributes, and inside module-level tuples, lists, dicts and sets), and each source file is read for the
literal patterns passed to `re.compile/match/search/...` inside functions; patterns built at run time from data
(the delimiter tag, a phrase, a premise term) are added by `tests/unit/test_redos_scan.py` from their builders.

`attacks(pattern)` builds, for each repeated part of the pattern, strings that pump it: what the pattern needs
before that part (a sample of everything ahead of it), then one sample of the part's body (each alternative,
each optional piece present or absent) repeated, then a character that fails (`\\x00`, `x`, `!`).

`scan(pattern)` times `finditer` over each attack (it tries the pattern at every position, as `sub`, `split`,
`findall` and `search` do) at `n` and `4n` characters and reports the attacks whose time grows faster than
linearly (over 8x for 4x the length, once the time is measurable), or that run past a budget at all: a SIGALRM
interrupts the match (the `re` engine checks for signals while it backtracks).
"""

from __future__ import annotations

import ast
import importlib
import itertools
import pkgutil
import re
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from re import _constants as C
from re import _parser as P
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SIZE = 1000  # characters of the pumped part at n; 4n is a Telegram message
BUDGET_S = 1.0  # one attack at 4n past this: a freeze
MEASURABLE_S = 0.003  # below this at 4n, growth is noise
GROWTH = 8.0  # t(4n) / t(n) over this: super-linear (linear is 4, quadratic 16)
SUFFIXES = ("\x00", "x", "!")
MAX_VARIANTS = 6  # samples of one repeated part's body
MAX_ATTACKS = 90  # per pattern, the shortest pumps first
POOL = ("a", "x", "1", " ", "\n", ",", ".", "-", "_", ":", "<", "中", "!", "\x00")


class _Alarm(Exception):
    pass


# ---------------------------------------------------------------------------------------------------------------
# Finding the patterns


@dataclass(frozen=True)
class Found:
    where: str
    pattern: re.Pattern[str]


def _walk_value(value: Any, where: str, depth: int = 0) -> Iterator[Found]:
    if isinstance(value, re.Pattern):
        if isinstance(value.pattern, str):
            yield Found(where, value)
    elif depth < 3 and isinstance(value, (tuple, list, set, frozenset)):
        for i, item in enumerate(value):
            yield from _walk_value(item, f"{where}[{i}]", depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for key, item in value.items():
            yield from _walk_value(item, f"{where}[{key!r}]", depth + 1)


def module_patterns() -> Iterator[Found]:
    import bot

    for info in pkgutil.walk_packages(bot.__path__, "bot."):
        if ".migrations" in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            yield from _walk_value(value, f"{info.name}.{name}")
            if isinstance(value, type) and value.__module__ == info.name:
                for attr, item in vars(value).items():
                    yield from _walk_value(item, f"{info.name}.{name}.{attr}")


_RE_CALLS = {"compile", "match", "search", "sub", "subn", "findall", "finditer", "split", "fullmatch"}


def literal_patterns() -> Iterator[Found]:
    """Constant patterns written inline: `re.sub(r"...", ...)` in a function body."""
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if not (isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
                continue
            if node.func.attr not in _RE_CALLS or not node.args:
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            flags = 0
            flag_node = next((k.value for k in node.keywords if k.arg == "flags"), None)
            if flag_node is None and node.func.attr == "compile" and len(node.args) > 1:
                flag_node = node.args[1]
            if flag_node is not None:
                flags = int(eval(compile(ast.Expression(flag_node), str(path), "eval"), {"re": re}))
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            yield Found(where, re.compile(first.value, flags))


def patterns() -> list[Found]:
    """Every pattern in bot/, each once (by source and flags), named by where it was first found."""
    seen: dict[tuple[str, int], Found] = {}
    for found in itertools.chain(module_patterns(), literal_patterns()):
        seen.setdefault((found.pattern.pattern, found.pattern.flags), found)
    return list(seen.values())


# ---------------------------------------------------------------------------------------------------------------
# Samples of a parsed pattern


def _category_has(category: Any, ch: str) -> bool:
    name = str(category)
    negated = "_NOT_" in name
    if "DIGIT" in name:
        hit = ch.isdigit()
    elif "SPACE" in name:
        hit = ch.isspace()
    elif "WORD" in name:
        hit = ch.isalnum() or ch == "_"
    elif "LINEBREAK" in name:
        hit = ch == "\n"
    else:
        hit = False
    return hit != negated


def _class_has(items: list[Any], ch: str, ignore_case: bool) -> bool:
    negate = bool(items) and items[0][0] is C.NEGATE
    hit = False
    for op, arg in items:
        if op is C.LITERAL:
            hit |= chr(arg) == ch or (ignore_case and chr(arg).lower() == ch.lower())
        elif op is C.RANGE:
            hit |= arg[0] <= ord(ch) <= arg[1] or (ignore_case and arg[0] <= ord(ch.lower()) <= arg[1])
        elif op is C.CATEGORY:
            hit |= _category_has(arg, ch)
    return hit != negate


def _class_samples(items: list[Any], ignore_case: bool) -> list[str]:
    own = [chr(arg) for op, arg in items if op is C.LITERAL] + [chr(arg[0]) for op, arg in items if op is C.RANGE]
    picks = [c for c in (*own, *POOL) if _class_has(items, c, ignore_case)]
    return list(dict.fromkeys(picks))[:3] or ["a"]


def samples(seq: Any, ignore_case: bool, limit: int = MAX_VARIANTS) -> list[str]:
    """Up to `limit` strings the subpattern `seq` (a parsed sequence) matches, varied where it has choices."""
    out = [""]
    for op, av in seq:
        options = _node_samples(op, av, ignore_case, limit)
        out = list(dict.fromkeys(a + b for a in out for b in options))[:limit]
    return out


def _node_samples(op: Any, av: Any, ignore_case: bool, limit: int) -> list[str]:
    if op is C.LITERAL:
        return [chr(av)]
    if op is C.NOT_LITERAL:
        return [next(c for c in POOL if ord(c) != av)]
    if op is C.ANY:
        return ["a"]
    if op is C.IN:
        return _class_samples(av, ignore_case)
    if op is C.SUBPATTERN:
        return samples(av[-1], ignore_case, limit)
    if op is C.ATOMIC_GROUP:
        return samples(av, ignore_case, limit)
    if op is C.BRANCH:
        picks: list[str] = []
        for alt in av[1]:
            picks.extend(samples(alt, ignore_case, 2))
        return list(dict.fromkeys(picks))[:limit]
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        low, _high, body = av
        once = samples(body, ignore_case, limit)
        base = [s * max(low, 1) for s in once]
        return list(dict.fromkeys(([""] if low == 0 else []) + base))[:limit]
    if op is C.GROUPREF_EXISTS:
        return samples(av[1], ignore_case, limit)
    return [""]  # anchors, lookarounds, back references


def _repeats(seq: Any, prefix: str, ignore_case: bool) -> Iterator[tuple[str, Any]]:
    """(what leads to it, its body) for each repeated part of `seq`, nested ones too."""
    lead = prefix
    for op, av in seq:
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            if av[1] > 1:
                yield lead, av[2]
            yield from _repeats(av[2], lead, ignore_case)
        elif op is C.SUBPATTERN:
            yield from _repeats(av[-1], lead, ignore_case)
        elif op is C.ATOMIC_GROUP:
            yield from _repeats(av, lead, ignore_case)
        elif op is C.BRANCH:
            for alt in av[1]:
                yield from _repeats(alt, lead, ignore_case)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            yield from _repeats(av[1], lead, ignore_case)
        elif op is C.GROUPREF_EXISTS:
            yield from _repeats(av[1], lead, ignore_case)
            if av[2] is not None:
                yield from _repeats(av[2], lead, ignore_case)
        lead += _node_samples(op, av, ignore_case, 1)[0]


def attacks(pattern: re.Pattern[str], limit: int = MAX_ATTACKS) -> list[tuple[str, str, str]]:
    """(lead, pump, suffix) triples, the shortest pumps first, at most `limit`: the string is lead + pump * k +
    suffix. Each pump is tried after its lead (an anchored pattern needs it) and on its own."""
    ignore_case = bool(pattern.flags & re.IGNORECASE)
    parsed = P.parse(pattern.pattern, pattern.flags)
    pumps: dict[tuple[str, str], None] = {}
    for lead, body in _repeats(parsed, "", ignore_case):
        for pump in samples(body, ignore_case):
            if pump:
                pumps[(lead, pump)] = None
                pumps[("", pump)] = None
    ordered = sorted(pumps, key=lambda lp: (len(lp[1]), len(lp[0])))
    found = [(lead, pump, suffix) for lead, pump in ordered for suffix in SUFFIXES]
    return found[:limit]


# ---------------------------------------------------------------------------------------------------------------
# Timing


def _alarm(*_: Any) -> None:
    raise _Alarm


def _time(pattern: re.Pattern[str], text: str, budget: float) -> float | None:
    """Seconds to run `finditer` over `text` to its end, or None past `budget`."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        start = time.perf_counter()
        for _ in pattern.finditer(text):
            pass
        return time.perf_counter() - start
    except _Alarm:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass(frozen=True)
class Finding:
    lead: str
    pump: str
    suffix: str
    small_s: float | None
    large_s: float | None

    def __str__(self) -> str:
        large = "past the budget" if self.large_s is None else f"{self.large_s * 1000:.1f} ms"
        small = "past the budget" if self.small_s is None else f"{self.small_s * 1000:.1f} ms"
        return f"{self.lead!r} + {self.pump!r} * k + {self.suffix!r}: {small} at n, {large} at 4n"


def _best(pattern: re.Pattern[str], text: str, budget: float, runs: int = 3) -> float | None:
    times = []
    for _ in range(runs):
        took = _time(pattern, text, budget)
        if took is None:
            return None
        times.append(took)
    return min(times)


def scan(
    pattern: re.Pattern[str], size: int = SIZE, budget: float = BUDGET_S, first_only: bool = False
) -> list[Finding]:
    """The attacks on which `pattern` is super-linear or past the budget (empty: it looks linear); with
    `first_only`, the first one found."""
    findings = []
    for lead, pump, suffix in attacks(pattern):
        k = max(1, size // len(pump))
        large_text = lead + pump * (4 * k) + suffix
        large = _time(pattern, large_text, budget)
        if large is not None and large < MEASURABLE_S:
            continue
        small = _best(pattern, lead + pump * k + suffix, budget)
        if large is not None:
            large = _best(pattern, large_text, budget)
        if large is None or small is None or (large >= MEASURABLE_S and large > GROWTH * max(small, 1e-6)):
            findings.append(Finding(lead, pump, suffix, small, large))
            if first_only:
                break
    return findings


class TooSlow(Exception):
    """A step ran past its time budget (`budget`)."""


@contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Raise TooSlow in the block once `seconds` of wall time have passed (a real timer: a freeze fails the test
    at once instead of hanging the run)."""

    def alarm(*_: Any) -> None:
        raise TooSlow(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
