"""Discord's documented rules for application commands that its OpenAPI spec leaves out."""

from __future__ import annotations

import unicodedata
from typing import Any

from .models import Payload

# The locales Discord takes in name_localizations and description_localizations.
LOCALES = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt"),
        *("hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el"),
        *("bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)
# Characters of names, descriptions and values, subcommands included (raised from 4,000 in
# February 2024: discord-api-docs c6b0575, "Update character limit for slash commands").
MAX_COMMAND_SIZE = 8000
CHAT_INPUT = 1
SUBCOMMANDS = (1, 2)
TOO_LARGE = "APPLICATION_COMMAND_TOO_LARGE"


def command_problems(commands: list[Payload]) -> list[tuple[str, str, str]]:
    """Why Discord would refuse this command sync: (field path, code, message) for each.

    - a command may hold at most 8,000 characters in the names, descriptions and values of
      itself, its options (subcommands and groups included) and their choices, counting the
      longest localization of each field;
    - a slash command's and its options' names are lowercase letters, digits, `-`, `_` or
      `'` (any script), in every localization too;
    - localizations are keyed by Discord's locales;
    - an option list names its required options first.
    """
    problems: list[tuple[str, str, str]] = []
    for index, command in enumerate(commands):
        path = str(index)
        size = _size(command)
        if size > MAX_COMMAND_SIZE:
            message = f"Command exceeds maximum size ({MAX_COMMAND_SIZE}): {size} characters"
            problems.append((path, TOO_LARGE, message))
        if int(command.get("type", CHAT_INPUT)) == CHAT_INPUT:
            _names(command, path, problems)
        _locales(command, path, problems)
    return problems


def _longest(node: Payload, key: str) -> int:
    values = [str(node.get(key) or "")]
    values += [str(v) for v in (node.get(f"{key}_localizations") or {}).values()]
    return max(len(v) for v in values)


def _size(node: Payload) -> int:
    size = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(_size(option) for option in node.get("options") or [])


def _names(node: Payload, path: str, problems: list[tuple[str, str, str]]) -> None:
    names = [("name", node.get("name"))]
    names += [
        (f"name_localizations.{locale}", value)
        for locale, value in (node.get("name_localizations") or {}).items()
    ]
    for where, name in names:
        if not isinstance(name, str) or not _valid_name(name):
            message = f"{name!r}: lowercase letters, digits, - _ ' only, 1 to 32 of them"
            problems.append((f"{path}.{where}", "APPLICATION_COMMAND_INVALID_NAME", message))
    options = node.get("options") or []
    seen_optional = False
    for number, option in enumerate(options):
        option_path = f"{path}.options.{number}"
        if int(option.get("type", 0)) in SUBCOMMANDS:
            _names(option, option_path, problems)
            continue
        _names({"name": option.get("name"), **_only_names(option)}, option_path, problems)
        if option.get("required"):
            if seen_optional:
                message = "Required options must be placed before non-required options"
                problems.append(
                    (option_path, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", message)
                )
        else:
            seen_optional = True


def _only_names(option: Payload) -> dict[str, Any]:
    localized = option.get("name_localizations")
    return {"name_localizations": localized} if localized else {}


def _valid_name(name: str) -> bool:
    if not 1 <= len(name) <= 32:
        return False
    for char in name:
        if char in "-_'":
            continue
        category = unicodedata.category(char)
        script = unicodedata.name(char, "")
        if category[0] not in "LN" and not script.startswith(("DEVANAGARI", "THAI")):
            return False
        if char.lower() != char:
            return False
    return True


def _locales(node: Payload, path: str, problems: list[tuple[str, str, str]]) -> None:
    for key in ("name_localizations", "description_localizations"):
        for locale in node.get(key) or {}:
            if locale not in LOCALES:
                message = f"{locale!r} is not a locale Discord knows"
                problems.append((f"{path}.{key}.{locale}", "INVALID_LOCALE", message))
    for number, option in enumerate(node.get("options") or []):
        _locales(option, f"{path}.options.{number}", problems)
    for number, choice in enumerate(node.get("choices") or []):
        _locales(choice, f"{path}.choices.{number}", problems)
