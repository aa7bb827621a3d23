"""The display's message calls, sent as ready-made payloads.

The display never reads the message Discord sends back, so these skip building a
``discord.Message`` from every answer; errors are discord.py's own (``NotFound``,
``Forbidden``, ``HTTPException``), raised by its HTTP client with its rate limiting.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route

Payload = dict[str, Any]


def message_payload(embeds: list[discord.Embed], view: discord.ui.View | None) -> Payload:
    """The body of a message with these embeds and components (none when ``view`` is None)."""
    return {
        "embeds": [e.to_dict() for e in embeds],
        "components": view.to_components() if view is not None else [],
    }


NO_MENTIONS: Payload = {"parse": []}


async def edit_message(
    client: discord.Client, channel_id: int, message_id: int, payload: Payload
) -> None:
    """Edit a message; it notifies nobody."""
    route = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=channel_id,
        message_id=message_id,
    )
    await client.http.request(route, json={**payload, "allowed_mentions": NO_MENTIONS})


async def send_message(client: discord.Client, channel_id: int, payload: Payload) -> int:
    """Send a message; its id. It notifies nobody unless the payload's own
    ``allowed_mentions`` names who it may notify."""
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    body = {"allowed_mentions": NO_MENTIONS, **payload}
    data = await client.http.request(route, json=body)
    return int(data["id"])


async def recent_messages(client: discord.Client, channel_id: int, after: int) -> list[Payload]:
    """Up to 100 messages of a channel posted after the id ``after``."""
    found: list[Any] = await client.http.logs_from(channel_id, 100, after=after)
    return [dict(message) for message in found]
