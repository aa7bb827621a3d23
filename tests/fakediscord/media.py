"""Uploaded files as Discord describes them: media types, image sizes, and the `attachment://`
references in embeds and Components V2 resolved to the served file, as in Discord's answers."""

from __future__ import annotations

import copy
import mimetypes
import struct
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import Attachment, Payload

ATTACHMENT_SCHEME = "attachment://"
LOADING_STATE_LOADED = 2  # Discord's `loading_state` of a media item it has processed
_GENERIC_TYPES = (None, "", "application/octet-stream")


def content_type_of(filename: str, declared: str | None) -> str | None:
    """The type Discord reports for an upload: discord.py labels every part
    `application/octet-stream`, and Discord answers with the file's real type (`image/png`)."""
    guessed, _ = mimetypes.guess_type(filename, strict=False)
    if declared in _GENERIC_TYPES:
        return guessed or declared or None
    return declared


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, GIF or JPEG image from its header; None for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data.startswith((b"GIF87a", b"GIF89a")) and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    index = 2
    while index + 9 <= len(data):
        if data[index] != 0xFF:
            return None
        marker = data[index + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            index += 2
            continue
        (length,) = struct.unpack(">H", data[index + 2 : index + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[index + 5 : index + 9])
            return int(width), int(height)
        index += 2 + length
    return None


def attachment_refs(attachments: list[Attachment]) -> dict[str, str]:
    """`attachment://name` → served URL for the files of one message version."""
    return {f"{ATTACHMENT_SCHEME}{a.filename}": a.url for a in attachments}


def unfurled(attachment: Attachment) -> Payload:
    """An unfurled media item pointing at an uploaded file, as Discord answers it."""
    item: Payload = {"url": attachment.url, "proxy_url": attachment.url}
    if attachment.width is not None:
        item["width"], item["height"] = attachment.width, attachment.height
    if attachment.content_type:
        item["content_type"] = attachment.content_type
    item.update(loading_state=LOADING_STATE_LOADED, flags=0, attachment_id=str(attachment.id))
    return item


def resolve_references(payload: Payload, attachments: list[Attachment]) -> None:
    """Rewrites `attachment://name` references in the payload's embeds and components to the
    uploaded files (URL, proxy URL, size, type), in place; other values are left as sent."""
    by_ref = {f"{ATTACHMENT_SCHEME}{a.filename}": a for a in attachments}
    if not by_ref:
        return
    payload["embeds"] = [_resolve_embed(e, by_ref) for e in payload.get("embeds") or []]
    components = copy.deepcopy(list(payload.get("components") or []))
    for component in components:
        _resolve_component(component, by_ref)
    payload["components"] = components


def _resolve_embed(embed: Payload, by_ref: dict[str, Attachment]) -> Payload:
    embed = copy.deepcopy(embed)
    for key in ("image", "thumbnail"):
        media = embed.get(key)
        if isinstance(media, dict) and media.get("url") in by_ref:
            found = unfurled(by_ref[media["url"]])
            for name in ("loading_state", "attachment_id"):
                found.pop(name)
            embed[key] = {**media, **found}
    for key, field in (("author", "icon_url"), ("footer", "icon_url")):
        part = embed.get(key)
        if isinstance(part, dict) and part.get(field) in by_ref:
            url = by_ref[part[field]].url
            part[field] = url
            part[f"proxy_{field}"] = url
    return embed


def _resolve_component(component: Any, by_ref: dict[str, Attachment]) -> None:
    if not isinstance(component, dict):
        return
    kind = component.get("type")
    if kind == 11:
        component["media"] = _resolve_media(component.get("media"), by_ref)
    elif kind == 12:
        for item in component.get("items") or []:
            if isinstance(item, dict):
                item["media"] = _resolve_media(item.get("media"), by_ref)
    elif kind == 13:
        media = component.get("file")
        if isinstance(media, dict) and media.get("url") in by_ref:
            attachment = by_ref[media["url"]]
            component["file"] = {**media, **unfurled(attachment)}
            component["name"] = attachment.filename
            component["size"] = len(attachment.data)
    for child in component.get("components") or []:
        _resolve_component(child, by_ref)
    _resolve_component(component.get("accessory"), by_ref)


def _resolve_media(media: Any, by_ref: dict[str, Attachment]) -> Any:
    if isinstance(media, dict) and media.get("url") in by_ref:
        return {**media, **unfurled(by_ref[media["url"]])}
    return media
