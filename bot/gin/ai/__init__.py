"""The computer opponent: ``decide(view_for(match, seat), Level.NORMAL, rng)`` gives its move.

It sees only a ``PlayerView`` (its own cards and the public history), never the hidden cards.
"""

from bot.gin.ai.players import Level, bot_move, decide
from bot.gin.ai.view import PlayerView, view_for

__all__ = ["Level", "PlayerView", "bot_move", "decide", "view_for"]
