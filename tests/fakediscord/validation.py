"""Discord's documented message limits, checked so a bot that breaks them fails here too."""

from __future__ import annotations

from typing import Any

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
