"""A tournament's changes shown on Discord: each round's matches opened in threads of the
tournament's channel, the pairings and results posted, the standings edited in place, the
tables the tournament decided ended, and the winner announced.

The tournament service decides and answers with an ``Update``; ``Rounds.show`` turns it into
messages, one tournament at a time, in order. Every message and thread id is kept with the
tournament (``TournamentService.keep``), so a restart edits the same messages and finds the
same threads; every post and edit goes through the screens' messenger, so a post a restart
cut short before its id was kept is found, not made again. A match is an ordinary table in
its thread: moves, DMs, buttons, the public table and the turn timers work there as in any
channel. When a table closes (here, or heard
from another process) the tournament service records its result by itself and tells what that
decided (``TournamentUpdated``), which is shown in turn (``updated``). With several
processes, each acts for its own shards' servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Literal

import discord

from bot.gin.match import Player
from bot.i18n import language_for, speaking, tr
from bot.pacing import Dropped
from bot.render.common import Panel
from bot.render.tournaments import (
    cancelled_panel,
    ended_note,
    final_panel,
    match_intro,
    mention,
    result_meaning_panel,
    round_panel,
    signup_panel,
    standings_moved_panel,
    standings_panel,
    thread_name,
)
from bot.tables import Table, TableError, TableService
from bot.tables.events import TableClosed
from bot.tournaments import (
    MatchToStart,
    PairingRow,
    TableToEnd,
    Tournament,
    TournamentService,
    Update,
)
from bot.tournaments.events import TournamentUpdated
from bot.waiting import woken
from cogs.gin.after import After
from cogs.gin.origin import DISCORD
from cogs.gin.people import only
from cogs.gin.screens.messages import Messenger, message_payload
from cogs.gin.screens.refusals import Write
from cogs.gin.screens.state import ScreenIds
from cogs.gin.tournament_ids import (
    Same,
    TournamentIds,
    ids_of,
    keep_end,
    keep_standings,
    nonce_of,
    same_standings,
)
from cogs.gin.views import embed
from cogs.gin.views.tournament import signup_view

log = logging.getLogger(__name__)

IDLE_WAIT = 3600.0  # seconds the deadline runner sleeps when nothing is due (woken on change)
# An idle match thread leaves the channel's list of threads after a day.
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
RESULT_WAIT = 15.0  # seconds a thread's last word waits for the match's result to be posted
RESULT_POLL = 0.2
CLOSED_KEPT = 256  # closed tables kept for their thread's last word, at most


class Rounds:
    """Shows what a tournament decided, and tells it what its matches did."""

    def __init__(
        self,
        client: discord.Client,
        tables: TableService,
        tournaments: TournamentService,
        after: After,
    ) -> None:
        self.client = client
        self.tables = tables
        self.service = tournaments
        self.after = after
        self.screens = after.screens
        self.deadline_changed = asyncio.Event()  # wakes the deadline runner
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._resumed = False
        # Tournaments this process has posted in: its first post in any other looks for one
        # a restart may have cut short before its id was kept.
        self._posted: set[int] = set()
        # Tournaments' tables just closed, by id (see ``closed``).
        self._closed: dict[int, Table] = {}

    @property
    def messenger(self) -> Messenger:
        return self.screens.messenger

    # --- whose tournaments, in which language ------------------------------------------------

    def acts_for(self, guild_id: str) -> bool:
        """Whether this process shows the server's tournaments (all of them, alone)."""
        fleet = self.tables.fleet
        return fleet is None or fleet.shards.covers(int(guild_id) if guild_id.isdigit() else 0)

    async def language(self, guild_id: str) -> str:
        """The language of the server's channel messages."""
        chosen = (await self.tables.server_settings(guild_id)).language
        if chosen:
            return language_for(chosen)
        return self.screens.languages.of_server(guild_id)

    # --- a change, shown ---------------------------------------------------------------------

    async def show(self, update: Update | None, *, called_off_by: str | None = None) -> None:
        """Everything a change asks for on Discord, in order; never raises (what failed is
        logged, and the next change or a restart shows the tournament as it stands)."""
        if update is None:
            return
        if not (update.changed or update.matches_to_start or update.tables_to_end):
            return
        tournament = update.tournament
        lock = self._locks.setdefault(tournament.id, asyncio.Lock())
        try:
            async with lock:
                with speaking(await self.language(tournament.row.guild_id)):
                    await self._show(update, called_off_by)
        except Exception:
            log.exception("could not show a change of tournament %s", tournament.id)
        finally:
            self.deadline_changed.set()

    async def _show(self, update: Update, called_off_by: str | None) -> None:
        tournament_id = update.tournament.id
        if update.started or update.cancelled or update.finished:
            await self.refresh_signup(tournament_id)
        for end in update.tables_to_end:
            await self.end_table(tournament_id, end)
        for number in sorted({p.round for p in update.decided} - {update.round_started or 0}):
            await self.refresh_round(tournament_id, number)
        if update.round_started:
            await self.refresh_round(tournament_id, update.round_started)
        for match in update.matches_to_start:
            await self.start_match(match)
        if update.matches_to_start:
            await self.refresh_round(tournament_id, update.matches_to_start[0].round)
        if update.finished:
            await self.retire_standings(tournament_id)
            await self.announce(tournament_id, None)
        elif update.started or update.decided or update.round_finished:
            await self.refresh_standings(tournament_id)
        for pairing in update.decided:
            if pairing.table_id is not None and pairing.winner_id is not None:
                self.spawn(self.tell_thread(tournament_id, pairing))
        if update.cancelled:
            await self.announce(tournament_id, called_off_by or "")

    # --- the tournament's messages ----------------------------------------------------------

    async def refresh_signup(self, tournament_id: int) -> None:
        """The first message: its players while sign-up is open (with its buttons), then
        what became of the tournament."""
        tournament = await self.service.get(tournament_id)
        message = ids_of(tournament).signup
        if message is None:
            return
        view = signup_view(tournament.id) if tournament.state == "signup" else None
        await self._edit(tournament, message, signup_panel(tournament), view)

    async def refresh_round(self, tournament_id: int, number: int) -> None:
        """A round's pairings and results, posted the first time, then edited in place."""
        tournament = await self.service.get(tournament_id)
        row = tournament.round_row(number)
        deadline = None if row is None or row.deadline is None else _time(row.deadline)
        ids = ids_of(tournament)
        panel = round_panel(tournament, number, ids.threads(), deadline)
        await self._keep_shown(
            tournament,
            ids.round(number),
            panel,
            f"r{number}",
            lambda kept, sent: TournamentIds(kept).set_round(number, sent),
        )

    async def refresh_standings(self, tournament_id: int) -> None:
        """The one standings message, edited in place after every result."""
        tournament = await self.service.get(tournament_id)
        if tournament.round == 0:
            return
        if tournament.state == "finished":  # the final table is the last post, below
            await self.retire_standings(tournament_id)
            return
        standings = await self.service.standings(tournament_id)
        await self._keep_shown(
            tournament,
            ids_of(tournament).standings,
            standings_panel(tournament, standings),
            "s",
            keep_standings,
            same_standings(tournament.id),
        )

    async def announce(self, tournament_id: int, called_off_by: str | None) -> None:
        """The last message of a tournament, once: its winner with the final standings, or
        that it was called off."""
        tournament = await self.service.get(tournament_id)
        if ids_of(tournament).end is not None:
            return
        if called_off_by is None:
            standings = await self.service.standings(tournament_id)
            panels = [final_panel(tournament, standings), standings_panel(tournament, standings)]
        else:
            panels = [cancelled_panel(tournament, called_off_by or None)]
        sent = await self._post(tournament, panels, "end")
        if sent is not None:
            await self.service.keep(tournament_id, lambda kept: keep_end(kept, sent))

    async def retire_standings(self, tournament_id: int) -> None:
        """At the end, the standings message points to the final table, the last message
        (it would read as the final table above the last round's results)."""
        tournament = await self.service.get(tournament_id)
        message = ids_of(tournament).standings
        if message is not None:
            await self._edit(tournament, message, standings_moved_panel(tournament), None)

    async def _keep_shown(
        self,
        tournament: Tournament,
        message: int | None,
        panel: Panel,
        what: str,
        keep: Callable[[dict[str, Any], int], None],
        same: Same | None = None,
    ) -> None:
        """Edit the message showing ``panel`` (``message``), or post it when there is none
        (or it was deleted) and keep its id."""
        if message is not None and await self._edit(tournament, message, panel, None):
            return
        sent = await self._post(tournament, [panel], f"{what}:{message or 0}", same)
        if sent is not None:
            await self.service.keep(tournament.id, lambda kept: keep(kept, sent))

    async def _post(
        self,
        tournament: Tournament,
        panels: Sequence[Panel],
        what: str,
        same: Same | None = None,
    ) -> int | None:
        """Post one of the tournament's messages (``what`` names it: ``standings``, a round,
        ``end``) once: the first post of a tournament since start-up looks first for one
        made before a restart cut its id's saving short (``same``: how it is recognised)."""
        channel_id = int(tournament.row.channel_id)
        ids = ids_of(tournament)
        try:
            sent = await self.messenger.post_once(
                channel_id,
                nonce_of(tournament.id, what),
                message_payload([embed(panel) for panel in panels], None),
                recovering=tournament.id not in self._posted,
                after=max(ids.messages(), default=0),
                since=_time(tournament.row.created_at),
                same=same,
            )
        except (discord.HTTPException, Dropped) as error:
            log.warning("tournament %s: could not post (%s)", tournament.id, error)
            return None
        self._posted.add(tournament.id)
        return sent

    async def _edit(
        self,
        tournament: Tournament,
        message_id: int,
        panel: Panel,
        view: discord.ui.View | None,
    ) -> bool:
        """Edit a message of the tournament's; False when it is gone (deleted)."""
        payload = message_payload([embed(panel)], view)
        try:
            await self.messenger.patch(int(tournament.row.channel_id), message_id, payload)
        except discord.NotFound:
            return False
        except (discord.HTTPException, Dropped) as error:
            log.warning("tournament %s: could not edit %s (%s)", tournament.id, message_id, error)
        return True

    # --- matches ----------------------------------------------------------------------------

    async def start_match(self, match: MatchToStart) -> None:
        """Open a pairing's match in a thread of its own and tell the tournament its table.
        A table already playing it (a start a restart cut short) is taken as it is."""
        tournament = await self.service.get(match.tournament_id)
        pairing = tournament.pairing(match.round, match.board)
        if tournament.state != "running" or pairing is None or pairing.state != "waiting":
            return
        thread_id = ids_of(tournament).thread(match.round, match.board)
        table = None if thread_id is None else self.tables.in_channel(str(thread_id))
        if table is None or {p.id for p in table.players} != set(match.players):
            table = None
            if thread_id is None:
                thread_id = await self._open_thread(tournament, pairing)
                if thread_id is None:
                    return
                opened = thread_id
                await self.service.keep(
                    tournament.id,
                    lambda kept: TournamentIds(kept).set_thread(match.round, match.board, opened),
                )
            table = await self._open_table(tournament, match, int(thread_id))
        if not await self.service.match_started(
            match.tournament_id, match.round, match.board, table.id
        ):
            with contextlib.suppress(TableError):
                await self.tables.end(table, origin=DISCORD)
            self.screens.forget(table)
            return
        await self.after.changed(table)

    async def _open_thread(self, tournament: Tournament, pairing: PairingRow) -> int | None:
        """A public thread for the match; None (and a word in the channel) when Discord
        refuses one, most likely for want of a permission: the round's time limit then
        decides the pairing."""
        name = thread_name(tournament, pairing, tournament.names)
        try:
            parent = self.client.get_channel(int(tournament.row.channel_id))
            if parent is None:
                parent = await self.client.fetch_channel(int(tournament.row.channel_id))
            if not isinstance(parent, discord.TextChannel):
                raise TypeError(f"channel {tournament.row.channel_id} takes no threads")
            with self.messenger.refusals.asking(parent.id, Write.THREAD):
                thread = await parent.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                    reason=f"tournament #{tournament.id}",
                )
        except (discord.HTTPException, TypeError) as error:
            log.warning("tournament %s: no thread for %s (%s)", tournament.id, name, error)
            text = tr(
                "⚠️ I couldn't open a thread for {a} vs {b}: I need the **Create Public "
                "Threads** permission in this channel. Until I have it, the round's time "
                "limit decides their match.",
                a=mention(pairing.player_a),
                b=mention(pairing.player_b or ""),
            )
            await self._say(int(tournament.row.channel_id), text)
            return None
        return thread.id

    async def _open_table(self, tournament: Tournament, match: MatchToStart, thread: int) -> Table:
        """The match's table in its thread, started at once, and the thread's first word."""
        names = tournament.names
        players = (
            Player(match.players[0], names.get(match.players[0], match.players[0])),
            Player(match.players[1], names.get(match.players[1], match.players[1])),
        )
        server = await self.tables.server_settings(tournament.row.guild_id)
        server = replace(server, rules=match.rules)
        table = await self.tables.opening.open_match(
            tournament.row.guild_id,
            str(thread),
            players,
            server,
            seed=match.seed,
            tournament=tournament.id,
            origin=DISCORD,
        )
        pairing = tournament.pairing(match.round, match.board)
        assert pairing is not None
        intro = match_intro(tournament, pairing, match.deadline)
        if not await self._say(thread, intro, match.players):
            # The thread is there but the bot may not speak in it: the players still have
            # their hands by DM; the channel hears what the bot lacks.
            text = tr(
                "⚠️ I can't post in the thread of {a} vs {b}: I need the **Send Messages in "
                "Threads** permission in this channel. Their hands still come by DM, where "
                "they can play their match.",
                a=mention(pairing.player_a),
                b=mention(pairing.player_b or ""),
            )
            await self._say(int(tournament.row.channel_id), text)
        return table

    async def _say(self, channel_id: int, text: str, notify: tuple[str, ...] = ()) -> bool:
        """A line in a channel or thread; False when Discord refused it (or refused this
        channel before, for want of a permission)."""
        try:
            await self.messenger.say(channel_id, text, only(*notify))
        except (discord.HTTPException, Dropped) as error:
            log.info("could not say in %s (%s)", channel_id, error)
            return False
        return True

    async def end_table(self, tournament_id: int, end: TableToEnd) -> None:
        """A table whose pairing the tournament decided without it: said in its thread, then
        the loser resigns (the time limit, a walkover), or it closes with no result (the
        tournament was called off)."""
        table = await self.tables.find(end.table_id)
        if table is None or not table.is_open:
            return
        tournament = await self.service.get(tournament_id)
        pairing = next((p for p in tournament.pairings if p.table_id == end.table_id), None)
        scores = "0–0"
        if pairing is not None and pairing.winner_id is not None:
            a, b = pairing.score_a or 0, pairing.score_b or 0
            first, second = (a, b) if pairing.winner_id == pairing.player_a else (b, a)
            scores = f"{first}–{second}"
        note = ended_note(end.reason, end.winner_id, end.loser_id, scores)
        await self._say(int(table.channel_id), note)
        try:
            if end.loser_id is None or end.reason == "cancelled":
                await self.tables.end(table, origin=DISCORD)
                await self.screens.close(table, lambda: note)
                return
            await self.tables.resign(table, end.loser_id, origin=DISCORD)
        except TableError as error:
            log.info("tournament %s: table %s not ended (%s)", tournament_id, table.id, error)
            return
        await self.after.changed(table)

    async def tell_thread(self, tournament_id: int, pairing: PairingRow) -> None:
        """A match's thread ends saying what its result means for the tournament, after the
        result itself (posted by the table's screens)."""
        assert pairing.table_id is not None
        table = self._closed.pop(pairing.table_id, None)
        if table is not None and self.tables.shows(table):
            await self._result_shown(table)
        try:
            tournament = await self.service.get(tournament_id)
            thread = ids_of(tournament).thread(pairing.round, pairing.board)
            if thread is None:
                return
            with speaking(await self.language(tournament.row.guild_id)):
                panel = result_meaning_panel(
                    tournament, pairing, await self.service.standings(tournament_id)
                )
            if panel is None:
                return
            await self.messenger.post_once(
                thread,
                nonce_of(tournament_id, f"meaning:{pairing.round}:{pairing.board}"),
                message_payload([embed(panel)], None),
                recovering=False,
            )
        except (discord.HTTPException, Dropped) as error:
            log.info("tournament %s: the end of a thread not said (%s)", tournament_id, error)

    async def _result_shown(self, table: Table) -> None:
        """Until the table's screens have posted its result (``RESULT_WAIT`` at most: a
        Discord that fails does not hold the tournament's word back for long)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + RESULT_WAIT
        while not ScreenIds(table.screen_ids).final_posted and loop.time() < until:
            await asyncio.sleep(RESULT_POLL)

    # --- what the tables tell the tournament ----------------------------------------------------

    def closed(self, event: TableClosed) -> None:
        """A tournament's table closed: kept until its thread has been told what its result
        means (its screens say when its result is shown)."""
        if event.table.meta.tournament is None:
            return
        self._closed[event.table.id] = event.table
        while len(self._closed) > CLOSED_KEPT:
            self._closed.pop(next(iter(self._closed)))

    async def updated(self, event: TournamentUpdated) -> None:
        """The tournament service recorded a match's result by itself (it heard the table
        finish): show what that decided."""
        if self.acts_for(event.update.tournament.row.guild_id):
            await self.show(event.update)

    def spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def resume(self) -> None:
        """At start-up, once: every open tournament of ours carries on where it is stored
        (results heard late recorded, matches still to open opened, tables still to end
        ended), and its messages show it as it stands."""
        if self._resumed:
            return
        self._resumed = True
        for tournament in await self.service.open_tournaments():
            if not self.acts_for(tournament.row.guild_id):
                continue
            try:
                update = await self.service.resume(tournament.id)
            except Exception:
                log.exception("could not resume tournament %s", tournament.id)
                continue
            await self.show(update)
            await self._mark_tables(update.tournament if update else tournament)
            with speaking(await self.language(tournament.row.guild_id)):
                await self.refresh_signup(tournament.id)
                if tournament.round:
                    await self.refresh_round(tournament.id, tournament.round)
                    await self.refresh_standings(tournament.id)

    async def _mark_tables(self, tournament: Tournament) -> None:
        """The tables playing the tournament's matches say whose they are (a table opened
        by an older version did not), so each ends as a tournament's match."""
        for pairing in tournament.pairings:
            table = None if pairing.table_id is None else self.tables.by_id(pairing.table_id)
            if table is not None and table.is_open and table.meta.tournament is None:
                table.meta.tournament = tournament.id
                await self.tables.save_display(table)

    async def drain(self, timeout: float = 5.0) -> None:
        """Let the results being recorded finish (at shutdown)."""
        pending = [t for t in self._tasks if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)


class DeadlineRunner:
    """One task that sleeps until the next tournament deadline (sign-up closing, a round's
    time running out), claims it, fires it and shows what it did."""

    def __init__(self, rounds: Rounds) -> None:
        self.rounds = rounds
        self.service = rounds.service
        fleet = rounds.tables.fleet
        self.claimant = fleet.name if fleet is not None else f"{socket.gethostname()}:{os.getpid()}"
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="gin-tournament-deadlines")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        wake = self.rounds.deadline_changed
        while True:
            wake.clear()
            try:
                await self.fire_due()
                upcoming = await self.service.next_deadline()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the tournament deadlines failed; trying again in a minute")
                upcoming = None
                wait = 60.0
            else:
                wait = IDLE_WAIT
            if upcoming is not None:
                left = (upcoming - self.service.clock()).total_seconds()
                wait = max(0.0, min(IDLE_WAIT, left))
            await woken(wake, wait)

    async def fire_due(self) -> None:
        for tournament_id in await self.service.claim_due(self.claimant, self.rounds.acts_for):
            update = await self.service.fire_deadline(tournament_id)
            await self.rounds.show(update)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


__all__ = ["DeadlineRunner", "Rounds"]
