"""The engine's exceptions: every one carries a reason a player can read."""


class GinError(Exception):
    """Base class; ``reason`` is a short sentence fit to show a player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalMove(GinError):
    """A player asked for something the rules do not allow; nothing was changed."""


class CardError(IllegalMove):
    """Text that is not a card, or a card that is not where the move needs it."""


class SettingsError(GinError):
    """A setting outside its allowed range."""
