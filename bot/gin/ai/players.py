"""The four levels behind one call: ``decide(view, level, rng)``."""

from __future__ import annotations

import random
from enum import StrEnum

from bot.gin.ai.easy import decide_easy, decide_easy_elimination
from bot.gin.ai.elimination import HARD_GIN, NORMAL_GIN, decide_gin_only
from bot.gin.ai.expert import decide_expert
from bot.gin.ai.strategy import HARD, NORMAL, decide_with
from bot.gin.ai.view import AnyView, PlayerView, seat_view
from bot.gin.hand import Action, Hand
from bot.gin.match import Match


class Level(StrEnum):
    """How strong the computer opponent plays."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
    EXPERT = "expert"


def decide(view: AnyView, level: Level | str, rng: random.Random) -> Action:
    """The move of the seat to act, chosen from its view alone; always one of its legal actions.

    ``rng`` is the only source of chance, so a seeded generator repeats every decision.
    """
    if not view.legal_actions:
        raise ValueError("it is not this seat's turn")
    level = Level(level)
    if isinstance(view, PlayerView):
        if level is Level.EASY:
            action = decide_easy(view, rng)
        elif level is Level.EXPERT:
            action = decide_expert(view, rng)
        else:
            action = decide_with(view, NORMAL if level is Level.NORMAL else HARD, rng)
    elif level is Level.EASY:
        action = decide_easy_elimination(view, rng)
    else:
        # Expert plays the gin-only race as hard does: no search measured better there yet.
        action = decide_gin_only(view, NORMAL_GIN if level is Level.NORMAL else HARD_GIN, rng)
    if action not in view.legal_actions:  # a strategy bug must never stall a table
        raise AssertionError(f"{level} chose an illegal move {action}")
    return action


def bot_move(game: Hand | Match, seat: int, level: Level | str, rng: random.Random) -> Action:
    """The next move of ``seat`` in any mode: its view of the hand it plays, then its decision."""
    return decide(seat_view(game, seat), level, rng)
