"""Buttons and menus that survive restarts: each custom id carries what it acts on, and is
read back strictly (``base``); the private hand's (``hand``) and the channel's (``table``)."""

from cogs.gin.views.base import COLOUR, SELECT_KINDS, Handlers, embed
from cogs.gin.views.coach import ReviewButton, add_reviews, review_view
from cogs.gin.views.hand import (
    CardSelect,
    MoveButton,
    PlayHereButton,
    Suggestion,
    elsewhere_view,
    hand_view,
)
from cogs.gin.views.table import (
    ChallengeButton,
    LobbyButton,
    PageButton,
    RematchButton,
    ShowHandButton,
    challenge_view,
    lobby_view,
    pages_view,
    public_view,
    rematch_view,
)

__all__ = [
    "COLOUR",
    "DYNAMIC_ITEMS",
    "SELECT_KINDS",
    "Handlers",
    "Suggestion",
    "add_reviews",
    "challenge_view",
    "elsewhere_view",
    "embed",
    "hand_view",
    "lobby_view",
    "pages_view",
    "public_view",
    "rematch_view",
    "review_view",
]

DYNAMIC_ITEMS = (
    MoveButton,
    CardSelect,
    ChallengeButton,
    PageButton,
    LobbyButton,
    ShowHandButton,
    RematchButton,
    PlayHereButton,
    ReviewButton,
)
