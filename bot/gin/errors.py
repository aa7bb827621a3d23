"""The engine's exceptions: every one carries a reason a player can read, and a code.

``code`` names the kind of refusal for a caller that wants to treat one specially (a button
to show, a hint to add); the reason is always enough to show as it is. The reason is made
from an English ``template`` with named ``values`` (``"You can't discard {card}."``), so
the edge can show it in the player's language (``bot.i18n``) without the engine knowing
any language but the one its code is written in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from bot.gin.cards import Card


class GinError(Exception):
    """Base class; ``reason`` is a short sentence fit to show a player."""

    code: ClassVar[str] = "gin_error"

    def __init__(self, template: str, /, **values: Any) -> None:
        reason = template.format(**values) if values else template
        super().__init__(reason)
        self.reason = reason
        self.template = template
        self.values = values


class IllegalMove(GinError):
    """A player asked for something the rules do not allow; nothing was changed."""

    code = "illegal_move"


class CardError(IllegalMove):
    """Text that is not a card, or a card that is not where the move needs it."""

    code = "card"


class KnockLimitError(IllegalMove):
    """A knock with more deadwood than this hand allows.

    ``limit`` is the hand's knock limit (0: gin only), ``deadwood`` what the knocker would
    have kept after discarding ``card``; ``upcard`` is the first upcard when it set the limit
    (Oklahoma), else None.
    """

    code = "knock_limit"

    def __init__(
        self,
        template: str,
        /,
        *,
        limit: int,
        deadwood: int,
        card: Card,
        upcard: Card | None = None,
        **values: Any,
    ) -> None:
        super().__init__(template, **values)
        self.limit = limit
        self.deadwood = deadwood
        self.card = card
        self.upcard = upcard


class SettingsError(GinError):
    """A setting outside its allowed range."""

    code = "settings"


class VariantNotAllowed(SettingsError):
    """A two-player variant (Oklahoma, Hollywood) asked of a mode for more players."""

    code = "variant_mode"

    def __init__(self, template: str, /, *, variant: str, mode: str, **values: Any) -> None:
        super().__init__(template, **values)
        self.variant = variant
        self.mode = mode
