"""What players see of the tournaments played: a player's tournaments (under their history,
and their record), and a server's list of tournaments."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.i18n import tr, tr_n, translate
from bot.render.common import Panel, ordinal
from bot.render.tournaments import DOT, FORMATS, fitted, mention, when
from bot.tournaments import Tournament, TournamentEntry
from bot.tournaments.settings import Format


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
