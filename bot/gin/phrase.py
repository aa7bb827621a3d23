"""A sentence the engine says to a player, kept as an English template and its values so the
edge can say it in the player's language (``bot.i18n.translate``); ``str()`` is English."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Phrase:
    """``Phrase("{a} and {b} are playing it.", a="Ann", b="Bob")``."""

    template: str
    values: dict[str, Any] = field(default_factory=dict)

    def __init__(self, template: str, /, **values: Any) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "values", values)

    def __str__(self) -> str:
        return self.template.format(**self.values) if self.values else self.template
