"""Core replies as Discord messages: length limits, button rows, attachments."""

from __future__ import annotations

from bot.kernel.replies import Attachment, Button, Reply
from bot.platforms.discord.render import Layout, chunks, messages


def test_long_text_is_split_at_line_ends_and_buttons_go_with_the_last_part() -> None:
    text = "\n".join(f"line {i} " + "x" * 90 for i in range(60))  # about 6,000 characters
    parts = messages(Reply(text, [[Button("Next", "next")]]))
    assert len(parts) == 3 and all(len(p["content"]) <= 2000 for p in parts)
    assert "".join(p["content"] for p in parts).replace("\n", "") == text.replace("\n", "")
    assert all(p["content"].startswith("line") for p in parts)  # no line is cut in two
    assert [("view" in p) for p in parts] == [False, False, True]


def test_a_line_longer_than_the_limit_is_cut_and_blank_text_sends_nothing() -> None:
    assert [len(c) for c in chunks("y" * 4500)] == [2000, 2000, 500]
    assert messages(Reply("  \n ")) == []


def test_a_long_line_is_cut_at_a_space_and_an_early_line_break_is_passed_over() -> None:
    """The split every adapter shares (bot/text/split.py): a cut at a line break in the second half of what fits,
    else at a space there. Before it, Discord cut at any line break and else mid-word: [9, 2000, 1599]."""
    text = "Feedback:\n" + " ".join(f"point{i:03d}" for i in range(400))  # 3,609 characters, a line break at 9
    parts = chunks(text)
    assert [len(p) for p in parts] == [1998, 1610]
    assert parts[0].endswith(" point220") and parts[1].startswith("point221 ")  # no word cut in two
    assert " ".join(parts) == text  # only the space at the cut is dropped


def test_buttons_wrap_at_five_a_row_and_keep_their_actions() -> None:
    row = [Button(f"b{i}", f"rate:1:{i}") for i in range(7)]
    (part,) = messages(Reply("pick", [row, [Button("L" * 100, "next")]]))
    view = part["view"]
    assert isinstance(view, Layout) and not view.is_dispatchable()  # never kept in memory per message
    rows = view.to_components()
    assert [len(r["components"]) for r in rows] == [5, 2, 1]
    assert rows[0]["components"][0]["custom_id"] == "drill:rate:1:0"
    assert len(rows[2]["components"][0]["label"]) == 80 and rows[2]["components"][0]["style"] == 1


def test_a_layout_sends_the_same_components_as_discord_pys_own_buttons() -> None:
    import discord

    rows = [
        [Button("下一题", "next"), Button("Forget", "forget:yes")],
        [Button(f"r{i}", f"rate:1:{i}") for i in range(6)],
    ]
    (part,) = messages(Reply("x", rows))
    generic = discord.ui.View(timeout=None)
    for index, row in enumerate([rows[0], rows[1][:5], rows[1][5:]]):
        for b in row:
            style = {"next": discord.ButtonStyle.primary, "forget:yes": discord.ButtonStyle.danger}.get(
                b.action, discord.ButtonStyle.secondary
            )
            generic.add_item(discord.ui.Button(label=b.label, custom_id="drill:" + b.action, style=style, row=index))
    assert part["view"].to_components() == generic.to_components()
    assert not part["view"].children and not part["view"].has_components_v2()


def test_an_action_too_long_for_a_custom_id_is_dropped_not_sent_broken() -> None:
    (part,) = messages(Reply("x", [[Button("ok", "next"), Button("too long", "x" * 120)]]))
    ids = [c["custom_id"] for r in part["view"].to_components() for c in r["components"]]
    assert ids == ["drill:next"]


def test_files_and_images_ride_on_the_last_message_even_without_text() -> None:
    chart = Attachment("chart.png", b"\x89PNG", "image/png")
    (part,) = messages(Reply("", image=chart, file=Attachment("data.json", b"{}", "application/json")))
    assert [f.filename for f in part["files"]] == ["chart.png", "data.json"] and "content" not in part
