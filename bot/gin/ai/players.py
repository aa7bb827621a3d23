"""The three levels behind one call: ``decide(view, level, rng)``."""

from __future__ import annotations

import random
from enum import StrEnum

from bot.gin.ai.easy import decide_easy
from bot.gin.ai.strategy import HARD, NORMAL, decide_with
from bot.gin.ai.view import PlayerView, view_for
from bot.gin.hand import Action, Hand
from bot.gin.match import Match


class Level(StrEnum):
    """How strong the computer opponent plays."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def decide(view: PlayerView, level: Level | str, rng: random.Random) -> Action:
    """The move of the seat to act, chosen from its view alone; always one of its legal actions.

    ``rng`` is the only source of chance, so a seeded generator repeats every decision.
    """
    if not view.legal_actions:
        raise ValueError("it is not this seat's turn")
    level = Level(level)
    if level is Level.EASY:
        action = decide_easy(view, rng)
    else:
        action = decide_with(view, NORMAL if level is Level.NORMAL else HARD, rng)
    if action not in view.legal_actions:  # a strategy bug must never stall a table
        raise AssertionError(f"{level} chose an illegal move {action}")
    return action


def bot_move(game: Hand | Match, seat: int, level: Level | str, rng: random.Random) -> Action:
    """The next move of ``seat``: its view of the game, then its decision."""
    return decide(view_for(game, seat), level, rng)
