"""The computer opponent, in three levels: easy, normal and hard.

It decides from a ``PlayerView`` alone (its own cards and the public history, as a player at a
real table knows them), never from the ``Hand``, so it cannot see hidden cards. To play the
bot's turn at a table::

    from bot.gin.ai import Level, bot_move

    rng = random.Random()  # one per table, kept between moves; seed it only in tests
    while not match.is_over and match.hand.turn == bot_seat:
        match.apply(bot_move(match, bot_seat, Level.NORMAL, rng))

``bot_move`` is ``decide(view_for(match, seat), level, rng)``; each call returns one legal
action of the seat to act (draw, discard, knock...), and a turn takes two calls (draw, then
discard or knock), three when the upcard is passed. Decisions use no clock and no global random
state: the same view, level and generator state give the same action.
"""

from bot.gin.ai.players import Level, bot_move, decide
from bot.gin.ai.view import PlayerView, view_for

__all__ = ["Level", "PlayerView", "bot_move", "decide", "view_for"]
