"""The Gin Rummy extension: slash commands, buttons and the upkeep of every table's messages.

How a move travels, for the next person to find their room: a button on a DM hand
(``views.CardSelect.callback``: parse the custom id, one error funnel) or a slash command
(``cog.GinCog.discard``) calls ``moves.Moves``, which asks the table service to play
(``bot.tables``: engine, then store), answers the interaction with the mover's own screen
(``screens.Screens.mover_reply``, ``answering``, ``answered``), then hands the table to
``after.After.changed``: the players' notes, ``screens.Screens.sync`` (the players' lane,
the player to act first as ``screens.handoff`` decides, then the channel's lane) and the
bot's turn (``opponent.BotOpponent``). The bot's own moves, timers and moves heard from
other processes take the same ``After`` path. Each module imports only those below it:

    cog > options, moves, challenges, lobby, moderation, records, settings, timers > after
    > opponent > screens (channel > private > replies > handoff > state > messages > refusals,
    ledger) > views > errors > languages, people. ``permissions`` hears the gateway's channel and
    role updates, which let a channel that refused a write be asked again.

Tournaments and seasons are a cog of their own (/gin tournament is a group it adds to /gin;
/gin-season could not fit in /gin and is a command of its own):

    tournament_cog > tournament_commands > tournaments, seasons > rounds > after (and below)
"""

from __future__ import annotations

from typing import Any, cast

from discord.ext import commands

from bot.tables import TableService
from bot.tables.events import ChangedElsewhere, DeadlineMoved, TableClosed, TableEvent
from bot.tournaments import TournamentService
from bot.tournaments.events import TournamentUpdated
from cogs.gin.after import After
from cogs.gin.cog import GinCog
from cogs.gin.launch import add_launch
from cogs.gin.permissions import Permissions
from cogs.gin.screens import Screens
from cogs.gin.tournament_cog import TournamentCog


async def setup(bot: commands.Bot) -> None:
    app = cast(Any, bot)
    service: TableService = app.service
    screens = Screens(bot, service, app.artist, app.coach)
    after = After(service, screens, app.closing, app.config.bot_delay)
    tournaments: TournamentService = app.tournaments
    cog = GinCog(bot, service, after, tournaments, coach=app.coach)
    events = TournamentCog(bot, service, tournaments, after)
    cog.gin.add_command(events.commands)  # /gin tournament
    if app.config.web is not None:  # the Activity: Play at the table, /gin play
        add_launch(bot, cog.gin, screens.channel)
    await bot.add_cog(cog)
    await bot.add_cog(events)
    await bot.add_cog(Permissions(bot, screens.messenger.refusals))
    hub = service.events
    cog.subscriptions.extend(  # undone when the cog is unloaded
        [
            hub.subscribe(ChangedElsewhere, after.heard),  # other processes' changes
            hub.subscribe(TableEvent, after.news),  # other front ends' changes
            hub.subscribe(TableEvent, cog.challenges.heard),  # their challenges too
            hub.subscribe(DeadlineMoved, cog.timers.woken),
            hub.subscribe(TableClosed, events.rounds.closed),  # for its thread's last word
            tournaments.events.subscribe(TournamentUpdated, events.rounds.updated),
            # Someone opened or closed the table in the Activity: their Discord screens
            # take up, or leave, the turns (``handoff``: nothing is pushed to the table).
            service.presence.listen(lambda table_id, _: _resync(service, screens, table_id)),
        ]
    )


def _resync(service: TableService, screens: Screens, table_id: int) -> None:
    table = service.by_id(table_id)
    if table is not None and table.is_open and table.match is not None:
        screens.sync_soon(table)
