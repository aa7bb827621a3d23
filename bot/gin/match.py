"""A match: hands played to the target, running totals, bonuses and the final winner."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.gin.cards import DECK, Card
from bot.gin.errors import IllegalMove
from bot.gin.hand import Action, Hand, HandResult, Outcome
from bot.gin.settings import NextDealer, Settings
from bot.gin.shuffle import derive_seed, new_seed, shuffled

FORMAT_VERSION = 1


class EndReason(StrEnum):
    TARGET = "target"  # a player reached the target score
    RESIGN = "resign"  # a player conceded
    FORFEIT = "forfeit"  # a player ran out of time


@dataclass(frozen=True, slots=True)
class Player:
    """A seat at the table: a stable id (the Discord user id as text) and a display name."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand, kept small: enough to replay it and to show its result."""

    number: int
    seats: tuple[int, ...]
    dealer: int
    seed: str
    actions: tuple[Action, ...]
    result: HandResult

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seats": list(self.seats),
            "dealer": self.dealer,
            "seed": self.seed,
            "actions": [a.to_dict() for a in self.actions],
            "result": self.result.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandRecord:
        return cls(
            number=data["number"],
            seats=tuple(data["seats"]),
            dealer=data["dealer"],
            seed=data["seed"],
            actions=tuple(Action.from_dict(a) for a in data["actions"]),
            result=HandResult.from_dict(data["result"]),
        )


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended: points, bonuses and final scores per seat, and the winner."""

    reason: EndReason
    winner: int
    points: tuple[int, ...]
    game_bonus: tuple[int, ...]
    box_bonus: tuple[int, ...]
    shutout: bool
    final: tuple[int, ...]
    loser: int | None = None  # who resigned or forfeited

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason.value,
            "winner": self.winner,
            "points": list(self.points),
            "game_bonus": list(self.game_bonus),
            "box_bonus": list(self.box_bonus),
            "shutout": self.shutout,
            "final": list(self.final),
            "loser": self.loser,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchResult:
        return cls(
            reason=EndReason(data["reason"]),
            winner=data["winner"],
            points=tuple(data["points"]),
            game_bonus=tuple(data["game_bonus"]),
            box_bonus=tuple(data["box_bonus"]),
            shutout=data["shutout"],
            final=tuple(data["final"]),
            loser=data.get("loser"),
        )


@dataclass(frozen=True, slots=True)
class MoveReport:
    """What one move led to, so the caller knows what to show."""

    action: Action
    finished_hand: HandRecord | None = None  # set when the move ended a hand
    result: MatchResult | None = None  # set when the move ended the match


@dataclass(eq=True)
class Match:
    """A two-player match (seats 0 and 1). Change it only through ``apply`` and ``resign``."""

    players: tuple[Player, ...]
    settings: Settings
    seed: str | None
    cuts: list[list[Card]]
    scores: list[int]
    hands_won: list[int]
    hand_number: int
    hand: Hand
    history: list[HandRecord] = field(default_factory=list)
    result: MatchResult | None = None

    # --- creation -------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        players: list[Player] | tuple[Player, ...],
        settings: Settings | None = None,
        seed: str | None = None,
    ) -> Match:
        """Cut for the deal (lower card deals, ties cut again) and deal the first hand.

        With no seed every shuffle uses the operating system's secure random source; with a
        seed the whole match is reproducible (tests, replays).
        """
        players = tuple(players)
        if len(players) != 2:
            raise ValueError("a match is played by two players")
        if len({p.id for p in players}) != len(players):
            raise ValueError("players must be different people")
        settings = settings or Settings()
        cuts, dealer = _cut_for_deal(len(players), seed)
        first_seed = new_seed() if seed is None else derive_seed(seed, "hand-1")
        return cls(
            players=players,
            settings=settings,
            seed=seed,
            cuts=cuts,
            scores=[0] * len(players),
            hands_won=[0] * len(players),
            hand_number=1,
            hand=_deal_hand(players, settings, dealer, first_seed),
        )

    def _hand_seed(self) -> str:
        if self.seed is None:
            return new_seed()
        return derive_seed(self.seed, f"hand-{self.hand_number}")

    def _deal(self, dealer: int) -> None:
        self.hand_number += 1
        self.hand = _deal_hand(self.players, self.settings, dealer, self._hand_seed())

    # --- reading --------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def dealer(self) -> int:
        return self.hand.dealer

    def seat_of(self, player_id: str) -> int | None:
        for seat, player in enumerate(self.players):
            if player.id == player_id:
                return seat
        return None

    def opponent_of(self, seat: int) -> int:
        return 1 - seat

    # --- moves ----------------------------------------------------------------------------

    def apply(self, action: Action) -> MoveReport:
        """Play one move; when it ends the hand, score it and deal the next (or end the match)."""
        if self.result is not None:
            raise IllegalMove("This match is over.")
        self.hand.apply(action)
        if not self.hand.is_over:
            return MoveReport(action)
        record = self._record_hand()
        result = self._score_hand(record.result)
        if result is None:
            self._deal(self._next_dealer(record.result))
        return MoveReport(action, finished_hand=record, result=result)

    def resign(self, seat: int, reason: EndReason = EndReason.RESIGN) -> MatchResult:
        """End the match now: the other player wins; points stand, no bonuses are added."""
        if self.result is not None:
            raise IllegalMove("This match is over.")
        if not 0 <= seat < len(self.players):
            raise IllegalMove("You are not playing this match.")
        winner = self.opponent_of(seat)
        zeros = (0,) * len(self.players)
        self.result = MatchResult(
            reason=reason,
            winner=winner,
            points=tuple(self.scores),
            game_bonus=zeros,
            box_bonus=zeros,
            shutout=False,
            final=tuple(self.scores),
            loser=seat,
        )
        return self.result

    def _record_hand(self) -> HandRecord:
        hand = self.hand
        assert hand.result is not None
        record = HandRecord(
            number=self.hand_number,
            seats=hand.seats,
            dealer=hand.dealer,
            seed=hand.seed,
            actions=tuple(hand.actions),
            result=hand.result,
        )
        self.history.append(record)
        return record

    def _score_hand(self, result: HandResult) -> MatchResult | None:
        if result.winner is None:
            return None
        self.scores[result.winner] += result.points
        self.hands_won[result.winner] += 1
        if self.scores[result.winner] < self.settings.target:
            return None
        self.result = self._final_result(result.winner)
        return self.result

    def _final_result(self, reached: int) -> MatchResult:
        settings = self.settings
        n = len(self.players)
        shutout = all(self.hands_won[s] == 0 for s in range(n) if s != reached)
        game_bonus = tuple(
            (settings.game_bonus * (2 if shutout else 1)) if s == reached else 0 for s in range(n)
        )
        box_bonus = tuple(settings.box_bonus * self.hands_won[s] for s in range(n))
        final = tuple(self.scores[s] + game_bonus[s] + box_bonus[s] for s in range(n))
        best = max(final)
        leaders = [s for s in range(n) if final[s] == best]
        winner = reached if reached in leaders else leaders[0]
        return MatchResult(
            reason=EndReason.TARGET,
            winner=winner,
            points=tuple(self.scores),
            game_bonus=game_bonus,
            box_bonus=box_bonus,
            shutout=shutout,
            final=final,
        )

    def _next_dealer(self, result: HandResult) -> int:
        dealer = self.hand.dealer
        if result.outcome is Outcome.VOID or result.winner is None:
            return dealer
        rule = self.settings.next_dealer
        if rule is NextDealer.WINNER:
            return result.winner
        if rule is NextDealer.LOSER:
            loser = result.loser
            assert loser is not None
            return loser
        return (dealer + 1) % len(self.players)

    # --- serialization --------------------------------------------------------------------

    def to_dict(self, *, history: bool = True) -> dict[str, Any]:
        """The whole match as plain JSON-able data, with a format version.

        ``history=False`` leaves out the finished hands, for a caller that keeps them apart
        (one record each) and passes them back to ``from_dict`` under ``"history"``.
        """
        data = {
            "version": FORMAT_VERSION,
            "players": [{"id": p.id, "name": p.name} for p in self.players],
            "settings": self.settings.to_dict(),
            "seed": self.seed,
            "cuts": [[int(c) for c in cut] for cut in self.cuts],
            "scores": list(self.scores),
            "hands_won": list(self.hands_won),
            "hand_number": self.hand_number,
            "hand": self.hand.to_dict(),
            "result": None if self.result is None else self.result.to_dict(),
        }
        if history:
            data["history"] = [h.to_dict() for h in self.history]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise ValueError(f"unsupported match format version {version!r}")
        result = data.get("result")
        return cls(
            players=tuple(Player(p["id"], p["name"]) for p in data["players"]),
            settings=Settings.from_dict(data["settings"]),
            seed=data.get("seed"),
            cuts=[[DECK[c] for c in cut] for cut in data["cuts"]],
            scores=list(data["scores"]),
            hands_won=list(data["hands_won"]),
            hand_number=data["hand_number"],
            hand=Hand.from_dict(data["hand"]),
            history=[HandRecord.from_dict(h) for h in data.get("history", [])],
            result=None if result is None else MatchResult.from_dict(result),
        )


def _cut_for_deal(players: int, seed: str | None) -> tuple[list[list[Card]], int]:
    """Each player cuts a card; the lowest rank deals; a tie for lowest cuts again."""
    cuts: list[list[Card]] = []
    while True:
        round_seed = new_seed() if seed is None else derive_seed(seed, f"cut-{len(cuts)}")
        cut = shuffled(DECK, round_seed)[:players]
        cuts.append(cut)
        lowest = min(c.rank for c in cut)
        holders = [seat for seat, c in enumerate(cut) if c.rank == lowest]
        if len(holders) == 1:
            return cuts, holders[0]


def _deal_hand(players: tuple[Player, ...], settings: Settings, dealer: int, seed: str) -> Hand:
    n = len(players)
    seats = tuple((dealer + 1 + i) % n for i in range(n))  # from the dealer's left
    return Hand.deal(seats, dealer, tuple(p.name for p in players), settings, seed)
