"""What follows every change of a table, whoever made it: the players' notes, the screens,
and the bot's turn. One path for every flow (a move, a resignation, an accept, a lobby that
started, a timer, the bot's own move, another process's move), so none of them can forget a
part of it; and the gate shutdown closes, so no new work starts while the last is finishing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import discord

from bot.gin import Card
from bot.gin.hand import ActionKind
from bot.i18n import tr
from bot.render.common import Face
from bot.tables import MoveOutcome, Table, TableError, TableService
from bot.tables.events import (
    ELSEWHERE,
    ChangedElsewhere,
    DeadlineMoved,
    MoveMade,
    TableEvent,
)
from cogs.gin.errors import COMMITTED
from cogs.gin.languages import learn
from cogs.gin.opponent import BotOpponent
from cogs.gin.origin import DISCORD
from cogs.gin.screens import Screens

log = logging.getLogger(__name__)


def done_text(outcome: MoveOutcome, face: Face = str) -> str:
    """What the mover did, in their own words (their private hand's note), in the language
    in force; its card drawn by ``face``, as the hand around it draws cards."""
    action = outcome.action

    def card(shown: Card | None) -> str:
        return "" if shown is None else face(shown)

    match action.kind:
        case ActionKind.PASS:
            return tr("You passed on the upcard.")
        case ActionKind.DRAW_STOCK:
            return tr("You drew {card} from the stock.", card=card(outcome.drawn))
        case ActionKind.DRAW_DISCARD:
            return tr("You took {card} from the discard pile.", card=card(outcome.drawn))
        case ActionKind.DISCARD:
            return tr("You discarded {card}.", card=card(action.card))
        case ActionKind.KNOCK:
            return tr("You knocked, discarding {card} face down.", card=card(action.card))
        case ActionKind.BIG_GIN:
            return tr("You declared Big Gin!")
    raise KeyError(action.kind)


class Flow:
    """One change a person asked for through Discord, from the gate to what shows it: the
    flow says when the change stands (``committed``), and what then follows it."""

    def __init__(self, interaction: discord.Interaction[Any], after: After) -> None:
        self.interaction = interaction
        self.after = after
        self.then: Callable[[], Awaitable[None]] | None = None

    def committed(
        self,
        said: str,
        table: Table | None = None,
        *,
        then: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """The change stands. ``said``: what the player reads if their answer then fails (in
        the language in force); the table is shown after the answer, whatever becomes of it
        (``After.changed``, or ``then`` where something else shows the change)."""
        self.interaction.extras[COMMITTED] = said
        if then is not None:
            self.then = then
        elif table is not None:
            self.then = partial(self.after.changed, table)


class After:
    """Notes, screens and the bot's turn after a change; the shutdown gate."""

    def __init__(
        self, service: TableService, screens: Screens, closing: asyncio.Event, delay: float
    ) -> None:
        self.service = service
        self.screens = screens
        self.closing = closing
        self.opponent = BotOpponent(service, self, delay)
        self._in_flight: set[asyncio.Task[Any]] = set()

    def note(self, outcome: MoveOutcome) -> None:
        """What each player's private hand says happened last; the mover is looking."""
        table = outcome.table
        match = table.match
        assert match is not None
        action = outcome.action
        screens = self.screens
        screens.acted(table, outcome.seat)
        # Each note is said when its reader's hand is rendered, in that reader's language.
        if action.kind is not ActionKind.LEAVE:
            # The note's card as the hand draws cards (emojis, once they are there).
            screens.set_note(table, outcome.seat, lambda: done_text(outcome, screens.faces.card))
        if outcome.finished_hand is not None:
            for seat in outcome.finished_hand.seats:
                screens.set_note(table, seat, None)
            return
        board = match.board_of(outcome.seat) if action.kind is not ActionKind.LEAVE else None
        if board is None:
            board = match.boards[outcome.board] if outcome.board < len(match.boards) else None
        if board is None or board.is_over:
            return
        # The player to act sees the others' whole turns on their hand (the render retells
        # them), so their own last note has had its day. A waiting player hears of a move
        # when their turn comes: an edit of their hand for each move would spend the REST
        # budget on a message they are not using.
        if board.turn != outcome.seat:
            screens.set_note(table, board.turn, None)

    async def changed(self, table: Table, outcome: MoveOutcome | None = None) -> None:
        """The table changed (by ``outcome``, if a move): show it, then let the bot play."""
        if outcome is not None:
            self.note(outcome)
        await self.screens.sync(table)
        self.opponent.nudge(table)

    def news(self, event: TableEvent) -> Awaitable[None] | None:
        """A change asked for through another front end (a web page, say): shown as if made
        here. This layer's own changes it follows itself, and other processes' come with a
        ``ChangedElsewhere`` (``heard``): for those, nothing (and no task) at all."""
        if event.origin in (DISCORD, ELSEWHERE) or isinstance(event, DeadlineMoved):
            return None
        if self.closing.is_set():
            return None  # shutting down: a restart shows every table as it is stored
        outcome = event.outcome if isinstance(event, MoveMade) else None
        return self.changed(event.table, outcome)

    def heard(self, event: ChangedElsewhere) -> None:
        """Another process changed the table: show it, and play the bot's turn if it is ours
        (the sync and the bot do nothing for a table another process shows). The moves made
        here from what was heard leave the notes they would have left here, and the mover's
        message edited by the answer to their click stays as it is: their turns come on
        their DM hand again, not on a private reply in the channel."""
        table, seat, made = event.table, event.seat, event.made
        if seat is not None:
            self.screens.acted(table, seat)  # they moved moments ago: they are looking
        if self.service.shows(table):
            for heard in made:
                if heard.language is not None:  # they clicked elsewhere: write in theirs
                    learn(table.players[heard.outcome.seat].id, heard.language)
                self.note(heard.outcome)
                self.screens.heard(table, heard.outcome.seat, heard.shown_message)
        self.screens.sync_soon(table)
        self.opponent.nudge(table)

    @asynccontextmanager
    async def flow(self, interaction: discord.Interaction[Any]) -> AsyncIterator[Flow]:
        """The one way a change asked for through Discord runs: through the shutdown gate
        (``activity``), and once committed (``Flow.committed``) followed by what shows it,
        after the answer, even when answering failed."""
        async with self.activity():
            flow = Flow(interaction, self)
            try:
                yield flow
            finally:
                if flow.then is not None:
                    await flow.then()

    @asynccontextmanager
    async def activity(self) -> AsyncIterator[None]:
        """Marks work that shutdown must let finish; refuses new work once shutdown began."""
        if self.closing.is_set():
            raise TableError("I'm restarting; try again in a few seconds. Nothing was changed.")
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def drain(self, timeout: float = 10.0) -> None:
        """Stop the bot's play and the delayed edits, then wait for the moves being answered
        and shown to finish (at shutdown)."""
        await self.opponent.stop()
        await self.screens.stop()
        current = asyncio.current_task()
        pending = {t for t in self._in_flight if t is not current and not t.done()}
        if pending:
            _, late = await asyncio.wait(pending, timeout=timeout)
            for task in late:
                log.warning("still busy at shutdown: %s", task.get_stack(limit=8))
