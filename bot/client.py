"""The Discord client: opens the store, loads open tables and the cogs, syncs commands."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Awaitable
from typing import Any, cast

import discord
from discord.backoff import ExponentialBackoff
from discord.ext import commands

from bot.art.artist import ARTIST
from bot.art.cards import CardImages
from bot.coaching import Coach
from bot.commands_translator import CatalogueTranslator
from bot.config import Config
from bot.emojis import CardEmojis
from bot.pacing import Budget, install
from bot.store import store_for
from bot.store.postgres import PostgresStore
from bot.store.tournament_base import TournamentStore
from bot.tables import TableService
from bot.tables.events import TableClosed
from bot.tables.fleet import Fleet
from bot.tables.thinker import THINKER
from bot.tournaments import TournamentService

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.gin",)
STEADY_SECONDS = 60.0  # a connection that lasted this long resets the reconnect backoff
# At shutdown, how long the moves being committed and the results being recorded may take: a
# commit takes milliseconds, so past this something is stuck, and it is logged, not waited for.
SETTLE_SECONDS = 15.0
# Failures no reconnect can mend: a bad token, a refused intent, the session closed for good.
FATAL_GATEWAY_ERRORS = (
    discord.LoginFailure,
    discord.PrivilegedIntentsRequired,
    discord.ConnectionClosed,
)


def intents() -> discord.Intents:
    """Only the guilds intent: slash commands and buttons need no privileged intent."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen


def settle_garbage_collector() -> None:
    """Move what start-up built (modules, discord.py's state, loaded tables) out of the
    collector's reach, so its full passes during play scan only what play creates: a few
    milliseconds instead of tens, which would otherwise stall every table at once."""
    gc.collect()
    gc.freeze()


def shard_options(config: Config) -> dict[str, Any]:
    """discord.py's shard settings for GIN_SHARD_COUNT and GIN_SHARD_IDS (none if unset)."""
    if config.shards is None:
        return {}
    return {"shard_count": config.shards.count, "shard_ids": list(config.shards.ids)}


def connect_services(tables: TableService, tournaments: TournamentService) -> None:
    """The domain's own subscriptions: a finished match of a tournament records its result,
    in the process that owns the table's server (any process may hear it close)."""

    def record_result(event: TableClosed) -> Awaitable[None] | None:
        if not tables.shows(event.table):
            return None
        return tournaments.table_closed(event)

    tables.events.subscribe(TableClosed, record_result)


def fleet_of(config: Config) -> Fleet | None:
    """This process's place among those sharing the database, if others run shards too."""
    if config.shards is None or not config.fleet:
        return None
    return Fleet(config.shards)


class GinBot(commands.Bot):
    """The bot: owns the table service and the store for the life of the process."""

    def __init__(self, config: Config) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            # Nobody is notified unless a message names exactly whom it may notify.
            allowed_mentions=discord.AllowedMentions.none(),
            # Tables keep what they need themselves: no message, member or chunk caches.
            max_messages=None,
            member_cache_flags=discord.MemberCacheFlags.none(),
            chunk_guilds_at_startup=False,
            **shard_options(config),
        )
        self.config = config
        self.store = store_for(config.database)
        THINKER.resize(config.expert_workers)
        self.service = TableService(self.store, fleet=fleet_of(config), thinker=THINKER)
        # Both stores implement the tournaments' interface too (checked in tournament_base).
        self.tournaments = TournamentService(
            cast(TournamentStore, self.store), events=self.service.events
        )
        connect_services(self.service, self.tournaments)
        if self.service.fleet is None and isinstance(self.store, PostgresStore):
            self.store.news.announce = False  # alone on its database: nobody listens
        self.closing = asyncio.Event()
        self.web: Any = None  # the Activity's web server (bot.web), when GIN_WEB_PORT is set
        self._shutdown_task: asyncio.Task[None] | None = None
        self.card_emojis = CardEmojis()
        # The showdown pictures' worker and the coach (who thinks in the expert's workers),
        # handed to the Discord layer as the thinker is to the table service.
        self.artist = ARTIST
        self.coach = Coach(THINKER)
        # Every REST call but interaction answers waits its turn in one budget.
        self.rest_budget = Budget(config.rest_share)
        install(self, self.rest_budget)

    async def setup_hook(self) -> None:
        await self.store.open()
        if self.service.fleet is not None:
            await self.service.watch()  # before loading: no change falls between the two
            log.info("running %s; the other shards run elsewhere", self.service.fleet.shards)
        tables = await self.service.load()
        log.info("loaded %d open table(s) from %s", len(tables), self.config.database_shown)
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()
        if self.config.card_emojis:  # in the background: play never waits for emojis
            self.card_emojis.start_sync(self, CardImages())
        if self.config.web is not None:  # imported only when the Activity is configured
            from bot.web import web_server

            self.web = web_server(self)
            await self.web.start()
        self.artist.start()  # the showdown pictures' worker, warming up in the background
        THINKER.start()  # the expert opponent's workers, likewise
        settle_garbage_collector()

    async def sync_commands(self) -> None:
        if self.config.dev_guild is not None:
            guild = discord.Object(id=self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to server %s", len(synced), self.config.dev_guild)
        elif self.config.web is not None and self.application_id is not None:
            # With the Activity, Discord keeps an Entry Point command that a sync must keep.
            from cogs.gin.launch import sync_with_entry_point

            count = await sync_with_entry_point(self.tree, self.application_id)
            log.info("synced %d global command(s), the Activity's Entry Point among them", count)
        else:
            from cogs.gin.launch import sync_keeping_entry_point

            count = await sync_keeping_entry_point(self.tree, self.application_id or 0)
            log.info("synced %d global command(s)", count)

    async def connect(self, *, reconnect: bool = True) -> None:
        """Stay connected whatever the gateway sends: discord.py reconnects after the failures
        it knows, and lets anything else (a frame it cannot parse, say) end the client. Such
        an error ends this connection only; a new one is made after a pause that grows."""
        backoff = ExponentialBackoff()
        while not self.is_closed():
            started = time.monotonic()
            try:
                await super().connect(reconnect=reconnect)
                return
            except FATAL_GATEWAY_ERRORS:
                raise
            except Exception:
                if self.is_closed() or not reconnect:
                    raise
                if time.monotonic() - started > STEADY_SECONDS:
                    backoff = ExponentialBackoff()  # it had been working: start small again
                delay = backoff.delay()
                log.exception("the gateway connection failed; connecting again in %.1f s", delay)
                with contextlib.suppress(Exception):
                    if self.ws is not None:
                        await self.ws.close(code=4000)
                await asyncio.sleep(delay)

    async def close(self) -> None:
        """Stop taking moves, let those in flight finish, then close Discord and the database.

        Safe to call more than once and from a signal handler: every caller waits for the
        same shutdown to complete.
        """
        if self._shutdown_task is None:
            self._shutdown_task = asyncio.ensure_future(self._shutdown())
        await asyncio.shield(self._shutdown_task)

    async def _shutdown(self) -> None:
        self.closing.set()
        self.card_emojis.stop()
        log.info("shutting down: finishing moves in flight")
        for cog in self.cogs.values():
            drain = getattr(cog, "drain", None)
            if drain is not None:
                await drain()
        if self.web is not None:  # no new move from the Activity; its sockets close
            await self.web.stop()
        try:
            await asyncio.wait_for(self._settle(), SETTLE_SECONDS)
        except TimeoutError:
            log.warning("still busy %.0f s into the shutdown: %s", SETTLE_SECONDS, busy_tasks())
        await super().close()
        await self.store.close()
        log.info("database closed; goodbye")

    async def _settle(self) -> None:
        """Wait for the moves being committed and the results being recorded."""
        for table in self.service.tables():
            async with table.lock:
                pass  # a held lock means a move is being committed; wait for it
        await self.service.events.drain()  # results being recorded, news being shown


def busy_tasks(depth: int = 3, separator: str = "; ") -> str:
    """The tasks still running, each with where it waits (``depth`` frames): for the log of a
    stuck shutdown, as a thread dump shows none of asyncio's tasks."""
    current = asyncio.current_task()
    lines = []
    for task in asyncio.all_tasks():
        if task is current or task.done():
            continue
        frames = task.get_stack(limit=depth)
        where = " < ".join(f"{f.f_code.co_name}:{f.f_lineno}" for f in frames)
        lines.append(f"{task.get_name()} at {where}")
    return separator.join(sorted(lines)) or "no task"


class ShardedGinBot(GinBot, commands.AutoShardedBot):
    """The bot on some or all shards of the whole bot (GIN_SHARD_COUNT, GIN_SHARD_IDS)."""


def make_bot(config: Config) -> GinBot:
    """The bot for these settings: sharded when shards are configured, else as before."""
    return GinBot(config) if config.shards is None else ShardedGinBot(config)
