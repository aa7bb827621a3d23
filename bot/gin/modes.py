"""The ways of playing a match (RULES.md 9 and 10), each a small class found by name.

Modes follow python-chess's variants: one class per mode with its name, its player counts and
a few hooks that the match calls. No mode needs a showdown between more than two players:
three players play one two-player hand per deal while the dealer sits out; teams play two
two-player hands side by side; elimination has no knock and no showdown (a gin takes its
player out). So what varies is which hands are dealt, to whom, under which hand rules, and how
their results add up.

- ``classic``: two players, RULES.md 3-9, exactly as it always was; with the settings'
  variant (RULES.md 12) Oklahoma (each hand's rules from its first upcard, in the hand) or
  Hollywood (three games scored at once, ``bot.gin.hollywood``).
- ``three``: three players; the dealer sits out (``sit_out``: rotate or loser). A player who
  leaves is out, placed last, and the two others play on as two players.
- ``teams``: two teams of two, partners across the table, two games per hand, to
  ``team_target``; partners switch opponents every hand (``rotate_opponents``).
- ``elimination``: 2 to 14 players, 1 to 4 decks, gin only, the pile reshuffled into a new
  stock; whoever goes gin is out (safe), in order, until one player is left (last).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from bot.gin import hollywood
from bot.gin.cards import DECK, Card
from bot.gin.errors import IllegalMove, VariantNotAllowed
from bot.gin.hand import (
    CLASSIC_RULES,
    Action,
    ActionKind,
    Hand,
    HandResult,
    HandRules,
    Outcome,
)
from bot.gin.match import (
    EndReason,
    HandRecord,
    HandScore,
    Match,
    MatchResult,
    MoveReport,
    Player,
    TieBreak,
    TieRule,
    cut_for_deal,
)
from bot.gin.phrase import Phrase
from bot.gin.settings import NextDealer, SetSuits, Settings, SitOut, Variant
from bot.gin.shuffle import derive_seed, new_seed, shuffled


class Mode:
    """A way of playing; subclasses fill in the hooks. Stateless: state lives in the match."""

    name: ClassVar[str] = ""
    label: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    team_play: ClassVar[bool] = False
    two_player_variants: ClassVar[bool] = False  # Oklahoma and Hollywood (RULES.md 12)
    # Why a two-player variant is refused (a mode without ``two_player_variants``); the
    # variant's name is its value ``variant_name``.
    variant_refused: ClassVar[Phrase | None] = None

    # What the service, the screens and the records ask of a mode instead of its name. Each
    # mode declares every one of these itself (no default), so a new mode has to decide them.
    #: The two-player game: a challenge between two people (or one and the bot), its records
    #: (opponent, against the bot, the two-player rating) kept with the challenge, not per seat.
    two_player_game: ClassVar[bool]
    #: A table starts from a lobby that players join, not from a challenge one person answers.
    opens_a_lobby: ClassVar[bool]
    #: A hand may end by a knock and a showdown; without, only a gin ends it (elimination).
    knocking: ClassVar[bool]
    #: The match is played to a target score, with points, bonuses and final scores; without,
    #: players are placed by going out (elimination), and a final score counts those below.
    has_target: ClassVar[bool]
    #: Each deal is a round that everyone still in plays together, so a hand has no single
    #: opponent and the table lists who plays it; without, a hand is between two players.
    plays_rounds: ClassVar[bool]
    #: The dealer deals the other two and sits the hand out (three players).
    dealer_sits_out: ClassVar[bool]
    #: The two players may ask for a rematch once the match is over.
    rematch_allowed: ClassVar[bool]
    #: A resignation or a forfeit ends the match for the player's side; without, the player is
    #: out, placed below everyone still in, and the others play on (three players,
    #: elimination) until one is left.
    leaving_ends_match: ClassVar[bool]
    #: The name of the setting that holds the points this mode plays to (``target`` below).
    target_setting: ClassVar[str] = "target"

    @property
    def host_starts_early(self) -> bool:
        """The host may start before every seat is taken (from ``min_players``); a mode of one
        player count starts by itself once its table is full."""
        return self.min_players < self.max_players

    def target(self, settings: Settings) -> int:
        """The points a side plays to under these settings."""
        return settings.target

    def rated_sides(self, match: Match, result: MatchResult) -> tuple[list[list[int]], list[int]]:
        """The seats of each side a rating counts, and each side's place: everyone on their
        own unless partners share a side."""
        return [[seat] for seat in range(len(match.players))], list(result.placings)

    def check_settings(self, settings: Settings) -> None:
        """Refuse settings this mode cannot play: the two-player variants outside the
        two-player game."""
        if settings.is_two_player_variant and not self.two_player_variants:
            variant = settings.variant
            refused = self.variant_refused
            assert refused is not None, f"{self.name} says why it refuses a variant"
            raise VariantNotAllowed(
                refused.template,
                variant=variant.value,
                mode=self.name,
                variant_name=variant.label,
            )

    def check_players(self, count: int) -> None:
        if not self.min_players <= count <= self.max_players:
            wanted = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise ValueError(f"{self.label} is played by {wanted} players, not {count}")

    def start(
        self,
        players: tuple[Player, ...],
        settings: Settings,
        seed: str | None,
        teams: list[int | None] | None,
    ) -> Match:
        raise NotImplementedError

    def board_over(self, match: Match, action: Action, record: HandRecord) -> MoveReport:
        """A board of the hand ended: score what can be scored, deal what comes next."""
        raise NotImplementedError

    def leave(self, match: Match, seat: int, reason: EndReason) -> MoveReport:
        """End the match for the seat's side (two-player hands): points stand, no bonuses."""
        n = len(match.players)
        zeros = (0,) * len(match.scores)
        placings = self.placings_after_resign(match, seat)
        match.result = MatchResult(
            reason=reason,
            winner=placings.index(1),
            points=tuple(match.scores),
            game_bonus=zeros,
            box_bonus=zeros,
            shutout=False,
            final=tuple(match.scores),
            loser=seat,
            placings=placings,
        )
        assert len(placings) == n
        return MoveReport(Action(ActionKind.LEAVE, seat), result=match.result, went_out=seat)

    def placings_after_resign(self, match: Match, seat: int) -> tuple[int, ...]:
        raise NotImplementedError

    def not_playing(self, match: Match, seat: int) -> Phrase:
        """Why a seat has no board this hand, to tell its player."""
        return Phrase("You are not playing this hand.")


# --- helpers shared by the modes ------------------------------------------------------------------


def _names(players: tuple[Player, ...]) -> tuple[str, ...]:
    return tuple(p.name for p in players)


def _first_seed(seed: str | None) -> str:
    return new_seed() if seed is None else derive_seed(seed, "hand-1")


def _score(match: Match, result: HandResult) -> HandScore:
    """A two-player hand's result into the winner's side total."""
    if result.winner is None:
        return HandScore(None, 0)
    side = match.side_of(result.winner)
    match.scores[side] += result.points
    match.hands_won[side] += 1
    return HandScore(side, result.points)


def _final(match: Match, reached: int, target_reached_by: list[int]) -> MatchResult:
    """Bonuses and final scores per side once side ``reached`` got to the target; places by
    final score, ties to the side that reached the target, then to more hands won (still
    level: the place is shared), each such tie said in ``tie_breaks``. A player who left
    (three players) is placed below everyone who stayed, the first to leave last, with
    their points and no bonus."""
    settings = match.settings
    sides = len(match.scores)
    left = [match.side_of(seat) for seat in reversed(match.dropped)]
    shutout = all(match.hands_won[s] == 0 for s in range(sides) if s != reached)
    game_bonus = tuple(
        (settings.game_bonus * (2 if shutout else 1)) if s == reached else 0 for s in range(sides)
    )
    box_bonus = tuple(
        0 if s in left else settings.box_bonus * match.hands_won[s] for s in range(sides)
    )
    final = tuple(match.scores[s] + game_bonus[s] + box_bonus[s] for s in range(sides))

    def standing(side: int) -> tuple[int, bool, int]:
        return (-final[side], side not in target_reached_by, -match.hands_won[side])

    stayed = sorted((s for s in range(sides) if s not in left), key=lambda s: (standing(s), s))
    side_place: dict[int, int] = {}
    tie_breaks: list[TieBreak] = []
    for index, side in enumerate(stayed):
        above = stayed[index - 1] if index else None
        if above is not None and standing(above) == standing(side):
            side_place[side] = side_place[above]  # level on everything: a shared place
        else:
            side_place[side] = index + 1
        if above is not None and final[above] == final[side]:
            tie_breaks.append(
                TieBreak(above, side, _tie_rule(match, target_reached_by, above, side))
            )
    for index, side in enumerate(left):
        side_place[side] = len(stayed) + index + 1
    placings = tuple(side_place[match.side_of(seat)] for seat in range(len(match.players)))
    return MatchResult(
        reason=EndReason.TARGET,
        winner=placings.index(1),
        points=tuple(match.scores),
        game_bonus=game_bonus,
        box_bonus=box_bonus,
        shutout=shutout,
        final=final,
        placings=placings,
        tie_breaks=tuple(tie_breaks),
    )


def _tie_rule(match: Match, reached: list[int], above: int, below: int) -> TieRule:
    """What placed ``above`` over ``below``, level on final score."""
    if above in reached and below not in reached:
        return TieRule.TARGET
    if match.hands_won[above] != match.hands_won[below]:
        return TieRule.HANDS
    return TieRule.SHARED


def _by_standing(match: Match, seats: Sequence[int]) -> list[int]:
    """Seats from the best running total down (ties: more hands won, then seat order)."""
    return sorted(
        seats,
        key=lambda s: (-match.scores[match.side_of(s)], -match.hands_won[match.side_of(s)], s),
    )


# --- classic: the two-player game -----------------------------------------------------------------


class Classic(Mode):
    name = "classic"
    label = "The two-player game"
    two_player_variants = True
    two_player_game = True
    opens_a_lobby = False
    knocking = True
    has_target = True
    plays_rounds = False
    dealer_sits_out = False
    rematch_allowed = True
    leaving_ends_match = True

    def start(
        self,
        players: tuple[Player, ...],
        settings: Settings,
        seed: str | None,
        teams: list[int | None] | None,
    ) -> Match:
        cuts, dealer = cut_for_deal(len(players), seed)
        return Match(
            players=players,
            settings=settings,
            seed=seed,
            cuts=cuts,
            scores=[0, 0],
            hands_won=[0, 0],
            hand_number=1,
            boards=[self.deal(players, settings, dealer, _first_seed(seed))],
            mode_name=self.name,
            sides=(0, 1),
            games=hollywood.new_games() if settings.variant is Variant.HOLLYWOOD else [],
        )

    @staticmethod
    def deal(players: tuple[Player, ...], settings: Settings, dealer: int, seed: str) -> Hand:
        n = len(players)
        seats = tuple((dealer + 1 + i) % n for i in range(n))  # from the dealer's left
        return Hand.deal(seats, dealer, _names(players), settings, seed)

    def board_over(self, match: Match, action: Action, record: HandRecord) -> MoveReport:
        result = record.result
        if match.games:
            scored, record = self.score_hollywood(match, record)
            if all(game.is_over for game in match.games):
                match.result = self.hollywood_result(match)
                return MoveReport(action, record, match.result, scored)
        else:
            scored = _score(match, result)
            if scored.side is not None and match.scores[scored.side] >= match.settings.target:
                match.result = _final(match, scored.side, [scored.side])
                return MoveReport(action, record, match.result, scored)
        match.hand_number += 1
        dealer = self.next_dealer(match, result)
        match.boards = [self.deal(match.players, match.settings, dealer, match.hand_seed())]
        return MoveReport(action, record, None, scored)

    @staticmethod
    def score_hollywood(match: Match, record: HandRecord) -> tuple[HandScore, HandRecord]:
        """A hand's points into the games it counts in; the running total of a player is the
        sum of their three games. The record (kept in the history) names those games."""
        result = record.result
        if result.winner is None:
            return HandScore(None, 0), record
        side = match.side_of(result.winner)
        games, ended = hollywood.score_hand(
            match.games, match.settings, side, result.points, match.hand_number
        )
        match.scores[side] += result.points * len(games)
        match.hands_won[side] += 1
        record = replace(record, games=games)
        match.history[-1] = record
        return HandScore(side, result.points, games=games, ended=ended), record

    @staticmethod
    def hollywood_result(match: Match) -> MatchResult:
        """All three games are over: their sums, and the player who won two or three."""
        results = tuple(game.result for game in match.games if game.result is not None)
        winner = hollywood.match_winner(results)

        def total(part: str) -> tuple[int, ...]:
            return tuple(sum(getattr(r, part)[s] for r in results) for s in (0, 1))

        return MatchResult(
            reason=EndReason.TARGET,
            winner=winner,
            points=total("points"),
            game_bonus=total("game_bonus"),
            box_bonus=total("box_bonus"),
            shutout=any(r.shutout for r in results),
            final=total("final"),
            placings=tuple(1 if s == winner else 2 for s in (0, 1)),
            games=results,
        )

    def leave(self, match: Match, seat: int, reason: EndReason) -> MoveReport:
        """As in every two-player game; in Hollywood the games already over are listed."""
        report = super().leave(match, seat, reason)
        if report.result is None or not match.games:
            return report
        ended = tuple(game.result for game in match.games if game.result is not None)
        match.result = replace(report.result, games=ended)
        return replace(report, result=match.result)

    @staticmethod
    def next_dealer(match: Match, result: HandResult) -> int:
        dealer = match.hand.dealer
        if result.outcome is Outcome.VOID or result.winner is None:
            return dealer
        rule = match.settings.next_dealer
        if rule is NextDealer.WINNER:
            return result.winner
        if rule is NextDealer.LOSER:
            loser = result.loser
            assert loser is not None
            return loser
        return (dealer + 1) % len(match.players)

    def placings_after_resign(self, match: Match, seat: int) -> tuple[int, ...]:
        return tuple(2 if s == seat else 1 for s in range(len(match.players)))


# --- three players --------------------------------------------------------------------------------


class Three(Mode):
    name = "three"
    label = "Three players"
    variant_refused = Phrase(
        "{variant_name} is a two-player variant, and three players is not the two-player "
        "game: set the variant to classic for this table."
    )
    min_players = max_players = default_players = 3
    two_player_game = False
    opens_a_lobby = True
    knocking = True
    has_target = True
    plays_rounds = False
    dealer_sits_out = True
    rematch_allowed = False
    leaving_ends_match = False

    def start(
        self,
        players: tuple[Player, ...],
        settings: Settings,
        seed: str | None,
        teams: list[int | None] | None,
    ) -> Match:
        cuts, dealer = cut_for_deal(3, seed)
        match = Match(
            players=players,
            settings=settings,
            seed=seed,
            cuts=cuts,
            scores=[0, 0, 0],
            hands_won=[0, 0, 0],
            hand_number=1,
            boards=[],
            mode_name=self.name,
            sides=(0, 1, 2),
        )
        match.boards = [self.deal(match, dealer, _first_seed(seed))]
        return match

    @staticmethod
    def deal(match: Match, dealer: int, seed: str) -> Hand:
        """The dealer deals the other two, the player on their left first, and sits out; once
        a player has left, the dealer deals the other player and themself (two players)."""
        playing = match.in_play
        if len(playing) == 3:
            seats = ((dealer + 1) % 3, (dealer + 2) % 3)
        else:
            seats = (next(s for s in playing if s != dealer), dealer)
        return Hand.deal(seats, dealer, _names(match.players), match.settings, seed)

    def board_over(self, match: Match, action: Action, record: HandRecord) -> MoveReport:
        result = record.result
        scored = _score(match, result)
        if scored.side is not None and match.scores[scored.side] >= match.settings.target:
            match.result = _final(match, scored.side, [scored.side])
            return MoveReport(action, record, match.result, scored)
        dealer = self.next_dealer(match, result)
        match.hand_number += 1
        match.boards = [self.deal(match, dealer, match.hand_seed())]
        return MoveReport(action, record, None, scored)

    def next_dealer(self, match: Match, result: HandResult) -> int:
        """Three in play: ``sit_out`` (the deal passes to the left, or the loser deals and
        sits out). Two left: the two-player game's ``next_dealer``. After a void hand the
        same dealer deals again (if they left, the player on their left)."""
        dealer = match.hand.dealer
        playing = match.in_play
        if result.winner is None:
            return dealer if dealer in playing else _left_of(match, dealer)
        if len(playing) == 3:
            if match.settings.sit_out is SitOut.LOSER:
                assert result.loser is not None
                return result.loser  # the loser sits out; the winner plays the sitter
            return (dealer + 1) % 3
        rule = match.settings.next_dealer
        if rule is NextDealer.WINNER:
            return result.winner
        if rule is NextDealer.LOSER:
            assert result.loser is not None
            return result.loser
        return _left_of(match, dealer)

    def leave(self, match: Match, seat: int, reason: EndReason) -> MoveReport:
        """Out at once, placed below the others with their points and no bonus: the two
        left play on as two players, to the target; once only one is left, the match is over.
        A hand the player was playing ends there, unplayed and void: nobody scores it, and
        its dealer (who sat it out) deals the next to the other player."""
        action = Action(ActionKind.LEAVE, seat)
        match.dropped.append(seat)
        if len(match.in_play) == 1:
            match.result = self.last_left(match, reason, seat)
            return MoveReport(action, result=match.result, went_out=seat)
        board = match.hand
        if seat not in board.seats or board.is_over:
            return MoveReport(action, went_out=seat)  # they sat this hand out: it goes on
        board.remove_seat(seat)
        record = match.record_board(0)
        return replace(self.board_over(match, action, record), went_out=seat)

    @staticmethod
    def last_left(match: Match, reason: EndReason, loser: int) -> MatchResult:
        """One player is left: first, then those who left, the first to leave last; points
        stand, no bonuses (as a resignation of the two-player game)."""
        order = [*match.in_play, *reversed(match.dropped)]
        placings = tuple(order.index(s) + 1 for s in range(3))
        zeros = (0, 0, 0)
        return MatchResult(
            reason=reason,
            winner=order[0],
            points=tuple(match.scores),
            game_bonus=zeros,
            box_bonus=zeros,
            shutout=False,
            final=tuple(match.scores),
            loser=loser,
            placings=placings,
        )

    def not_playing(self, match: Match, seat: int) -> Phrase:
        if seat in match.dropped:
            return Phrase("You left this match; the others play on. Watch with `/gin table`.")
        a, b = (match.players[s].name for s in match.hand.seats)
        return Phrase(
            "You deal and sit this hand out: {a} and {b} are playing it. Watch with "
            "`/gin table`; you'll be told when you play again.",
            a=a,
            b=b,
        )


def _left_of(match: Match, seat: int) -> int:
    """The next seat to the left still in the match."""
    n = len(match.players)
    playing = set(match.in_play)
    return next(s for i in range(1, n + 1) if (s := (seat + i) % n) in playing)


# --- two teams of two -----------------------------------------------------------------------------


def cut_for_teams(
    seed: str | None, teams: list[int | None] | None
) -> tuple[list[list[Card]], list[int], int]:
    """The cut of four players: the sides (picked ones kept, the rest by cut: the two lowest
    cards against the two highest) and the player who cut lowest, whose side deals first.
    Ties that would decide a side or the first deal cut again."""
    picked: list[int | None] = list(teams) if teams is not None else [None, None, None, None]
    cuts: list[list[Card]] = []
    while True:
        round_seed = new_seed() if seed is None else derive_seed(seed, f"cut-{len(cuts)}")
        cut = shuffled(DECK, round_seed)[:4]
        cuts.append(cut)
        ranks = sorted(c.rank for c in cut)
        lowest = [p for p in range(4) if cut[p].rank == ranks[0]]
        if len(lowest) != 1:
            continue
        if all(side is None for side in picked):
            if ranks[1] == ranks[2]:
                continue  # who is in the low pair is not settled
            sides = [0 if cut[p].rank <= ranks[1] else 1 for p in range(4)]
        else:
            sides = _fill_sides(picked)
        return cuts, sides, lowest[0]


def _fill_sides(picked: list[int | None]) -> list[int]:
    """Sides picked by the players, the others filling the side with room, in seat order."""
    for side in (0, 1):
        if picked.count(side) > 2:
            raise ValueError("a team has two players")
    sides: list[int] = []
    for choice in picked:
        if choice is None:
            count = sides.count(0) + picked[len(sides) :].count(0)
            choice = 0 if count < 2 else 1
        sides.append(choice)
    return sides


class Teams(Mode):
    name = "teams"
    label = "Two teams of two"
    variant_refused = Phrase(
        "{variant_name} is a two-player variant, and two teams of two is not the two-player "
        "game: set the variant to classic for this table."
    )
    min_players = max_players = default_players = 4
    team_play = True
    two_player_game = False
    opens_a_lobby = True
    knocking = True
    has_target = True
    plays_rounds = False
    dealer_sits_out = False
    rematch_allowed = False
    leaving_ends_match = True
    target_setting = "team_target"

    def target(self, settings: Settings) -> int:
        """Teams play to their own, higher target."""
        return settings.team_target

    def rated_sides(self, match: Match, result: MatchResult) -> tuple[list[list[int]], list[int]]:
        """Partners are one side: they win or lose together."""
        seats = range(len(match.players))
        sides = [[s for s in seats if match.side_of(s) == side] for side in (0, 1)]
        return sides, [result.placings[match.partners(s)[0]] for s in (0, 1)]

    def start(
        self,
        players: tuple[Player, ...],
        settings: Settings,
        seed: str | None,
        teams: list[int | None] | None,
    ) -> Match:
        cuts, sides, low = cut_for_teams(seed, teams)
        # Partners sit across: team 1 (side 0) at seats 0 and 2, team 2 at seats 1 and 3.
        first = [p for p in range(4) if sides[p] == 0]
        second = [p for p in range(4) if sides[p] == 1]
        order = [first[0], second[0], first[1], second[1]]
        seated = tuple(players[p] for p in order)
        match = Match(
            players=seated,
            settings=settings,
            seed=seed,
            cuts=[[cut[p] for p in order] for cut in cuts],
            scores=[0, 0],
            hands_won=[0, 0],
            hand_number=1,
            boards=[],
            mode_name=self.name,
            sides=(0, 1, 0, 1),
            dealing_side=sides[low],  # the team of the player who cut lowest deals first
        )
        match.boards = self.deal(match)
        return match

    @staticmethod
    def pairs(pairing: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """Who plays whom: side 0's seats 0 and 2 against side 1's seats 1 and 3."""
        if pairing % 2 == 0:
            return (0, 1), (2, 3)
        return (0, 3), (2, 1)

    def deal(self, match: Match) -> list[Hand]:
        boards = []
        for index, pair in enumerate(self.pairs(match.pairing)):
            dealer = next(s for s in pair if match.side_of(s) == match.dealing_side)
            other = next(s for s in pair if s != dealer)
            boards.append(
                Hand.deal(
                    (other, dealer),
                    dealer,
                    _names(match.players),
                    match.settings,
                    match.hand_seed(index),
                )
            )
        return boards

    def board_over(self, match: Match, action: Action, record: HandRecord) -> MoveReport:
        if not all(board.is_over for board in match.boards):
            return MoveReport(action, record)  # the other game goes on
        per_board: list[tuple[int | None, int]] = []
        net = [0, 0]
        for board in match.boards:
            result = board.result
            assert result is not None
            if result.winner is None:
                per_board.append((None, 0))
                continue
            side = match.side_of(result.winner)
            net[side] += result.points
            per_board.append((side, result.points))
        if net[0] == net[1]:  # both void, or the games cancel out: nobody scores
            scored = HandScore(None, 0, tuple(per_board))
            winner: int | None = None
        else:
            winner = 0 if net[0] > net[1] else 1
            points = abs(net[0] - net[1])
            match.scores[winner] += points
            match.hands_won[winner] += 1
            scored = HandScore(winner, points, tuple(per_board))
            if match.scores[winner] >= match.settings.team_target:
                match.result = _final(match, winner, [winner])
                return MoveReport(action, record, match.result, scored)
        all_void = all(side is None for side, _ in per_board)
        if winner is not None:
            rule = match.settings.next_dealer
            if rule is NextDealer.LOSER:
                match.dealing_side = 1 - winner
            elif rule is NextDealer.WINNER:
                match.dealing_side = winner
            else:
                match.dealing_side = 1 - match.dealing_side
        if not all_void and match.settings.rotate_opponents:
            match.pairing += 1
        match.hand_number += 1
        match.boards = self.deal(match)
        return MoveReport(action, record, None, scored)

    def placings_after_resign(self, match: Match, seat: int) -> tuple[int, ...]:
        losing = match.side_of(seat)
        return tuple(2 if match.side_of(s) == losing else 1 for s in range(4))

    def not_playing(self, match: Match, seat: int) -> Phrase:
        return Phrase("You are not playing this hand.")


# --- elimination ----------------------------------------------------------------------------------


def decks_for(players: int) -> int:
    """One deck for up to 4 players, two for 5 to 8, three for 9 to 12, four for 13 or 14."""
    return min(4, (players + 3) // 4)


def _went_out(place: int) -> Phrase:
    """A player out safe, by place: one sentence per English ordinal ending (1st, 2nd, 3rd,
    4th and on), so that each language writes its own ordinals."""
    ending = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    if ending == "st":
        # TRANSLATORS: {place} is 1 (or 21, 31...): "1st place".
        return Phrase(
            "You went out in {place}st place: you're safe! Watch the others play on with "
            "`/gin table`.",
            place=place,
        )
    if ending == "nd":
        # TRANSLATORS: {place} is 2 (or 22, 32...): "2nd place".
        return Phrase(
            "You went out in {place}nd place: you're safe! Watch the others play on with "
            "`/gin table`.",
            place=place,
        )
    if ending == "rd":
        # TRANSLATORS: {place} is 3 (or 23, 33...): "3rd place".
        return Phrase(
            "You went out in {place}rd place: you're safe! Watch the others play on with "
            "`/gin table`.",
            place=place,
        )
    # TRANSLATORS: {place} is 4 to 20 (or 24...): "4th place".
    return Phrase(
        "You went out in {place}th place: you're safe! Watch the others play on with `/gin table`.",
        place=place,
    )


class Elimination(Mode):
    name = "elimination"
    label = "Elimination"
    variant_refused = Phrase(
        "{variant_name} is a two-player variant, and elimination is not the two-player "
        "game: set the variant to classic for this table."
    )
    min_players = 2
    max_players = 14
    default_players = 6
    two_player_game = False
    opens_a_lobby = True
    knocking = False
    has_target = False
    plays_rounds = True
    dealer_sits_out = False
    rematch_allowed = False
    leaving_ends_match = False

    def start(
        self,
        players: tuple[Player, ...],
        settings: Settings,
        seed: str | None,
        teams: list[int | None] | None,
    ) -> Match:
        n = len(players)
        cuts, dealer = cut_for_deal(n, seed)
        match = Match(
            players=players,
            settings=settings,
            seed=seed,
            cuts=cuts,
            scores=[0] * n,
            hands_won=[0] * n,
            hand_number=1,
            boards=[],
            mode_name=self.name,
            sides=tuple(range(n)),
        )
        match.boards = [self.deal(match, dealer, _first_seed(seed))]
        return match

    @staticmethod
    def rules(match: Match, players: int) -> HandRules:
        return HandRules(
            decks=decks_for(players),
            upcard_offer=False,
            knocking=False,
            reshuffle=True,
            distinct_suits=match.settings.set_suits is SetSuits.DIFFERENT,
        )

    def deal(self, match: Match, dealer: int, seed: str) -> Hand:
        """Everyone still in is dealt, from the dealer's left; the dealer plays last."""
        n = len(match.players)
        playing = set(match.in_play)
        seats = tuple(s for i in range(1, n + 1) if (s := (dealer + i) % n) in playing)
        rules = self.rules(match, len(seats))
        return Hand.deal(seats, dealer, _names(match.players), match.settings, seed, rules)

    def next_dealer(self, match: Match, dealer: int) -> int:
        """The deal passes to the left, to the next player still in."""
        n = len(match.players)
        playing = set(match.in_play)
        return next(s for i in range(1, n + 1) if (s := (dealer + i) % n) in playing)

    def board_over(self, match: Match, action: Action, record: HandRecord) -> MoveReport:
        seat = record.result.winner
        assert seat is not None
        match.out.append(seat)
        match.hands_won[seat] += 1
        if len(match.in_play) == 1:
            match.result = self.final(match, EndReason.LAST_LEFT, None)
            return MoveReport(action, record, match.result, went_out=seat)
        dealer = self.next_dealer(match, match.hand.dealer)
        match.hand_number += 1
        match.boards = [self.deal(match, dealer, match.hand_seed())]
        return MoveReport(action, record, None, went_out=seat)

    def leave(self, match: Match, seat: int, reason: EndReason) -> MoveReport:
        """Out at once, placed below everyone still in; the table plays on."""
        action = Action(ActionKind.LEAVE, seat)
        board = match.hand
        match.dropped.append(seat)
        if len(match.in_play) == 1:
            match.result = self.final(match, reason, seat)
            return MoveReport(action, result=match.result, went_out=seat)
        if seat in board.seats and not board.is_over:
            board.remove_seat(seat)
        return MoveReport(action, went_out=seat)

    def final(self, match: Match, reason: EndReason, loser: int | None) -> MatchResult:
        placings = self.placings(match)
        n = len(match.players)
        zeros = (0,) * n
        return MatchResult(
            reason=reason,
            winner=placings.index(1),
            points=zeros,
            game_bonus=zeros,
            box_bonus=zeros,
            shutout=False,
            final=tuple(n - placings[s] for s in range(n)),  # players placed below
            loser=loser,
            placings=placings,
        )

    @staticmethod
    def placings(match: Match) -> tuple[int, ...]:
        """Those who went out first to last, then whoever is still in, then those who left,
        the first to leave last."""
        order = [*match.out, *match.in_play, *reversed(match.dropped)]
        return tuple(order.index(s) + 1 for s in range(len(match.players)))

    def place_of_out(self, match: Match, seat: int) -> int:
        return match.out.index(seat) + 1

    def not_playing(self, match: Match, seat: int) -> Phrase:
        if seat in match.out:
            return _went_out(match.out.index(seat) + 1)
        if seat in match.dropped:
            return Phrase("You left this match; the others play on. Watch with `/gin table`.")
        return Phrase("You are not playing this hand.")

    def placings_after_resign(self, match: Match, seat: int) -> tuple[int, ...]:
        raise IllegalMove("Elimination places a player who leaves; it never ends the match so.")


MODES: dict[str, Mode] = {m.name: m for m in (Classic(), Three(), Teams(), Elimination())}
ALIASES = {"two": "classic", "2p": "classic", "3p": "three", "team": "teams", "elim": "elimination"}


def find_mode(name: str) -> Mode:
    """The mode of this name (or alias); ValueError for an unknown one."""
    key = ALIASES.get(name.lower(), name.lower())
    try:
        return MODES[key]
    except KeyError:
        raise ValueError(f"unknown mode {name!r}; modes: {', '.join(MODES)}") from None


__all__ = [
    "ALIASES",
    "CLASSIC_RULES",
    "MODES",
    "Classic",
    "Elimination",
    "Mode",
    "Teams",
    "Three",
    "cut_for_teams",
    "decks_for",
    "find_mode",
]
