"""The display's message calls, sent as ready-made payloads.

The display never reads the message Discord sends back, so these skip building a
``discord.Message`` from every answer; errors are discord.py's own (``NotFound``,
``Forbidden``, ``HTTPException``), raised by its HTTP client with its rate limiting.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
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
    client: discord.Client,
    channel_id: int,
    message_id: int,
    payload: Payload,
    files: Sequence[Attachment] = (),
) -> None:
    """Edit a message (its files, when given, replace the ones it had); it notifies nobody."""
    route = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=channel_id,
        message_id=message_id,
    )
    body = {**payload, "allowed_mentions": NO_MENTIONS}
    if not files:
        await client.http.request(route, json=body)
        return
    await _with_files(client, route, body, files)


async def send_message(
    client: discord.Client,
    channel_id: int,
    payload: Payload,
    files: Sequence[Attachment] = (),
) -> int:
    """Send a message, with files if any; its id. It notifies nobody unless the payload's
    own ``allowed_mentions`` names who it may notify."""
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    body = {"allowed_mentions": NO_MENTIONS, **payload}
    if not files:
        data = await client.http.request(route, json=body)
        return int(data["id"])
    data = await _with_files(client, route, body, files)
    return int(data["id"])


async def _with_files(
    client: discord.Client, route: Route, body: Payload, files: Sequence[Attachment]
) -> Any:
    """A request whose body comes with files, as Discord takes them: multipart, the JSON in
    ``payload_json`` and each file in ``files[n]``."""
    body = {**body, "attachments": [{"id": i, "filename": f.filename} for i, f in enumerate(files)]}
    uploads = [discord.File(io.BytesIO(f.data), filename=f.filename) for f in files]
    form: list[dict[str, Any]] = [{"name": "payload_json", "value": discord.utils._to_json(body)}]
    for i, upload in enumerate(uploads):
        form.append(
            {
                "name": f"files[{i}]",
                "value": upload.fp,
                "filename": upload.filename,
                "content_type": "application/octet-stream",
            }
        )
    try:
        return await client.http.request(route, form=form, files=uploads)
    finally:
        for upload in uploads:
            upload.close()


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to send with a message: its name (what ``attachment://`` refers to) and bytes."""

    filename: str
    data: bytes


async def recent_messages(client: discord.Client, channel_id: int, after: int) -> list[Payload]:
    """Up to 100 messages of a channel posted after the id ``after``."""
    found: list[Any] = await client.http.logs_from(channel_id, 100, after=after)
    return [dict(message) for message in found]
