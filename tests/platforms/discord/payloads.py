"""Raw gateway payloads for interactions and messages, shaped as Discord sends them, so that
discord.py builds real `Interaction` and `Message` objects from them (as its own tests do)."""

from __future__ import annotations

import itertools
from typing import Any

from tests.platforms.discord.fake_discord import APP_ID, message_payload, user_payload

GUILD_ID = 700
CHANNEL_ID = 710
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 31)  # view channel, send messages, use application commands
_ids = itertools.count(9_000_000)

OPTION_TYPES = {str: 3, int: 4, bool: 5}


def next_id() -> int:
    return next(_ids)


def _base(kind: int, user_id: int, guild_id: int | None, permissions: int, locale: str) -> dict[str, Any]:
    iid = next_id()
    payload: dict[str, Any] = {
        "id": str(iid),
        "application_id": str(APP_ID),
        "type": kind,
        "token": f"token-{iid}",
        "version": 1,
        "locale": locale,
        "app_permissions": str(MEMBER_PERMISSIONS),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)} if guild_id else {"1": str(user_id)},
        "attachment_size_limit": 25 * 1024 * 1024,
    }
    if guild_id is not None:
        payload.update(
            guild_id=str(guild_id),
            guild_locale="en-US",
            context=0,
            channel_id=str(CHANNEL_ID),
            channel={"id": str(CHANNEL_ID), "type": 0, "guild_id": str(guild_id), "name": "study", "position": 0},
            member={
                "user": user_payload(user_id),
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(permissions),
            },
        )
    else:
        dm_channel = 800_000 + user_id
        payload.update(
            context=1,
            channel_id=str(dm_channel),
            channel={"id": str(dm_channel), "type": 1, "recipients": [user_payload(user_id)]},
            user=user_payload(user_id),
        )
    return payload


def command(
    name: str,
    *,
    user_id: int = 1,
    guild_id: int | None = GUILD_ID,
    permissions: int = MEMBER_PERMISSIONS,
    locale: str = "en-US",
    resolved: dict[str, Any] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A slash command interaction; options as Python values (str, int, bool) or (type, value) pairs."""
    opts = []
    for key, value in options.items():
        kind, raw = value if isinstance(value, tuple) else (OPTION_TYPES[type(value)], value)
        opts.append({"name": key, "type": kind, "value": raw})
    payload = _base(2, user_id, guild_id, permissions, locale)
    data: dict[str, Any] = {"id": str(next_id()), "name": name, "type": 1, "options": opts}
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if resolved:
        data["resolved"] = resolved
    payload["data"] = data
    return payload


def attachment(att_id: int, url: str, filename: str, size: int, content_type: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": str(att_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
        **extra,
    }


def channel_option(channel_id: int, guild_id: int = GUILD_ID) -> tuple[tuple[int, str], dict[str, Any]]:
    """The (option, resolved) pair for a text channel argument."""
    resolved = {
        "channels": {
            str(channel_id): {
                "id": str(channel_id),
                "name": "daily",
                "type": 0,
                "permissions": str(MEMBER_PERMISSIONS),
                "guild_id": str(guild_id),
            }
        }
    }
    return (7, str(channel_id)), resolved


def button(
    custom_id: str,
    message: dict[str, Any],
    *,
    user_id: int = 1,
    guild_id: int | None = GUILD_ID,
    locale: str = "en-US",
) -> dict[str, Any]:
    """A button press on `message` (a message payload as the fake server returned it)."""
    payload = _base(3, user_id, guild_id, MEMBER_PERMISSIONS, locale)
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    payload["message"] = message
    return payload


def modal_submit(
    modal: dict[str, Any], values: list[str], *, user_id: int = 1, guild_id: int | None = GUILD_ID
) -> dict[str, Any]:
    """The submission of `modal` (the data of the bot's modal callback) with one value per text input."""
    answers = iter(values)
    rows = []
    for component in modal["components"]:
        if component["type"] == 1:  # an action row around text inputs
            inner = [{"type": 4, "custom_id": x["custom_id"], "value": next(answers)} for x in component["components"]]
            rows.append({"type": 1, "components": inner})
        elif component["type"] == 18:  # a label around one text input
            inner_input = component["component"]
            rows.append(
                {"type": 18, "component": {"type": 4, "custom_id": inner_input["custom_id"], "value": next(answers)}}
            )
    payload = _base(5, user_id, guild_id, MEMBER_PERMISSIONS, "en-US")
    payload["data"] = {"custom_id": modal["custom_id"], "components": rows}
    return payload


def message_with_components(
    custom_ids_and_labels: list[tuple[str, str]], channel_id: int = CHANNEL_ID
) -> dict[str, Any]:
    """A message with one row of buttons, as Discord includes it in a component interaction."""
    row = [{"type": 2, "style": 1, "custom_id": cid, "label": label} for cid, label in custom_ids_and_labels]
    return message_from({"components": [{"type": 1, "components": row}]}, channel_id)


def message_from(sent: dict[str, Any], channel_id: int = CHANNEL_ID) -> dict[str, Any]:
    """The message the bot sent (its request body) as Discord includes it in a component interaction."""
    bot = {"id": "1001", "username": "drillbot", "discriminator": "0", "avatar": None, "bot": True}
    return message_payload(
        next_id(),
        channel_id,
        bot,
        sent.get("content") or "",
        flags=sent.get("flags", 0),
        components=sent.get("components", []),
    )


def dm_message(
    text: str, *, user_id: int = 1, attachments: list[dict[str, Any]] | None = None, flags: int = 0
) -> dict[str, Any]:
    return message_payload(
        next_id(), 800_000 + user_id, user_payload(user_id), text, flags=flags, attachments=attachments
    )
