"""A match: hands played under a mode (RULES.md 9 and 10) to its end, totals, bonuses, places.

The mode (``bot.gin.modes``) decides who plays which hand, under which hand rules, and how the
hands add up; the match holds the state every mode shares: the players in seat order, the side
each seat plays for (a team, or the player alone), the running totals per side, the hands being
played now (one board, or two for teams) and the finished ones. A Hollywood match (RULES.md 12)
also holds its three games (``bot.gin.hollywood``); its running totals are the sums of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.gin.cards import DECK, Card
from bot.gin.errors import IllegalMove
from bot.gin.hand import CLASSIC_RULES, Action, Hand, HandResult, HandRules
from bot.gin.hollywood import GameResult, HollywoodGame, games_for
from bot.gin.settings import Settings
from bot.gin.shuffle import derive_seed, new_seed, shuffled

if TYPE_CHECKING:
    from bot.gin.modes import Mode

FORMAT_VERSION = 2
OLD_FORMATS = (1,)  # read as classic matches


class EndReason(StrEnum):
    TARGET = "target"  # a player (or team) reached the target score
    RESIGN = "resign"  # a player conceded
    FORFEIT = "forfeit"  # a player ran out of time
    LAST_LEFT = "last_left"  # elimination: one player is left


@dataclass(frozen=True, slots=True)
class Player:
    """A seat at the table: a stable id (the Discord user id as text) and a display name."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand (one board of it, for teams), kept small: enough to replay it and to
    show its result."""

    number: int
    seats: tuple[int, ...]
    dealer: int
    seed: str
    actions: tuple[Action, ...]
    result: HandResult
    board: int = 0
    rules: HandRules = CLASSIC_RULES
    games: tuple[int, ...] = ()  # Hollywood: the games the hand's points went to

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "number": self.number,
            "seats": list(self.seats),
            "dealer": self.dealer,
            "seed": self.seed,
            "actions": [a.to_dict() for a in self.actions],
            "result": self.result.to_dict(),
        }
        if self.board:
            data["board"] = self.board
        if self.rules != CLASSIC_RULES:
            data["rules"] = self.rules.to_dict()
        if self.games:
            data["games"] = list(self.games)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandRecord:
        return cls(
            number=data["number"],
            seats=tuple(data["seats"]),
            dealer=data["dealer"],
            seed=data["seed"],
            actions=tuple(Action.from_dict(a) for a in data["actions"]),
            result=HandResult.from_dict(data["result"]),
            board=int(data.get("board", 0)),
            rules=HandRules.from_dict(data.get("rules")),
            games=tuple(data.get("games", ())),
        )


class TieRule(StrEnum):
    """What placed one of two sides level on final score above the other."""

    TARGET = "target"  # it reached the target (RULES.md 9, 10.1)
    HANDS = "hands"  # it won more hands (three players, RULES.md 10.1)
    SHARED = "shared"  # nothing: level on both, they share the place


@dataclass(frozen=True, slots=True)
class TieBreak:
    """Two sides level on final score, the one placed higher first, and what decided it."""

    above: int
    below: int
    rule: TieRule

    def to_dict(self) -> dict[str, Any]:
        return {"above": self.above, "below": self.below, "rule": self.rule.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TieBreak:
        return cls(int(data["above"]), int(data["below"]), TieRule(data["rule"]))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended: points, bonuses and final scores per side, every seat's place.

    Sides are the seats themselves, except in teams, where they are the two teams. ``winner``
    is a seat of the first place; ``placings`` gives each seat's place (1 is best; partners
    share theirs). Hollywood: ``games`` holds each ended game's result, and points, bonuses
    and final scores are their sums; the winner is who won two or three of the games.
    ``tie_breaks``: every two sides placed one above the other (or side by side) while level
    on final score, and the rule that did it, for the result to say so.
    """

    reason: EndReason
    winner: int
    points: tuple[int, ...]
    game_bonus: tuple[int, ...]
    box_bonus: tuple[int, ...]
    shutout: bool
    final: tuple[int, ...]
    loser: int | None = None  # who resigned or forfeited
    placings: tuple[int, ...] = ()
    games: tuple[GameResult, ...] = ()  # Hollywood: the games that ended
    tie_breaks: tuple[TieBreak, ...] = ()

    def place_of(self, seat: int) -> int:
        return self.placings[seat]

    @property
    def margin(self) -> int | None:
        """Two players: the winner's final score less the loser's (in Hollywood the sum of
        the three games' differences, which can be below zero). None for more players."""
        if len(self.final) != 2 or len(self.placings) not in (0, 2):
            return None
        return self.final[self.winner] - self.final[1 - self.winner]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "reason": self.reason.value,
            "winner": self.winner,
            "points": list(self.points),
            "game_bonus": list(self.game_bonus),
            "box_bonus": list(self.box_bonus),
            "shutout": self.shutout,
            "final": list(self.final),
            "loser": self.loser,
            "placings": list(self.placings),
        }
        if self.games:
            data["games"] = [g.to_dict() for g in self.games]
        if self.tie_breaks:
            data["tie_breaks"] = [t.to_dict() for t in self.tie_breaks]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchResult:
        winner = data["winner"]
        placings = data.get("placings") or [1 if s == winner else 2 for s in range(2)]
        return cls(
            reason=EndReason(data["reason"]),
            winner=winner,
            points=tuple(data["points"]),
            game_bonus=tuple(data["game_bonus"]),
            box_bonus=tuple(data["box_bonus"]),
            shutout=data["shutout"],
            final=tuple(data["final"]),
            loser=data.get("loser"),
            placings=tuple(placings),
            games=tuple(GameResult.from_dict(g) for g in data.get("games", ())),
            tie_breaks=tuple(TieBreak.from_dict(t) for t in data.get("tie_breaks", ())),
        )


@dataclass(frozen=True, slots=True)
class HandScore:
    """How one whole hand (both boards, for teams) was scored: the side that scored and how
    much, or nobody (a void hand, or a teams hand whose games cancel out)."""

    side: int | None
    points: int
    board_points: tuple[tuple[int | None, int], ...] = ()  # per board: (winning side, points)
    games: tuple[int, ...] = ()  # Hollywood: the games the points went to (1 to 3)
    ended: tuple[int, ...] = ()  # Hollywood: the games this hand ended


@dataclass(frozen=True, slots=True)
class MoveReport:
    """What one move led to, so the caller knows what to show."""

    action: Action
    finished_hand: HandRecord | None = None  # set when the move ended a hand (a board)
    result: MatchResult | None = None  # set when the move ended the match
    scored: HandScore | None = None  # set when the whole hand was scored
    went_out: int | None = None  # the seat that went out (elimination) or left the match


@dataclass(eq=True)
class Match:
    """A match of any mode. Change it only through ``apply`` and ``leave`` (``resign``)."""

    players: tuple[Player, ...]
    settings: Settings
    seed: str | None
    cuts: list[list[Card]]
    scores: list[int]  # per side
    hands_won: list[int]  # per side
    hand_number: int
    boards: list[Hand]
    history: list[HandRecord] = field(default_factory=list)
    result: MatchResult | None = None
    mode_name: str = "classic"
    sides: tuple[int, ...] = ()  # the side of each seat
    pairing: int = 0  # teams: how often partners have switched opponents
    dealing_side: int = 0  # teams: the team dealing this hand
    out: list[int] = field(default_factory=list)  # elimination: seats that went out, in order
    dropped: list[int] = field(default_factory=list)  # seats that resigned or ran out of time
    games: list[HollywoodGame] = field(default_factory=list)  # Hollywood: the three games

    # --- creation -------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        players: list[Player] | tuple[Player, ...],
        settings: Settings | None = None,
        seed: str | None = None,
        *,
        mode: str = "classic",
        teams: list[int | None] | None = None,
    ) -> Match:
        """Cut for the deal and deal the first hand under the mode's rules.

        With no seed every shuffle uses the operating system's secure random source; with a
        seed the whole match is reproducible (tests, replays). ``teams`` (teams mode only)
        gives a side (0 or 1) or None for each player; the seats are then arranged so that
        partners sit across the table. A two-player variant (Oklahoma, Hollywood) in a mode
        for more players is refused with ``VariantNotAllowed`` (a ``SettingsError``).
        """
        from bot.gin.modes import find_mode

        players = tuple(players)
        chosen = find_mode(mode)
        chosen.check_players(len(players))
        settings = settings or Settings()
        chosen.check_settings(settings)
        if len({p.id for p in players}) != len(players):
            raise ValueError("players must be different people")
        return chosen.start(players, settings, seed, teams)

    @property
    def mode(self) -> Mode:
        from bot.gin.modes import find_mode

        return find_mode(self.mode_name)

    def hand_seed(self, board: int = 0) -> str:
        """The seed of this hand's deal (of one board of it)."""
        if self.seed is None:
            return new_seed()
        label = f"hand-{self.hand_number}" + (f"-board-{board + 1}" if board else "")
        return derive_seed(self.seed, label)

    # --- reading --------------------------------------------------------------------------

    @property
    def hand(self) -> Hand:
        """The hand being played (the first board, for teams)."""
        return self.boards[0]

    @hand.setter
    def hand(self, value: Hand) -> None:
        self.boards[0] = value

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

    def side_of(self, seat: int) -> int:
        return self.sides[seat] if self.sides else seat

    def partners(self, seat: int) -> list[int]:
        """The other seats of this seat's side."""
        side = self.side_of(seat)
        return [s for s in range(len(self.players)) if s != seat and self.side_of(s) == side]

    def opponent_of(self, seat: int) -> int:
        """The player this seat plays against in this hand (two-player boards only)."""
        board = self.board_of(seat)
        if board is None:
            raise IllegalMove("You are not playing this hand.")
        others = [s for s in board.seats if s != seat]
        if len(others) != 1:
            raise IllegalMove("This hand has more than one opponent.")
        return others[0]

    def board_index(self, seat: int) -> int | None:
        """The board this seat plays on this hand (None: sitting out, out, or left)."""
        for index, board in enumerate(self.boards):
            if seat in board.seats:
                return index
        return None

    def board_of(self, seat: int) -> Hand | None:
        index = self.board_index(seat)
        return None if index is None else self.boards[index]

    @property
    def in_play(self) -> list[int]:
        """Seats still in the match (elimination: not out and not gone)."""
        gone = set(self.out) | set(self.dropped)
        return [s for s in range(len(self.players)) if s not in gone]

    @property
    def is_hollywood(self) -> bool:
        return bool(self.games)

    def next_games(self, seat: int) -> tuple[int, ...]:
        """Hollywood: the games a hand won by this seat would count in now (empty otherwise)."""
        if not self.games or self.result is not None:
            return ()
        return games_for(self.games, self.side_of(seat))

    def to_act(self) -> list[int]:
        """Seats whose turn it is, one per board still being played."""
        if self.result is not None:
            return []
        return [board.turn for board in self.boards if not board.is_over]

    # --- moves ----------------------------------------------------------------------------

    def apply(self, action: Action) -> MoveReport:
        """Play one move on the board of the seat that makes it; when it ends the board, score
        what the mode says and deal what comes next (or end the match)."""
        if self.result is not None:
            raise IllegalMove("This match is over.")
        index = self.board_index(action.seat)
        if index is None:
            why = self.mode.not_playing(self, action.seat)
            raise IllegalMove(why.template, **why.values)
        board = self.boards[index]
        if board.is_over:
            raise IllegalMove(
                "Your game of this hand is over: wait for the other game to finish, then the "
                "next hand is dealt."
            )
        board.apply(action)
        if not board.is_over:
            return MoveReport(action)
        record = self.record_board(index)
        return self.mode.board_over(self, action, record)

    def leave(self, seat: int, reason: EndReason = EndReason.RESIGN) -> MoveReport:
        """A player concedes or runs out of time, as the mode says: two players and teams
        end the match for their side; three players and elimination put the player out and
        play on (three: a hand they were playing ends unplayed, and the next is dealt), until
        one player is left. What it led to, as a LEAVE move's report."""
        if self.result is not None:
            raise IllegalMove("This match is over.")
        if not 0 <= seat < len(self.players) or seat not in self.in_play:
            raise IllegalMove("You are not playing this match.")
        return self.mode.leave(self, seat, reason)

    def resign(self, seat: int, reason: EndReason = EndReason.RESIGN) -> MatchResult | None:
        """``leave``, for its result: None while the match goes on without the player."""
        return self.leave(seat, reason).result

    def record_board(self, index: int) -> HandRecord:
        """Keep the board that just ended in the history (for the modes)."""
        board = self.boards[index]
        assert board.result is not None
        record = HandRecord(
            number=self.hand_number,
            seats=board.dealt_seats or board.seats,
            dealer=board.dealer,
            seed=board.seed,
            actions=tuple(board.actions),
            result=board.result,
            board=index,
            rules=board.rules,
        )
        self.history.append(record)
        return record

    # --- serialization --------------------------------------------------------------------

    def to_dict(self, *, history: bool = True) -> dict[str, Any]:
        """The whole match as plain JSON-able data, with a format version.

        ``history=False`` leaves out the finished hands, for a caller that keeps them apart
        (one record each) and passes them back to ``from_dict`` under ``"history"``.
        """
        data: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "mode": self.mode_name,
            "players": [{"id": p.id, "name": p.name} for p in self.players],
            "settings": self.settings.to_dict(),
            "seed": self.seed,
            "cuts": [[int(c) for c in cut] for cut in self.cuts],
            "scores": list(self.scores),
            "hands_won": list(self.hands_won),
            "hand_number": self.hand_number,
            "boards": [board.to_dict() for board in self.boards],
            "result": None if self.result is None else self.result.to_dict(),
            "sides": list(self.sides),
            "pairing": self.pairing,
            "dealing_side": self.dealing_side,
            "out": list(self.out),
            "dropped": list(self.dropped),
        }
        if self.games:
            data["games"] = [game.to_dict() for game in self.games]
        if history:
            data["history"] = [h.to_dict() for h in self.history]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        version = data.get("version")
        if version != FORMAT_VERSION and version not in OLD_FORMATS:
            raise ValueError(f"unsupported match format version {version!r}")
        result = data.get("result")
        boards = data.get("boards")
        if boards is None:  # format 1: one two-player hand
            boards = [data["hand"]]
        players = tuple(Player(p["id"], p["name"]) for p in data["players"])
        return cls(
            players=players,
            settings=Settings.from_dict(data["settings"]),
            seed=data.get("seed"),
            cuts=[[DECK[c] for c in cut] for cut in data["cuts"]],
            scores=list(data["scores"]),
            hands_won=list(data["hands_won"]),
            hand_number=data["hand_number"],
            boards=[Hand.from_dict(b) for b in boards],
            history=[HandRecord.from_dict(h) for h in data.get("history", [])],
            result=None if result is None else MatchResult.from_dict(result),
            mode_name=str(data.get("mode", "classic")),
            sides=tuple(data.get("sides") or range(len(players))),
            pairing=int(data.get("pairing", 0)),
            dealing_side=int(data.get("dealing_side", 0)),
            out=list(data.get("out", [])),
            dropped=list(data.get("dropped", [])),
            games=[HollywoodGame.from_dict(g) for g in data.get("games", [])],
        )


def cut_for_deal(players: int, seed: str | None) -> tuple[list[list[Card]], int]:
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
