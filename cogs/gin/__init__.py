"""The Gin Rummy extension: slash commands, buttons and the upkeep of every table's messages."""

from __future__ import annotations

from discord.ext import commands

from bot.tables import Table
from bot.tables.service import HeardOutcome
from cogs.gin.cog import GinCog
from cogs.gin.languages import learn


async def setup(bot: commands.Bot) -> None:
    cog = GinCog(bot)
    await bot.add_cog(cog)

    def changed_elsewhere(table: Table, seat: int | None, made: list[HeardOutcome]) -> None:
        """Another process changed the table: show it, and play the bot's turn if it is
        ours (``sync`` and ``nudge`` do nothing for a table another process shows). The
        moves made here from what was heard leave the players' notes they would have left
        here, and the mover's message edited by the answer to their click stays as it is:
        their turns come on their DM hand again, not on a private reply in the channel."""
        if seat is not None:
            cog.display.acted(table, seat)  # they moved moments ago: they are looking
        if cog.service.shows(table):
            for heard in made:
                if heard.language is not None:  # they clicked elsewhere: write in theirs
                    learn(table.players[heard.outcome.seat].id, heard.language)
                cog.moves.set_notes(heard.outcome)
                if heard.shown_message is not None:  # a move on their DM hand: it is theirs
                    cog.display.moved_by(table, heard.outcome.seat, command=False)
                    cog.display.shown_elsewhere(table, heard.outcome.seat, heard.shown_message)
        cog.display.sync_soon(table)
        cog.opponent.nudge(table)

    cog.service.changed_elsewhere = changed_elsewhere
