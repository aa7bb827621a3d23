"""What players see of tournaments and seasons: the sign-up, each round's pairings and
results, the standings, the winner, a player's tournaments, and the season tables.

People are named by mention (``<@id>``): Discord shows each reader the member's name and an
embed notifies nobody. A block that could outgrow Discord's embed is cut at ``BODY_LIMIT``
with a line saying how much is left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from fractions import Fraction

from bot.gin.settings import Settings
from bot.i18n import N_, number, tr, tr_n, translate
from bot.render.challenges import variant_text
from bot.render.common import Panel, ordinal
from bot.render.records import REASONS, leaderboard_panel
from bot.tables.records import LeaderRow
from bot.tournaments import (
    PairingRow,
    Season,
    StandingLine,
    Standings,
    Tournament,
    TournamentEntry,
)
from bot.tournaments.divisions import Movement
from bot.tournaments.settings import MIN_PLAYERS, Format

DOT = " · "
BODY_LIMIT = 3900  # an embed's description holds 4,096 characters; room for the last line
FORMATS = {
    # TRANSLATORS: a tournament's format, in a title ("Swiss tournament").
    Format.SWISS: N_("Swiss tournament"),
    # TRANSLATORS: a tournament's format, in a title ("Knockout tournament").
    Format.KNOCKOUT: N_("Knockout tournament"),
}


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def when(moment: datetime, style: str = "R") -> str:
    """A time as Discord shows it to each reader, in their own clock (``R``: "in 2 hours")."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def fitted(lines: Sequence[str], limit: int = BODY_LIMIT) -> str:
    """The lines that fit in ``limit`` characters, and a last one saying how many did not."""
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        if used + len(line) + 1 > limit:
            left = len(lines) - index
            kept.append(tr_n("… and {n} more line", "… and {n} more lines", left))
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)


def fraction(value: Fraction) -> str:
    """A tie-break as people write it: whole numbers plain, halves as ½, others to 0.1."""
    if value.denominator == 1:
        return number(int(value))
    if value.denominator == 2:
        whole = value.numerator // 2
        return f"{number(whole) if whole else ''}½" if value > 0 else f"-{fraction(-value)}"
    return number(float(value), 1)


def signed(value: Fraction) -> str:
    text = number(float(value), 1)
    return f"+{text}" if value > 0 else text


def title_of(tournament: Tournament) -> str:
    """``🏆 Swiss tournament #12``."""
    kind = translate(FORMATS[tournament.format])
    return f"🏆 {kind} #{tournament.id}"


def matches_line(rules: Settings, round_minutes: int) -> str:
    """How the matches are played, in one line."""
    return tr_n(
        "Matches to {target} points, {variant}; {n} minute a round.",
        "Matches to {target} points, {variant}; {n} minutes a round.",
        round_minutes,
        target=rules.target,
        variant=variant_text(rules),
    )


def format_line(tournament: Tournament) -> str:
    settings = tournament.settings
    if settings.format is Format.KNOCKOUT:
        return tr(
            "Knockout: lose a match and you are out. The best seeds (by rating) get the byes."
        )
    rounds = tournament.rounds_total or settings.rounds or 0
    if rounds:
        return tr_n(
            "Swiss, {n} round: everyone plays every round, never the same opponent twice; "
            "a bye counts as a win.",
            "Swiss, {n} rounds: everyone plays every round, never the same opponent twice; "
            "a bye counts as a win.",
            rounds,
        )
    return tr(
        "Swiss, rounds by the number of players: everyone plays every round, never the same "
        "opponent twice; a bye counts as a win."
    )


def signup_panel(tournament: Tournament) -> Panel:
    """The tournament's first message: what it is, who has joined, and how to join (its
    buttons come with it while sign-up is open)."""
    settings = tournament.settings
    joined = [mention(e.user_id) for e in tournament.joined]
    lines = [
        tr("Organised by {organiser}.", organiser=mention(tournament.organiser_id)),
        format_line(tournament),
        matches_line(settings.rules, settings.round_minutes),
    ]
    if settings.duplicate:
        lines.append(
            tr(
                "Duplicate deals: every match of a round is dealt the same cards, so each "
                "result can be read against the same seat at the other tables."
            )
        )
    state = tournament.state
    if state == "signup":
        closes = tournament.signup_closes_at
        if closes is not None:
            lines.append(
                tr(
                    "Sign-up closes {when}; the tournament then starts by itself.",
                    when=when(closes),
                )
            )
        else:
            lines.append(tr("Sign-up is open until the organiser starts the tournament."))
    elif state == "running":
        lines.append(tr("**It has started:** the pairings and the standings are below."))
    elif state == "finished":
        lines.append(tr("**It is over:** the final standings are below."))
    else:
        lines.append(tr("**It was called off.**"))
    # TRANSLATORS: what separates the names in a list of players.
    players = tr(", ").join(joined) if joined else tr("nobody yet")
    lines.append(
        tr(
            "**Players ({count} of at most {most}):** {players}",
            count=len(joined),
            most=settings.max_players,
            players=players,
        )
    )
    footer = ""
    if state == "signup":
        footer = tr(
            "Join with the button or /gin tournament join. It needs at least {least} players.",
            least=MIN_PLAYERS[settings.format],
        )
    return Panel(title_of(tournament), fitted(lines), footer)


def round_name(tournament: Tournament, number_: int) -> str:
    """``Round 2 of 3``; a knockout's last rounds by their names."""
    total = tournament.rounds_total
    if tournament.format is Format.KNOCKOUT and total:
        if number_ == total:
            # TRANSLATORS: the last round of a knockout.
            return tr("Final")
        if number_ == total - 1:
            # TRANSLATORS: the round of a knockout before the final.
            return tr("Semi-finals")
        if number_ == total - 2:
            # TRANSLATORS: the round of a knockout before the semi-finals.
            return tr("Quarter-finals")
    return tr("Round {number} of {total}", number=number_, total=total)


def pairing_line(pairing: PairingRow, thread: int | None) -> str:
    """One board of a round: who plays whom, where, and how it ended."""
    a = mention(pairing.player_a)
    if pairing.player_b is None:
        return tr("{player} has a bye: a win without playing.", player=a)
    b = mention(pairing.player_b)
    where = f" · <#{thread}>" if thread else ""
    board = pairing.board + 1
    if pairing.state != "decided":
        return tr("**{board}.** {a} vs {b}", board=board, a=a, b=b) + where
    winner = pairing.winner_id
    if winner is None:
        return tr("**{board}.** {a} vs {b}: both withdrew, nobody wins", board=board, a=a, b=b)
    loser = b if winner == pairing.player_a else a
    won = mention(winner)
    scores = _scores(pairing, winner)
    if pairing.decided_by == "walkover":
        text = tr(
            "**{board}.** {winner} wins by walkover: {loser} withdrew",
            board=board,
            winner=won,
            loser=loser,
        )
    elif pairing.decided_by == "time":
        text = tr(
            "**{board}.** ⏱ {winner} beat {loser} when time ran out ({scores})",
            board=board,
            winner=won,
            loser=loser,
            scores=scores,
        )
    else:
        reason = (pairing.detail or {}).get("reason")
        if reason in REASONS:  # "187–64 (resigned)", as a player's history says it
            scores = translate(REASONS[str(reason)], {"result": scores})
        text = tr(
            "**{board}.** ✅ {winner} beat {loser} {scores}",
            board=board,
            winner=won,
            loser=loser,
            scores=scores,
        )
    return text + where


def _scores(pairing: PairingRow, winner: str) -> str:
    """The winner's score first: ``187–64``."""
    a, b = pairing.score_a or 0, pairing.score_b or 0
    first, second = (a, b) if winner == pairing.player_a else (b, a)
    return f"{number(first)}–{number(second)}"


def round_panel(
    tournament: Tournament,
    number_: int,
    threads: Mapping[tuple[int, int], int],
    deadline: datetime | None,
) -> Panel:
    """A round's pairings, each board's result as it comes, and where each is played."""
    pairings = tournament.pairings_of(number_)
    lines = []
    done = all(p.state == "decided" for p in pairings)
    if deadline is not None and not done:
        lines.append(
            tr(
                "Matches are played in the threads below; time runs out {when} ({at}).",
                when=when(deadline),
                at=when(deadline, "t"),
            )
        )
    lines += [pairing_line(p, threads.get((p.round, p.board))) for p in pairings]
    if done:
        footer = tr("Every match of this round is decided.")
    else:
        footer = tr("Results appear here as the matches end. A player who leaves loses.")
    title = f"🏆 #{tournament.id}{DOT}{round_name(tournament, number_)}"
    return Panel(title, fitted(lines), footer)


SWISS_NOTE = N_(
    "Points (a win or a bye is 1), then Buchholz (Bh: the opponents' points), Buchholz cut 1 "
    "(Bh-1: without the lowest), Sonneborn-Berger (SB: the points of the opponents beaten), "
    "direct encounter, seed."
)
FIELD_NOTE = N_(
    "Field: points scored on the same cards as the players in the same seat at the other "
    "tables, over or under their average."
)


def standings_panel(tournament: Tournament, standings: Standings) -> Panel:
    """The standings, one line a player, best first."""
    if standings.final:
        title = tr("Final standings")
    elif standings.round:
        title = tr(
            "Standings after round {number} of {total}",
            number=standings.round,
            total=standings.rounds_total,
        )
    else:
        title = tr("Standings")
    title = f"🏆 #{tournament.id}{DOT}{title}"
    if standings.format is Format.SWISS:
        lines = [_swiss_line(line) for line in standings.lines]
        notes = [translate(SWISS_NOTE)]
    else:
        lines = [_knockout_line(line, standings) for line in standings.lines]
        notes = [tr("Places by the round each player went out in; seeds in brackets.")]
    if tournament.settings.duplicate:
        notes.append(translate(FIELD_NOTE))
    if not lines:
        lines = [tr("Nobody has played yet.")]
    return Panel(title, fitted(lines), " ".join(notes))


def _swiss_line(line: StandingLine) -> str:
    parts = [
        tr_n("**{n}** point", "**{n}** points", line.points),
        f"Bh {fraction(line.buchholz)}",
        f"Bh-1 {fraction(line.buchholz_cut1)}",
        f"SB {fraction(line.sonneborn_berger)}",
    ]
    if line.direct:
        # TRANSLATORS: the direct encounter tie-break, shortened, with its figure.
        parts.append(tr("direct {value}", value=fraction(line.direct)))
    if line.field is not None and line.field.deals:
        # TRANSLATORS: the score against the field in a duplicate tournament, shortened.
        parts.append(tr("field {value}", value=signed(line.field.score)))
    text = f"**{line.rank}.** {mention(line.user_id)} — {DOT.join(parts)}"
    if line.dropped:
        # TRANSLATORS: after a player's line in the standings: they left the tournament.
        text += " " + tr("*(withdrew)*")
    return text


def _knockout_line(line: StandingLine, standings: Standings) -> str:
    total = standings.rounds_total
    if line.out_in is None:
        # TRANSLATORS: the winner of a knockout, in the standings.
        champion = tr("champion")
        # TRANSLATORS: a knockout player who has lost no match yet, in the standings.
        still_in = tr("still in")
        where = champion if standings.final else still_in
    elif line.out_in == total:
        # TRANSLATORS: the loser of a knockout's final, in the standings.
        where = tr("finalist")
    elif line.out_in == total - 1:
        where = tr("out in the semi-finals")
    elif line.out_in == total - 2:
        where = tr("out in the quarter-finals")
    else:
        where = tr("out in round {number}", number=line.out_in)
    text = f"**{ordinal(line.place)}** {mention(line.user_id)} ({line.seed}) — {where}"
    if line.field is not None and line.field.deals:
        text += DOT + tr("field {value}", value=signed(line.field.score))
    if line.dropped:
        text += " " + tr("*(withdrew)*")
    return text


def final_panel(tournament: Tournament, standings: Standings) -> Panel:
    """The announcement at the end: the winner, and who came next."""
    places = [line for line in standings.lines if not line.dropped or line.place <= 2]
    winner = places[0] if places else None
    over = tr("The tournament is over")
    title = f"🏆 #{tournament.id}{DOT}{over}"
    if winner is None:
        return Panel(title, tr("Nobody played, so nobody wins."))
    lines = [
        tr(
            "{winner} wins tournament #{number}! Congratulations.",
            winner=mention(winner.user_id),
            number=tournament.id,
        )
    ]
    for line in places[1:3]:
        lines.append(
            tr(
                "{place}: {player}",
                place=ordinal(line.place),
                player=mention(line.user_id),
            )
        )
    lines.append(tr("Thanks for playing. The final standings stay in the message above."))
    return Panel(title, "\n".join(lines))


def cancelled_panel(tournament: Tournament, by: str | None) -> Panel:
    # TRANSLATORS: the title of the message saying a tournament was called off.
    called_off = tr("Called off")
    title = f"🏆 #{tournament.id}{DOT}{called_off}"
    if by is None:
        body = tr(
            "Sign-up closed with too few players: the tournament is called off. Open another "
            "with /gin tournament open."
        )
    else:
        body = tr(
            "{organiser} called the tournament off. Matches still being played end with no "
            "result for it; nobody wins it.",
            organiser=mention(by),
        )
    return Panel(title, body)


def match_intro(tournament: Tournament, pairing: PairingRow, deadline: datetime) -> str:
    """The first message of a match's thread: who plays, and by when."""
    assert pairing.player_b is not None
    return tr(
        "{a} vs {b}: your match of {round} in tournament #{tournament}. Your hands come "
        "by DM (or `/gin hand` here); the table follows below. Time runs out {when}.",
        a=mention(pairing.player_a),
        b=mention(pairing.player_b),
        round=round_name(tournament, pairing.round),
        tournament=tournament.id,
        when=when(deadline),
    )


def thread_name(tournament: Tournament, pairing: PairingRow, names: Mapping[str, str]) -> str:
    """A match thread's name (100 characters at most): ``#12 R1 · Ann vs Bob``."""
    a = names.get(pairing.player_a, pairing.player_a)
    b = names.get(pairing.player_b or "", pairing.player_b or "")
    # TRANSLATORS: a match thread's name: tournament, round, the two players.
    name = tr(
        "#{tournament} R{round} · {a} vs {b}",
        tournament=tournament.id,
        round=pairing.round,
        a=a,
        b=b,
    )
    return name[:100]


def ended_note(reason: str, winner: str | None, loser: str | None, scores: str) -> str:
    """Said in a match's thread when the tournament decides it without the match."""
    if reason == "time":
        return tr(
            "⏱ Time is up for this round: {winner} wins the match ({scores}), as the "
            "tournament's time limit decides.",
            winner=mention(winner or ""),
            scores=scores,
        )
    if reason == "walkover":
        return tr(
            "{loser} left the tournament: {winner} wins this match by walkover.",
            loser=mention(loser or ""),
            winner=mention(winner or ""),
        )
    return tr("The tournament was called off: this match ends with no result.")


# --- a player's tournaments ----------------------------------------------------------------------


def entry_line(entry: TournamentEntry) -> str:
    """One tournament in a player's history."""
    kind = translate(FORMATS[Format(entry.format)])
    started = datetime.fromisoformat(entry.created_at)
    if entry.status == "dropped":
        how = tr("withdrew")
    elif entry.status == "left":
        how = tr("left before the start")
    elif entry.state == "finished" and entry.place is not None:
        how = tr("{place} of {players}", place=ordinal(entry.place), players=entry.entrants)
    elif entry.state == "cancelled":
        how = tr("called off")
    elif entry.state == "signup":
        how = tr("signed up")
    else:
        how = tr("playing")
    return f"**#{entry.tournament_id}** {kind}{DOT}{how}{DOT}<#{entry.channel_id}>{DOT}" + when(
        started, "d"
    )


def tournaments_panel(who: str, entries: Sequence[TournamentEntry], total: int) -> Panel:
    """A player's recent tournaments, for /gin history."""
    title = tr("Tournaments of {who}", who=who)
    if not entries:
        return Panel(title, tr("{who} hasn't entered a tournament in this server yet.", who=who))
    footer = ""
    if total > len(entries):
        footer = tr_n("The latest {n} of them.", "The latest {n} of them.", len(entries))
    return Panel(title, fitted([entry_line(e) for e in entries]), footer)


def tournament_record(entries: Sequence[TournamentEntry], total: int) -> str:
    """A player's tournaments in one line, for /gin stats."""
    finished = [e for e in entries if e.state == "finished" and e.place is not None]
    won = sum(1 for e in finished if e.place == 1)
    best = min((e.place for e in finished if e.place is not None), default=None)
    text = tr(
        "**Tournaments:** {entered} entered · {finished} finished · {won} won",
        entered=total,
        finished=len(finished),
        won=won,
    )
    if best is not None:
        text += DOT + tr("best place {place}", place=ordinal(best))
    return text


def server_tournaments_panel(tournaments: Sequence[Tournament], total: int) -> Panel:
    """The server's tournaments, newest first."""
    title = tr("This server's tournaments")
    if not tournaments:
        return Panel(
            title, tr("No tournaments yet. An organiser opens one with /gin tournament open.")
        )
    lines = []
    for tournament in tournaments:
        kind = translate(FORMATS[tournament.format])
        players = len([e for e in tournament.entrants if e.status != "left"])
        state = {
            "signup": tr("signing up"),
            "running": tr("round {number}", number=tournament.round),
            "finished": tr("finished"),
            "cancelled": tr("called off"),
        }[tournament.state]
        winner = next((e for e in tournament.entrants if e.place == 1), None)
        line = tr_n(
            "**#{id}** {kind} · {n} player · {state} · <#{channel}>",
            "**#{id}** {kind} · {n} players · {state} · <#{channel}>",
            players,
            id=tournament.id,
            kind=kind,
            state=state,
            channel=tournament.row.channel_id,
        )
        if winner is not None:
            line += DOT + "🏆 " + mention(winner.user_id)
        lines.append(line)
    footer = tr("/gin tournament standings tournament:<number> shows one of them.")
    if total > len(tournaments):
        footer = tr_n("The latest {n}.", "The latest {n}.", len(tournaments)) + " " + footer
    return Panel(title, fitted(lines), footer)


# --- seasons --------------------------------------------------------------------------------------


def season_title(season: Season, division: int | None = None) -> str:
    title = tr("Season {season}", season=season.label)
    if division is not None:
        title += DOT + tr("Division {number}", number=division + 1)
    return title


def season_panel(
    season: Season,
    rows: Sequence[LeaderRow],
    page: int,
    pages: int,
    sort: str,
    *,
    division: int | None = None,
    current: bool,
) -> Panel:
    """A page of a season's table: the leaderboard's lines over the season's matches."""
    panel = leaderboard_panel(rows, page, pages, sort)
    dates = tr("{starts} to {ends}", starts=when(season.starts, "D"), ends=when(season.ends, "D"))
    if current:
        dates += DOT + tr("ends {when}", when=when(season.ends))
    body = panel.body
    if not rows:
        body = tr("No finished matches in this season yet.")
    title = f"🏅 {season_title(season, division)}"
    return replace(panel, title=title, body=f"{dates}\n{body}")


def seasons_list(seasons: Sequence[Season]) -> str:
    return "\n".join(
        f"**{s.label}**{DOT}{when(s.starts, 'D')} – {when(s.ends, 'D')}" for s in seasons
    )


def movements_text(movements: Sequence[Movement]) -> str:
    """Who went up and down at a season's end."""
    up = [m for m in movements if m.promoted]
    down = [m for m in movements if m.relegated]
    new = [m for m in movements if m.was is None]
    lines = []
    if up:
        lines.append(tr("⬆️ Promoted: {players}", players=", ".join(_moved(m) for m in up)))
    if down:
        lines.append(tr("⬇️ Relegated: {players}", players=", ".join(_moved(m) for m in down)))
    if new:
        lines.append(tr("🆕 New: {players}", players=", ".join(_moved(m) for m in new)))
    return "\n".join(lines)


def _moved(movement: Movement) -> str:
    return tr(
        "{player} (division {number})",
        player=mention(movement.user_id),
        number=movement.now + 1,
    )
