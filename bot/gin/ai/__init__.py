"""The computer opponent, in four levels: easy, normal, hard and expert, for every mode.

It decides from a view alone (its own cards and the public history, as a player at a real
table knows them), never from the ``Hand``, so it cannot see hidden cards. To play the bot's
turn at a table of any mode::

    from bot.gin.ai import Level, bot_move

    rng = random.Random()  # one per table, kept between moves; seed it only in tests
    while not match.is_over and seat in match.to_act():
        match.apply(bot_move(match, seat, Level.NORMAL, rng))

``bot_move`` is ``decide(seat_view(match, seat), level, rng)``: the seat's own board (in teams,
its own game; its partner's cards stay hidden), read as a ``PlayerView`` for the two-player
knocking hands (classic, three players, teams) or an ``EliminationView`` for gin-only hands of
any number of players and decks (elimination). Each call returns one legal action of the seat
to act (draw, discard, knock or go gin...), and a turn takes two calls (draw, then discard or
knock), three when the upcard is passed. Decisions use no clock and no global random state: the
same view, level and generator state give the same action.
"""

from bot.gin.ai.players import Level, bot_move, decide
from bot.gin.ai.view import (
    AnyView,
    EliminationView,
    PlayerView,
    elimination_view_for,
    seat_view,
    view_for,
)

__all__ = [
    "AnyView",
    "EliminationView",
    "Level",
    "PlayerView",
    "bot_move",
    "decide",
    "elimination_view_for",
    "seat_view",
    "view_for",
]
