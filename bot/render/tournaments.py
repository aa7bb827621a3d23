"""What players see of tournaments: the sign-up, each round's pairings and results, the
standings, what a match's result means, the winner, and a player's tournaments (the season
tables are ``bot.render.seasons``).

People are named by mention (``<@id>``): Discord shows each reader the member's name and an
embed notifies nobody. A block that could outgrow Discord's embed is cut at ``BODY_LIMIT``
with a line saying how much is left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from fractions import Fraction

from bot.gin.settings import Settings
from bot.i18n import N_, number, tr, tr_n, translate
from bot.render.challenges import variant_text
from bot.render.common import Panel, ordinal
from bot.render.records import REASONS
from bot.tournaments import (
    PairingRow,
    StandingLine,
    Standings,
    Tournament,
)
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
    """The standings, one line a player, best first; titled by the last round completed
    and the one under way (``after round 1 of 3 · round 2 under way``)."""
    title = f"🏆 #{tournament.id}{DOT}{standings_title(tournament, standings)}"
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


def standings_title(tournament: Tournament, standings: Standings) -> str:
    if standings.final:
        return tr("Final standings")
    done = completed(tournament)
    if done:
        title = tr(
            "Standings after round {number} of {total}",
            number=done,
            total=standings.rounds_total,
        )
    else:
        title = tr("Standings")
    playing = tournament.round_row(tournament.round)
    if tournament.state == "running" and playing is not None and playing.state == "playing":
        # TRANSLATORS: after the standings' title: "Standings after round 1 of 3 · round 2
        # under way".
        title += DOT + tr("round {number} under way", number=playing.number)
    return title


def completed(tournament: Tournament) -> int:
    """The last round every match of which is decided (0: none yet)."""
    return max((r.number for r in tournament.rounds if r.state == "finished"), default=0)


def standings_moved_panel(tournament: Tournament) -> Panel:
    """The standings message once the tournament is over: the final table is its last
    message, below."""
    title = f"🏆 #{tournament.id}{DOT}{tr('Standings')}"
    return Panel(
        title, tr("The tournament is over: its final standings are in its last message, below.")
    )


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
    lines.append(tr("Thanks for playing. The final standings follow."))
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


def result_meaning_panel(
    tournament: Tournament, pairing: PairingRow, standings: Standings
) -> Panel | None:
    """The last word of a match's thread: what its result means for the tournament (who
    goes through, or each player's place in the standings), and where the tournament goes
    on. None for a pairing decided with no winner."""
    winner = pairing.winner_id
    if winner is None or pairing.player_b is None:
        return None
    loser = pairing.player_b if winner == pairing.player_a else pairing.player_a
    places = {line.user_id: line for line in standings.lines}
    lines = [
        tr(
            "✅ {winner} beat {loser} {scores}.",
            winner=mention(winner),
            loser=mention(loser),
            scores=_scores(pairing, winner),
        )
    ]
    last = pairing.round >= tournament.rounds_total
    if tournament.format is Format.KNOCKOUT:
        if last:
            lines.append(tr("🏆 {winner} wins the tournament!", winner=mention(winner)))
        else:
            lines.append(
                tr(
                    "{winner} goes through to the next round: {round}.",
                    winner=mention(winner),
                    round=round_name(tournament, pairing.round + 1),
                )
            )
        out = places.get(loser)
        if out is not None:
            lines.append(
                tr(
                    "{loser} is out, in {place} place.",
                    loser=mention(loser),
                    place=ordinal(out.place),
                )
            )
    else:
        for player in (winner, loser):
            line = places.get(player)
            if line is None:
                continue
            lines.append(
                tr_n(
                    "{player}: {place} in the standings, {n} point.",
                    "{player}: {place} in the standings, {n} points.",
                    line.points,
                    player=mention(player),
                    place=ordinal(line.place),
                    n=number(line.points),
                )
            )
        if last and standings.final:
            lines.append(tr("That was the last round."))
    lines.append(
        tr(
            "Every result and the standings: <#{channel}>",
            channel=tournament.row.channel_id,
        )
    )
    title = f"🏆 #{tournament.id}{DOT}{round_name(tournament, pairing.round)}"
    return Panel(title, "\n".join(lines))


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
