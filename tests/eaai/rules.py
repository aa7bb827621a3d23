"""The challenge's rules, and a referee that plays one game under them between two agents.

The EAAI-2021 host played two-player gin with no Big Gin and no box, game or shutout bonus: a
knock scores the deadwood difference, gin 25 plus the defender's deadwood (no lay-offs), an
undercut (the defender's deadwood equal or lower) the difference plus 25; a hand is void when a
discard leaves two cards in the stock; the deal passes to the other player after a scored hand
and stays after a void one; the first to 100 raw points wins the game.

Every one of those rules is a setting of the engine, so the referee is the engine itself
(``Match`` with ``EAAI_SETTINGS``), kept here, apart from the bot's own defaults. One host
detail differs: the engine arranges both showdown hands at their best (the knocker's melds
leave the defender the most deadwood, the defender's melds and lay-offs are chosen together),
where the host let each player name its melds and then laid off greedily. Both sides get the
same showdown, so it favours neither.

Agents see the game through ``Agent``: the bot's levels decide from their seat's view, the
challenge's players (``tests.eaai.simple``, ``tests.eaai.marjj``) through the host's callbacks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from bot.gin.cards import Card
from bot.gin.hand import Action, ActionKind, Outcome
from bot.gin.match import Match, Player
from bot.gin.settings import NextDealer, Settings

EAAI_SETTINGS = Settings(
    target=100,
    gin_bonus=25,
    undercut_bonus=25,
    big_gin=False,
    knock_limit=10,
    void_stock=2,
    next_dealer=NextDealer.ALTERNATE,
    game_bonus=0,
    box_bonus=0,
)
MAX_MOVES = 20_000  # far beyond any real game; more means the players are stuck


class Agent(Protocol):
    """One player at the referee's table."""

    name: str

    def new_hand(self, match: Match, seat: int) -> None:
        """A hand was dealt; the agent holds ``match.hand.hands[seat]``."""

    def act(self, match: Match, seat: int) -> Action:
        """The agent's move; it is this seat's turn."""

    def observe(self, match: Match, seat: int, action: Action, drawn: Card | None) -> None:
        """A move was made by anyone. ``drawn`` is the card drawn, when the agent may see it
        (its own stock draws, and every card taken from the pile)."""


@dataclass
class GameRecord:
    """One game from the two agents' side (index 0: the agent named first)."""

    winner: int
    scores: tuple[int, int]
    hands: int
    outcomes: dict[str, int] = field(default_factory=dict)
    points: tuple[int, int] = (0, 0)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))


def play_game(first: Agent, second: Agent, seed: str, first_seat: int) -> GameRecord:
    """One game; ``first`` sits in seat ``first_seat``. The deals follow ``seed`` alone, so
    the same seed with the seats swapped deals each agent the other's cards."""
    agents = {first_seat: first, 1 - first_seat: second}
    side = {first_seat: 0, 1 - first_seat: 1}
    match = Match.start([Player("0", "Seat 0"), Player("1", "Seat 1")], EAAI_SETTINGS, seed=seed)
    times: tuple[list[float], list[float]] = ([], [])
    outcomes: dict[str, int] = {}
    hand_number = 0
    moves = 0
    while not match.is_over:
        if match.hand_number != hand_number:
            hand_number = match.hand_number
            for s in (0, 1):
                agents[s].new_hand(match, s)
        board = match.hand
        seat = board.turn
        started = time.perf_counter()
        action = agents[seat].act(match, seat)
        times[side[seat]].append(time.perf_counter() - started)
        report = match.apply(action)
        drawn = board.last_drawn if action.kind.value.startswith("draw") else None
        for s in (0, 1):
            seen = drawn if s == seat or action.kind is ActionKind.DRAW_DISCARD else None
            agents[s].observe(match, s, action, seen)
        if report.finished_hand is not None:
            result = report.finished_hand.result
            if result.winner is None:
                key = "void"
            else:
                kind = "knock" if result.outcome is Outcome.KNOCK else result.outcome.value
                key = f"{kind}:{side[result.winner]}"
            outcomes[key] = outcomes.get(key, 0) + 1
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"game {seed} did not end")
    assert match.result is not None
    scores = (match.scores[first_seat], match.scores[1 - first_seat])
    return GameRecord(
        winner=side[match.result.winner],
        scores=scores,
        hands=match.hand_number,
        outcomes=outcomes,
        points=scores,
        times=times,
    )
