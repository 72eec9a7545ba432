"""Text normalisation for matching answers against rubrics, the same on both sides.

Whatever is mapped here is mapped for the reference text and the answer alike, so a rule
that over-applies ("precise" -> "precize") is harmless; a rule that is missing makes two
spellings of one idea differ. Covered: NFKC and case, invisible characters, British and
American spelling, Greek letters and common math notation (α, √, Θ/O, ×), numbers with
thousands separators or a space before the percent sign, Chinese and English punctuation.
"""

from __future__ import annotations

import re

from bot.text.fold import nfkc
from bot.text.numerals import ONE_TO_NINE, ONE_TO_TEN, cn_int

_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_BIG_THETA = re.compile(r"[ΘΩ]\s*\(")
_SYMBOLS = {
    "α": " alpha ",
    "β": " beta ",
    "γ": " gamma ",
    "δ": " delta ",
    "ε": " epsilon ",
    "ϵ": " epsilon ",
    "η": " eta ",
    "θ": " theta ",
    "λ": " lambda ",
    "μ": " mu ",
    "π": " pi ",
    "σ": " sigma ",
    "τ": " tau ",
    "φ": " phi ",
    "√": " sqrt ",
    "∝": " proportional ",
    "≈": " approx ",
    "~": " approx ",
    "≤": " <= ",
    "≥": " >= ",
    "→": " -> ",
    "⇒": " -> ",
    "⟶": " -> ",
    "−": "-",
    "–": "-",
    "—": " - ",
    "·": " ",
    "∙": " ",
    "×": " x ",
    "∗": "*",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "，": ",",
    "；": ";",
    "：": ":",
    "（": "(",
    "）": ")",
    "！": "!",
    "？": "?",
}
_SYMBOL_RE = re.compile("|".join(re.escape(k) for k in _SYMBOLS))
# Chinese engineers' synonyms for one idea, folded to the word the bank uses.
_ZH_SYNONYMS = {
    "尖刺": "尖峰",
    "毛刺": "尖峰",
    "突刺": "尖峰",
    "显存爆了": "显存溢出",
    "爆显存": "显存溢出",
    "炸显存": "显存溢出",
}
_ZH_SYNONYM_RE = re.compile("|".join(_ZH_SYNONYMS))
# British -> American (applied to both sides, so over-application is harmless).
_ISE = re.compile(r"\b([a-z]{3,}?)(is|ys)(e|es|ed|ing|ation|ations|er|ers)\b")
_OUR = re.compile(r"\b([a-z]{3,})our(s|ed|ing|able)?\b")
_TRE = re.compile(r"\b([a-z]{3,})tre(s)?\b")
_LL = re.compile(r"\b([a-z]{3,}e)ll(ed|ing|er|ers)\b")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_PERCENT = re.compile(r"(?<=\d)\s+(?=%|percent\b)")
_PERCENT_WORD = re.compile(r"(?<=\d)percent\b")
_TIMES = re.compile(r"(?<=\d)\s*x\b")
_SPACE = re.compile(r"\s+")
_ZERO = re.compile(r"(?<![-\w])zeros?(?![-\w])")  # "initialised to zero" meets "B = 0"
_ZH_TENTHS = re.compile(
    rf"(?<![{ONE_TO_TEN}])([{ONE_TO_NINE}])成(?=[^功为本果立绩员长熟型分不]|$)"
)  # 九成 = 90% (not 一成不变)


def _british(match: re.Match[str]) -> str:
    stem, middle, ending = match.group(1), match.group(2), match.group(3)
    return stem + ("iz" if middle == "is" else "yz") + ending


def for_matching(text: str) -> str:
    """The text as both sides of a comparison see it: one canonical spelling of each idea."""
    t = _INVISIBLE.sub("", nfkc(text))
    t = _BIG_THETA.sub("O(", t)
    t = _SYMBOL_RE.sub(lambda m: _SYMBOLS[m.group(0)], t.lower())
    t = _ZH_SYNONYM_RE.sub(lambda m: _ZH_SYNONYMS[m.group(0)], t)
    t = _ZERO.sub("0", t)
    t = _ZH_TENTHS.sub(lambda m: f"{cn_int(m.group(1))}0%", t)
    t = _THOUSANDS.sub("", t)
    t = _PERCENT.sub("", t)
    t = _PERCENT_WORD.sub("%", t)
    t = _TIMES.sub("x", t)
    t = _ISE.sub(_british, t)
    t = _OUR.sub(lambda m: m.group(1) + "or" + (m.group(2) or ""), t)
    t = _TRE.sub(lambda m: m.group(1) + "ter" + (m.group(2) or ""), t)
    t = _LL.sub(lambda m: m.group(1) + "l" + m.group(2), t)
    return _SPACE.sub(" ", t).strip()


def canonical_number(token: str) -> str:
    """One spelling per quantity: "1.0" -> "1", "3e-4" and "0.0003" -> "0.0003", "2k" -> "2000"."""
    suffix = ""
    if token.endswith("%"):
        token, suffix = token[:-1], "%"
    scale = 1.0
    if token.endswith("k"):
        token, scale = token[:-1], 1000.0
    try:
        value = float(token) * scale
    except ValueError:
        return token + suffix
    return format(value, "g") + suffix
