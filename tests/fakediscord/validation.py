"""Discord's documented limits (messages, emojis), checked so a bot that breaks them fails here."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from .errors import ApiError
from .media import ATTACHMENT_SCHEME
from .models import FLAG_COMPONENTS_V2, Payload, iter_components

_EMBED_LIMITS = {"title": 256, "description": 4096}

# Components V2 (message flag 1 << 15), as Discord's component reference has them.
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 9, 10, 11
MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 12, 13, 14, 17
SELECT_TYPES = (3, 5, 6, 7, 8)
V2_TOP_LEVEL = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
V2_IN_CONTAINER = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR)
ROW_CHILDREN = (BUTTON, *SELECT_TYPES)
V2_MAX_COMPONENTS = 40  # nested ones count
V2_MAX_TEXT = 4000  # characters across all text displays
GALLERY_MAX_ITEMS = 10
SECTION_MAX_TEXTS = 3
MEDIA_DESCRIPTION_MAX = 1024
COMPONENT_ID_MAX = 2**31 - 1
_NAMES = {
    ACTION_ROW: "action row",
    BUTTON: "button",
    SECTION: "section",
    TEXT_DISPLAY: "text display",
    THUMBNAIL: "thumbnail",
    MEDIA_GALLERY: "media gallery",
    FILE: "file",
    SEPARATOR: "separator",
    CONTAINER: "container",
}

# Attachments: at most 10 per message, each within the default upload limit of bots.
MAX_ATTACHMENTS = 10
UPLOAD_LIMIT = 10 * 1024 * 1024
ENTITY_TOO_LARGE = 40005  # Discord's "Request entity too large" (with HTTP 413)


def message_errors(body: Payload, attachment_refs: dict[str, str] | None = None) -> list[str]:
    """Returns human-readable reasons why Discord would reject this message body (400).

    `attachment_refs` maps `attachment://name` to the served URL of each file of the message:
    what V2 media and file components may point at.
    """
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
    if v2 and (body.get("poll") or body.get("sticker_ids")):
        errors.append("polls and stickers cannot be used with the Components V2 flag")
    components = body.get("components")
    if components:
        errors.extend(components_errors(components, v2=v2, attachment_refs=attachment_refs))
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


def components_errors(
    components: list[Payload], *, v2: bool, attachment_refs: dict[str, str] | None = None
) -> list[str]:
    """Why Discord would refuse a message's components: without the V2 flag, up to 5 action
    rows; with it, the V2 layout (`v2_layout_errors`)."""
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
    else:
        errors.extend(v2_layout_errors(components, attachment_refs or {}))
        if errors:
            return errors
    errors.extend(_leaf_errors(components))
    return errors


def modal_components_errors(components: list[Payload]) -> list[str]:
    """The per-component rules (custom ids, buttons, selects) for a modal's components."""
    return _leaf_errors(components)


def _leaf_errors(components: list[Payload]) -> list[str]:
    errors: list[str] = []
    seen: set[str] = set()
    for component in iter_components(components):
        errors.extend(_component_errors(component))
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                errors.append(f"components: custom_id {custom_id!r} is used twice")
            seen.add(custom_id)
    return errors


def _row_errors(index: int | str, row: Payload) -> list[str]:
    where = index if isinstance(index, str) else f"components.{index}"
    children: list[Any] = row.get("components") or []
    if not children:
        return [f"{where}: an action row needs at least one component"]
    selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
    if selects and len(children) > 1:
        return [f"{where}: a select menu must be alone in its row"]
    if len(children) > 5:
        return [f"{where}: at most 5 buttons per row (got {len(children)})"]
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


# -- Components V2 ------------------------------------------------------------------------------


def v2_layout_errors(components: list[Payload], attachment_refs: dict[str, str]) -> list[str]:
    """Why Discord would refuse the components of a message with the IS_COMPONENTS_V2 flag:
    the allowed types at each level, each component's fields, at most 40 components in all
    (nested ones count), 4,000 characters across the text displays, unique ids, and media
    pointing at http(s) URLs or at files attached to the message (`attachment_refs`)."""
    errors: list[str] = []
    if not isinstance(components, list):
        return ["components: must be an array"]
    for index, component in enumerate(components):
        _v2_component(component, f"components.{index}", V2_TOP_LEVEL, attachment_refs, errors)
    if errors:
        return errors
    every = iter_components(components)
    if len(every) > V2_MAX_COMPONENTS:
        errors.append(
            f"components: at most {V2_MAX_COMPONENTS} components in a Components V2 message,"
            f" nested ones included (got {len(every)})"
        )
    text = sum(len(str(c.get("content") or "")) for c in every if c.get("type") == TEXT_DISPLAY)
    if text > V2_MAX_TEXT:
        errors.append(
            f"components: the text displays hold at most {V2_MAX_TEXT} characters in all"
            f" (got {text})"
        )
    errors.extend(_id_errors(every))
    return errors


def _v2_component(
    component: Any,
    path: str,
    allowed: tuple[int, ...],
    refs: dict[str, str],
    errors: list[str],
) -> None:
    if not isinstance(component, dict):
        errors.append(f"{path}: must be a component object")
        return
    kind = component.get("type")
    if kind not in allowed:
        names = ", ".join(_NAMES.get(k, str(k)) for k in allowed)
        shown = _NAMES.get(kind, "an unknown component") if isinstance(kind, int) else "no type"
        errors.append(f"{path}.type: {shown} (type {kind!r}) is not allowed here, only: {names}")
        return
    if kind == ACTION_ROW:
        children = component.get("components") or []
        for index, child in enumerate(children):
            if not isinstance(child, dict) or child.get("type") not in ROW_CHILDREN:
                kind_shown = child.get("type") if isinstance(child, dict) else child
                errors.append(
                    f"{path}.components.{index}: an action row holds buttons or one select"
                    f" menu (got type {kind_shown})"
                )
        errors.extend(_row_errors(path, component))
    elif kind == SECTION:
        _section_errors(component, path, refs, errors)
    elif kind == TEXT_DISPLAY:
        content = component.get("content")
        if not isinstance(content, str) or not content:
            errors.append(f"{path}.content: a text display needs its text (a non-empty string)")
    elif kind == THUMBNAIL:
        _media_errors(component.get("media"), f"{path}.media", refs, errors)
        _description_errors(component, path, errors)
        _bool_errors(component, "spoiler", path, errors)
    elif kind == MEDIA_GALLERY:
        _gallery_errors(component, path, refs, errors)
    elif kind == FILE:
        _media_errors(component.get("file"), f"{path}.file", refs, errors, attachment_only=True)
        _bool_errors(component, "spoiler", path, errors)
    elif kind == SEPARATOR:
        _bool_errors(component, "divider", path, errors)
        spacing = component.get("spacing")
        if spacing is not None and (type(spacing) is not int or spacing not in (1, 2)):
            errors.append(f"{path}.spacing: must be 1 (small) or 2 (large), got {spacing!r}")
    elif kind == CONTAINER:
        _container_errors(component, path, refs, errors)


def _section_errors(section: Payload, path: str, refs: dict[str, str], errors: list[str]) -> None:
    texts = section.get("components")
    if not isinstance(texts, list) or not 1 <= len(texts) <= SECTION_MAX_TEXTS:
        count = len(texts) if isinstance(texts, list) else texts
        errors.append(
            f"{path}.components: a section holds 1 to {SECTION_MAX_TEXTS} text displays"
            f" (got {count})"
        )
    else:
        for index, text in enumerate(texts):
            _v2_component(text, f"{path}.components.{index}", (TEXT_DISPLAY,), refs, errors)
    accessory = section.get("accessory")
    if accessory is None:
        errors.append(f"{path}.accessory: a section needs an accessory (a button or a thumbnail)")
    else:
        _v2_component(accessory, f"{path}.accessory", (BUTTON, THUMBNAIL), refs, errors)


def _gallery_errors(gallery: Payload, path: str, refs: dict[str, str], errors: list[str]) -> None:
    items = gallery.get("items")
    if not isinstance(items, list) or not 1 <= len(items) <= GALLERY_MAX_ITEMS:
        count = len(items) if isinstance(items, list) else items
        errors.append(
            f"{path}.items: a media gallery holds 1 to {GALLERY_MAX_ITEMS} items (got {count})"
        )
        return
    for index, item in enumerate(items):
        where = f"{path}.items.{index}"
        if not isinstance(item, dict):
            errors.append(f"{where}: must be a media gallery item object")
            continue
        _media_errors(item.get("media"), f"{where}.media", refs, errors)
        _description_errors(item, where, errors)
        _bool_errors(item, "spoiler", where, errors)


def _container_errors(
    container: Payload, path: str, refs: dict[str, str], errors: list[str]
) -> None:
    children = container.get("components")
    if not isinstance(children, list) or not children:
        errors.append(f"{path}.components: a container needs at least one component")
    else:
        for index, child in enumerate(children):
            _v2_component(child, f"{path}.components.{index}", V2_IN_CONTAINER, refs, errors)
    colour = container.get("accent_color")
    if colour is not None and (type(colour) is not int or not 0 <= colour <= 0xFFFFFF):
        errors.append(f"{path}.accent_color: must be an RGB integer 0 to 0xFFFFFF or null")
    _bool_errors(container, "spoiler", path, errors)


def _media_errors(
    media: Any, path: str, refs: dict[str, str], errors: list[str], *, attachment_only: bool = False
) -> None:
    """An unfurled media item: `{"url": ...}`, an http(s) URL or `attachment://<filename>`
    naming a file of the message (file components take only the latter)."""
    if not isinstance(media, dict) or not isinstance(media.get("url"), str) or not media["url"]:
        errors.append(f"{path}.url: this field is required")
        return
    url: str = media["url"]
    attached = url in refs or url in refs.values()
    if url.startswith(ATTACHMENT_SCHEME):
        if not attached:
            names = sorted(r.removeprefix(ATTACHMENT_SCHEME) for r in refs)
            errors.append(
                f"{path}.url: {url} names no file attached to this message (attached: {names})"
            )
    elif attachment_only and not attached:
        errors.append(
            f"{path}.url: a file component only takes attachment://<filename> (got {url!r})"
        )
    elif not url.startswith(("http://", "https://")):
        scheme = url.split(":", 1)[0]
        errors.append(
            f'{path}.url: Scheme "{scheme}" is not supported.'
            " Scheme must be one of ('http', 'https', 'attachment')."
        )


def _description_errors(item: Payload, path: str, errors: list[str]) -> None:
    description = item.get("description")
    if description is None:
        return
    if not isinstance(description, str) or len(description) > MEDIA_DESCRIPTION_MAX:
        errors.append(
            f"{path}.description: must be a string of {MEDIA_DESCRIPTION_MAX} or fewer characters"
        )


def _bool_errors(component: Payload, key: str, path: str, errors: list[str]) -> None:
    value = component.get(key)
    if value is not None and not isinstance(value, bool):
        errors.append(f"{path}.{key}: must be a boolean (got {value!r})")


def _id_errors(components: list[Payload]) -> list[str]:
    errors: list[str] = []
    seen: set[int] = set()
    for component in components:
        value = component.get("id")
        if value is None:
            continue
        if type(value) is not int or not 0 <= value <= COMPONENT_ID_MAX:
            errors.append(f"components: id {value!r} must be a 32-bit integer")
        elif value != 0:  # 0 asks Discord to pick one
            if value in seen:
                errors.append(f"components: id {value} is used twice (ids must be unique)")
            seen.add(value)
    return errors


def assign_component_ids(components: list[Payload]) -> None:
    """Gives every component without an id (or with 0) the next free one, 1, 2, 3, ... in
    order, as Discord does for V2 messages; ids the bot chose are kept and skipped."""
    every = iter_components(components)
    taken = {c["id"] for c in every if type(c.get("id")) is int and c["id"] != 0}
    next_id = 1
    for component in every:
        if component.get("id") in (None, 0):
            while next_id in taken:
                next_id += 1
            component["id"] = next_id
            taken.add(next_id)


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
        codes = [code for found in fields.values() for code, _ in found]
        super().__init__(400, 50035, "Invalid Form Body", flat, codes=codes)
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
