"""What a stored tournament says once read: its entrants, games and pairs for the pairing
rules, the standings, and the matches still to start. Pure functions of a ``Tournament``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.tournaments import duplicate, knockout, swiss
from bot.tournaments.errors import NoPairing
from bot.tournaments.model import (
    MatchOutcome,
    MatchToStart,
    StandingLine,
    Standings,
    Tournament,
)
from bot.tournaments.records import Entrant, Game, Pair
from bot.tournaments.settings import Format


def entrants_of(tournament: Tournament) -> list[Entrant]:
    return [
        Entrant(e.user_id, e.seed, e.status == "dropped")
        for e in tournament.entrants
        if e.seed is not None
    ]


def games_of(tournament: Tournament) -> list[Game]:
    return [
        Game(p.round, p.player_a, p.player_b, p.winner_id)
        for p in tournament.pairings
        if p.state == "decided"
    ]


def pairs_of(tournament: Tournament, number: int) -> dict[int, Pair]:
    """Round ``number``'s boards; none when the tournament cannot go on."""
    entrants = entrants_of(tournament)
    if tournament.format is Format.SWISS:
        try:
            return dict(enumerate(swiss.pair_round(entrants, games_of(tournament))))
        except NoPairing:
            return {}
    if number == 1:
        active = sorted((e for e in entrants if not e.dropped), key=lambda e: e.seed)
        if len(active) < 2:
            return {}
        return knockout.first_round([e.user_id for e in active])
    dropped = {e.user_id for e in entrants if e.dropped}
    before = tournament.pairings_of(number - 1)
    winners = {p.board: p.winner_id if p.winner_id not in dropped else None for p in before}
    boards = knockout.bracket_size(len(entrants)) >> (number - 1)
    seeds = {e.user_id: e.seed for e in entrants}
    return knockout.next_round(winners, boards, seeds)


def knockout_won(tournament: Tournament) -> bool:
    """A knockout with at most one player left standing after this round is over."""
    if tournament.format is not Format.KNOCKOUT:
        return False
    dropped = {e.user_id for e in tournament.entrants if e.status == "dropped"}
    left = {
        p.winner_id
        for p in tournament.pairings_of(tournament.round)
        if p.winner_id is not None and p.winner_id not in dropped
    }
    return len(left) <= 1


def outcome_detail(tournament: Tournament, outcome: MatchOutcome) -> dict[str, object]:
    """What a pairing keeps of its match beside the result: how it ended when the target
    was not reached (a resignation, a forfeit), and in a duplicate round its deals, for the
    score against the field."""
    detail: dict[str, object] = {}
    if outcome.reason != "target":
        detail["reason"] = outcome.reason
    if tournament.settings.duplicate:
        detail["seats"] = list(outcome.seats)
        detail["hands"] = [[h.seed, h.dealer_seat, h.winner_seat, h.points] for h in outcome.hands]
    return detail


def field_of(tournament: Tournament) -> dict[str, duplicate.FieldScore] | None:
    if not tournament.settings.duplicate:
        return None
    deals: list[duplicate.SeatDeal] = []
    for pairing in tournament.pairings:
        detail = pairing.detail or {}
        seats, hands = detail.get("seats"), detail.get("hands")
        if not isinstance(seats, list) or not isinstance(hands, list) or len(seats) != 2:
            continue
        scored = [duplicate.HandScore(str(h[0]), int(h[1]), h[2], int(h[3])) for h in hands]
        deals += duplicate.seat_deals(scored, (str(seats[0]), str(seats[1])))
    return duplicate.field_scores(deals)


def standings_of(tournament: Tournament, *, final: bool | None = None) -> Standings:
    """A tournament's standings as stored (empty before it starts)."""
    done = tournament.state == "finished" if final is None else final
    field_scores = field_of(tournament)
    entrants = entrants_of(tournament)
    lines: list[StandingLine]
    if tournament.format is Format.SWISS:
        lines = [
            StandingLine(
                rank=s.rank,
                place=s.rank,
                user_id=s.user_id,
                seed=s.seed,
                points=s.points,
                played=s.played,
                wins=s.wins,
                byes=s.byes,
                buchholz=s.buchholz,
                buchholz_cut1=s.buchholz_cut1,
                sonneborn_berger=s.sonneborn_berger,
                direct=s.direct,
                dropped=s.dropped,
                field=None if field_scores is None else field_scores.get(s.user_id),
            )
            for s in swiss.standings(entrants, games_of(tournament))
        ]
    else:
        lines = _knockout_lines(tournament, entrants, field_scores)
    return Standings(
        tournament.id,
        tournament.format,
        tournament.round,
        tournament.rounds_total,
        done,
        tuple(lines),
    )


def _knockout_lines(
    tournament: Tournament,
    entrants: Sequence[Entrant],
    field_scores: Mapping[str, duplicate.FieldScore] | None,
) -> list[StandingLine]:
    seeds = {e.user_id: e.seed for e in entrants}
    out: dict[str, int] = {}
    last_seen: dict[str, int] = {}
    played: dict[str, int] = dict.fromkeys(seeds, 0)
    wins: dict[str, int] = dict.fromkeys(seeds, 0)
    byes: dict[str, int] = dict.fromkeys(seeds, 0)
    for p in tournament.pairings:
        for user in p.players:
            last_seen[user] = max(last_seen.get(user, 0), p.round)
        if p.state != "decided":
            continue
        if p.player_b is None:
            byes[p.player_a] += 1
            continue
        for user in p.players:
            played[user] += 1
            if user == p.winner_id:
                wins[user] += 1
            else:
                out.setdefault(user, p.round)
    for e in entrants:
        if e.dropped and e.user_id not in out:
            out[e.user_id] = min(last_seen.get(e.user_id, 0) + 1, max(tournament.rounds_total, 1))
    placings = knockout.placings(seeds, max(tournament.rounds_total, 1), out)
    dropped = {e.user_id for e in entrants if e.dropped}
    return [
        StandingLine(
            rank=rank,
            place=p.place,
            user_id=p.user_id,
            seed=p.seed,
            points=wins[p.user_id] + byes[p.user_id],
            played=played[p.user_id],
            wins=wins[p.user_id],
            byes=byes[p.user_id],
            dropped=p.user_id in dropped,
            out_in=p.out_in,
            field=None if field_scores is None else field_scores.get(p.user_id),
        )
        for rank, p in enumerate(placings, start=1)
    ]


def to_start(tournament: Tournament) -> list[MatchToStart]:
    if tournament.state != "running":
        return []
    current = tournament.round_row(tournament.round)
    if current is None or current.state != "playing" or current.deadline is None:
        return []
    deadline = datetime.fromisoformat(current.deadline)
    return [
        MatchToStart(
            tournament.id,
            p.round,
            p.board,
            (p.player_a, p.player_b),
            tournament.settings.rules,
            current.seed,
            deadline,
        )
        for p in tournament.pairings_of(tournament.round)
        if p.state == "waiting" and p.player_b is not None
    ]
