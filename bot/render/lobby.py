"""A lobby filling its seats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.gin.modes import find_mode
from bot.i18n import N_, tr, translate
from bot.render.common import Panel
from bot.server_settings import ServerSettings, duration

# The modes by name, as a lobby names them (translate where shown: ``translate(MODE_LABELS[m])``).
MODE_LABELS = {
    # TRANSLATORS: a mode, in "A table is open for **two players**, to 100."
    "classic": N_("two players"),
    # TRANSLATORS: a mode, in "A table is open for **three players**, to 100."
    "three": N_("three players"),
    # TRANSLATORS: a mode, in "A table is open for **two teams of two**, to 125."
    "teams": N_("two teams of two"),
    # TRANSLATORS: a mode, in "A table is open for **elimination**, until one player is left."
    "elimination": N_("elimination"),
}


# The bots' levels, as a lobby's seat names them.
BOT_LEVELS: Mapping[str, str] = {
    # TRANSLATORS: how well the bot plays, in "Gin Bot (bot, easy)".
    "easy": N_("easy"),
    # TRANSLATORS: how well the bot plays, in "Gin Bot (bot, normal)".
    "normal": N_("normal"),
    # TRANSLATORS: how well the bot plays, in "Gin Bot (bot, hard)".
    "hard": N_("hard"),
    # TRANSLATORS: how well the bot plays, in "Gin Bot (bot, expert)".
    "expert": N_("expert"),
}


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """One seat of a lobby as the lobby message shows it."""

    name: str
    team: int | None = None
    bot_level: str | None = None
    host: bool = False


def lobby_panel(
    mode: str,
    size: int,
    seats: Sequence[LobbySeat],
    server: ServerSettings,
    *,
    mention: str = "",
    state: str = "open",
) -> Panel:
    """The public lobby: the seats taken and free, and how to join, leave and start."""
    chosen = find_mode(mode)
    target = chosen.target(server.rules)
    lines = [_lobby_opening(mode, target, mention)]
    # A table that started or closed has the seats it has: none is free any more.
    shown = size if state == "open" else len(seats)
    for index in range(shown):
        if index < len(seats):
            lines.append(f"{index + 1}. {_lobby_seat(seats[index])}")
        else:
            # TRANSLATORS: a lobby's seat nobody has taken yet.
            lines.append(tr("{number}. *free*", number=index + 1))
    if state == "open":
        if chosen.host_starts_early:
            how = tr(
                "The host presses **Start** (at least 2 players); a full table starts by itself."
            )
        else:
            how = tr("The match starts by itself when every seat is taken.")
        join = tr("Press **Join** (or `/gin join`) to take a seat, **Leave** to give it up.")
        closes = tr(
            "The table closes if it isn't started within {duration}.",
            duration=duration(server.challenge_seconds),
        )
        lines.append(f"{join} {how} {closes}")
        if chosen.team_play:
            lines.append(tr("Pick a side with **Join team 1/2**, or leave the sides to the cut."))
    if state == "started":
        title = tr("Gin Rummy table · started")
    elif state == "closed":
        title = tr("Gin Rummy table · closed")
    else:
        title = tr("Gin Rummy table")
    return Panel(title, "\n".join(lines))


def _lobby_opening(mode: str, target: int, mention: str) -> str:
    """A lobby's first line: whose table it is, the mode and how far it plays."""
    label = translate(MODE_LABELS[mode])
    has_target = find_mode(mode).has_target
    if mention and not has_target:
        # TRANSLATORS: {host} is the host's mention (their table); {mode} is "elimination".
        return tr(
            "{host} is open for **{mode}**, until one player is left.", host=mention, mode=label
        )
    if mention:
        # TRANSLATORS: {host} is the host's mention (their table); {mode} is "two teams of two"…
        return tr(
            "{host} is open for **{mode}**, to {target}.", host=mention, mode=label, target=target
        )
    if not has_target:
        return tr("A table is open for **{mode}**, until one player is left.", mode=label)
    return tr("A table is open for **{mode}**, to {target}.", mode=label, target=target)


def _lobby_seat(seat: LobbySeat) -> str:
    """A taken seat: who sits there, a bot's level, their team, the host."""
    if seat.bot_level:
        level = BOT_LEVELS.get(seat.bot_level)
        shown = seat.bot_level if level is None else translate(level)
        # TRANSLATORS: a seat taken by the bot, and how well it plays ("easy").
        parts = [tr("{name} (bot, {level})", name=seat.name, level=shown)]
    else:
        parts = [seat.name]
    if seat.team is not None:
        parts.append(tr("team {number}", number=seat.team + 1))
    if seat.host:
        # TRANSLATORS: marks the seat of the player who opened the table.
        parts.append(tr("host"))
    return " · ".join(parts)
