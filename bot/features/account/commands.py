"""The account's commands (/stats, /forget, /export, /privacy), declared once with the kernel's registry
(bot/kernel/registry.py); importing this module registers them."""

from __future__ import annotations

from bot.features.account import account
from bot.kernel import commands as c
from bot.kernel.registry import Entry, Slash, no_words, register

register(
    Entry(
        "stats",
        no_words(c.ShowStats),
        zh=("统计",),
        menu_key="menu.stats",
        rank=100,
        slash=Slash(),
        handlers={c.ShowStats: account.show_stats},
    ),
    Entry(
        "forget",
        no_words(c.Forget),
        zh=("删除数据",),
        menu_key="menu.forget",
        rank=150,
        slash=Slash(),
        handlers={c.Forget: account.forget, c.ConfirmForget: account.confirm_forget},
    ),
    Entry(
        "export",
        no_words(c.ExportData),
        zh=("导出",),
        menu_key="menu.export",
        rank=160,
        slash=Slash(),
        handlers={c.ExportData: account.export_data},
    ),
    Entry(
        "privacy",
        no_words(c.ShowPrivacy),
        zh=("隐私",),
        menu_key="menu.privacy",
        rank=170,
        slash=Slash(),
        handlers={c.ShowPrivacy: account.privacy},
    ),
)
