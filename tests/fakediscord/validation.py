"""Discord's documented limits (messages, emojis), checked so a bot that breaks them fails here."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from .errors import ApiError
from .models import FLAG_COMPONENTS_V2, Payload, iter_components

_EMBED_LIMITS = {"title": 256, "description": 4096}


def message_errors(body: Payload) -> list[str]:
    """Returns human-readable reasons why Discord would reject this message body (400)."""
    errors: list[str] = []
    content = body.get("content")
    if content is not None and len(str(content)) > 2000:
        errors.append(f"content: must be 2000 or fewer in length (got {len(str(content))})")
    embeds = body.get("embeds")
    if embeds:
        if len(embeds) > 10:
            errors.append(f"embeds: at most 10 (got {len(embeds)})")
        total = 0
        for index, embed in enumerate(embeds):
            total += _embed_errors(index, embed, errors)
        if total > 6000:
            errors.append(f"embeds: total size must be 6000 or fewer (got {total})")
    v2 = bool((body.get("flags") or 0) & FLAG_COMPONENTS_V2)
    if v2 and (content or embeds):
        errors.append("content and embeds cannot be used with the Components V2 flag")
    components = body.get("components")
    if components:
        errors.extend(components_errors(components, v2=v2))
    return errors


def _embed_errors(index: int, embed: Payload, errors: list[str]) -> int:
    size = 0
    for key, limit in _EMBED_LIMITS.items():
        value = str(embed.get(key) or "")
        size += len(value)
        if len(value) > limit:
            errors.append(f"embeds.{index}.{key}: must be {limit} or fewer in length")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.append(f"embeds.{index}.fields: at most 25 (got {len(fields)})")
    for f_index, fld in enumerate(fields):
        name, value = str(fld.get("name") or ""), str(fld.get("value") or "")
        size += len(name) + len(value)
        if not name or not value:
            errors.append(f"embeds.{index}.fields.{f_index}: name and value are required")
        if len(name) > 256 or len(value) > 1024:
            errors.append(f"embeds.{index}.fields.{f_index}: name <= 256 and value <= 1024")
    footer = str((embed.get("footer") or {}).get("text") or "")
    author = str((embed.get("author") or {}).get("name") or "")
    size += len(footer) + len(author)
    if len(footer) > 2048:
        errors.append(f"embeds.{index}.footer.text: must be 2048 or fewer in length")
    if len(author) > 256:
        errors.append(f"embeds.{index}.author.name: must be 256 or fewer in length")
    return size


def components_errors(components: list[Payload], *, v2: bool) -> list[str]:
    errors: list[str] = []
    if not v2:
        if len(components) > 5:
            errors.append(f"components: at most 5 action rows (got {len(components)})")
        for index, row in enumerate(components):
            if row.get("type") != 1:
                errors.append(
                    f"components.{index}: top level must be action rows without flag 1<<15"
                )
                continue
            errors.extend(_row_errors(index, row))
    elif len(iter_components(components)) > 40:
        errors.append("components: at most 40 components in a Components V2 message")
    seen: set[str] = set()
    for component in iter_components(components):
        errors.extend(_component_errors(component))
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                errors.append(f"components: custom_id {custom_id!r} is used twice")
            seen.add(custom_id)
    return errors


def _row_errors(index: int, row: Payload) -> list[str]:
    children: list[Any] = row.get("components") or []
    if not children:
        return [f"components.{index}: an action row needs at least one component"]
    selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
    if selects and len(children) > 1:
        return [f"components.{index}: a select menu must be alone in its row"]
    if len(children) > 5:
        return [f"components.{index}: at most 5 buttons per row (got {len(children)})"]
    return []


def _component_errors(component: Payload) -> list[str]:
    errors: list[str] = []
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if custom_id is not None and not 1 <= len(custom_id) <= 100:
        errors.append(f"custom_id {custom_id[:40]!r}...: must be 1 to 100 characters")
    if kind == 2:
        label = component.get("label") or ""
        if len(label) > 80:
            errors.append(f"button {custom_id!r}: label must be 80 or fewer in length")
        if component.get("style") == 5:
            if not component.get("url"):
                errors.append("link button: url is required")
        elif component.get("style") != 6 and custom_id is None:
            errors.append("button: custom_id is required for non-link buttons")
        if not label and not component.get("emoji"):
            errors.append(f"button {custom_id!r}: needs a label or an emoji")
    elif kind == 3:
        options = component.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.append(f"select {custom_id!r}: needs 1 to 25 options (got {len(options)})")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.append(f"select {custom_id!r}: option values must be unique")
    return errors


def choices_errors(choices: list[Payload]) -> list[str]:
    errors: list[str] = []
    if len(choices) > 25:
        errors.append(f"choices: at most 25 (got {len(choices)})")
    for index, choice in enumerate(choices):
        name = str(choice.get("name") or "")
        if not 1 <= len(name) <= 100:
            errors.append(f"choices.{index}.name: must be 1 to 100 characters")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            errors.append(f"choices.{index}.value: must be 100 or fewer in length")
    return errors


# -- application emojis ------------------------------------------------------------------------

APPLICATION_EMOJI_LIMIT = 2000
EMOJI_IMAGE_LIMIT = 256 * 1024  # bytes of the decoded image
EMOJI_NAME_TAKEN = "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
MAX_EMOJIS = 30008  # Discord's "Maximum number of emojis reached"

_EMOJI_NAME = re.compile(r"[A-Za-z0-9_]+")
_DATA_URI = re.compile(r"data:(?P<type>[\w/+.-]+);base64,(?P<data>.*)", re.DOTALL)
_IMAGE_TYPES = ("image/png", "image/gif", "image/jpeg", "image/webp")

FieldProblems = dict[str, list[tuple[str, str]]]


class FormError(ApiError):
    """400 50035 with its reasons per field, nested the way Discord sends them:
    `{"errors": {"name": {"_errors": [{"code": ..., "message": ...}]}}}`."""

    def __init__(self, fields: FieldProblems) -> None:
        flat = [f"{name}: {message}" for name, found in fields.items() for _, message in found]
        super().__init__(400, 50035, "Invalid Form Body", flat)
        self.fields = fields

    def body(self) -> dict[str, Any]:
        errors = {
            name: {"_errors": [{"code": code, "message": message} for code, message in found]}
            for name, found in self.fields.items()
        }
        return {"code": self.code, "message": self.message, "errors": errors}


def emoji_name_problems(name: Any, taken: set[str]) -> list[tuple[str, str]]:
    """Why Discord would refuse this application emoji name (2-32 of A-Z a-z 0-9 _, unused)."""
    if not isinstance(name, str) or not name:
        return [("BASE_TYPE_REQUIRED", "This field is required")]
    if not 2 <= len(name) <= 32:
        return [("BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")]
    if not _EMOJI_NAME.fullmatch(name):
        return [("STRING_TYPE_REGEX", "String value did not match validation regex.")]
    if name in taken:
        return [(EMOJI_NAME_TAKEN, "Application emoji name already taken.")]
    return []


def image_type(data: bytes) -> str | None:
    """The type of a PNG, GIF, JPEG or WebP image from its first bytes; None for others."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def data_uri(image: bytes) -> str:
    """The `image` field Discord takes (what discord.py sends): `data:image/png;base64,...`."""
    kind = image_type(image) or "application/octet-stream"
    return f"data:{kind};base64,{base64.b64encode(image).decode('ascii')}"


def decode_emoji_image(value: Any) -> tuple[bytes, str, list[tuple[str, str]]]:
    """The image and its type from an emoji's data URI, or the reasons it is refused."""
    if not isinstance(value, str) or not value:
        return b"", "", [("BASE_TYPE_REQUIRED", "This field is required")]
    invalid = [("IMAGE_INVALID", "Invalid image data")]
    match = _DATA_URI.fullmatch(value)
    if match is None or match["type"] not in _IMAGE_TYPES:
        return b"", "", invalid
    try:
        data = base64.b64decode(match["data"], validate=True)
    except binascii.Error:
        return b"", "", invalid
    found = image_type(data)
    if found is None:
        return b"", "", invalid
    if len(data) > EMOJI_IMAGE_LIMIT:
        too_big = f"File cannot be larger than {EMOJI_IMAGE_LIMIT / 1024:.1f} kb."
        return b"", "", [("BINARY_TYPE_MAX_SIZE", too_big)]
    return data, found, []
