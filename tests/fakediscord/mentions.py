"""Whom a message notifies, by Discord's rules for `allowed_mentions`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .models import Payload

_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(everyone|here)\b")


@dataclass(frozen=True)
class Notified:
    """The users and roles a message pinged, and whether it pinged @everyone / @here."""

    users: frozenset[int] = field(default_factory=frozenset)
    roles: frozenset[int] = field(default_factory=frozenset)
    everyone: bool = False

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


def notified_by(payload: Payload, rules: Payload | None) -> Notified:
    """Mentions in the content notify when `allowed_mentions` lets them: with no
    `allowed_mentions` at all every kind is parsed, as Discord does. Embeds never notify."""
    content = str(payload.get("content") or "")
    users = {int(u) for u in _USER.findall(content)}
    roles = {int(r) for r in _ROLE.findall(content)}
    everyone = bool(_EVERYONE.search(content))
    if rules is None:
        return Notified(frozenset(users), frozenset(roles), everyone)
    parse = set(rules.get("parse") or [])
    allowed_users = users if "users" in parse else users & {int(u) for u in rules.get("users", [])}
    allowed_roles = roles if "roles" in parse else roles & {int(r) for r in rules.get("roles", [])}
    return Notified(
        frozenset(allowed_users), frozenset(allowed_roles), everyone and "everyone" in parse
    )
