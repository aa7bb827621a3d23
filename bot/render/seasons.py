"""What players see of seasons: a season's table (a division of it), the list of a server's
seasons, and who went up and down a division at a season's end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.i18n import tr
from bot.render.common import Panel
from bot.render.records import leaderboard_panel
from bot.render.tournaments import DOT, mention, when
from bot.tables.records import LeaderRow
from bot.tournaments import Season
from bot.tournaments.divisions import Movement


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
