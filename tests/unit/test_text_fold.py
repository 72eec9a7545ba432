"""One folding of text for every comparison (bot/text/fold.py)."""

from __future__ import annotations

from bot.features.apps.board import parse_stage
from bot.features.review.companies import company_key
from bot.kernel.non_answer import is_non_answer
from bot.kernel.yes_no import is_yes
from bot.text.fold import fold, nfkc, squash


def test_fold_makes_width_and_case_one() -> None:
    assert fold("ＹＥＳ Straße ﬁne") == "yes strasse fine"
    assert squash("  Pre-LN \t 与\n Post-LN  ") == "pre-ln 与 post-ln"
    assert nfkc("ＹＥＳ ﬁne Θ(n)") == "YES fine Θ(n)"  # the normal form alone keeps case (base64, Θ)


def test_its_users_read_full_width_and_upper_case() -> None:
    assert is_yes("ＹＥＳ！")
    assert is_non_answer("ＩＤＫ")
    assert parse_stage("三面") == parse_stage("三面 ") == ("technical", 3)
    assert parse_stage("ＯＦＦＥＲ") == parse_stage("offer") is not None
    assert company_key("ＡＮＴＨＲＯＰＩＣ") == company_key("Anthropic")
