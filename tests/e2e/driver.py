"""Plays Gin Rummy through the fake Discord the way people do: slash commands and DM buttons."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.client import GinBot
from bot.gin.hand import Action, ActionKind
from bot.tables import Table
from tests.e2e.conftest import World, screens_of
from tests.fakediscord import FakeDiscord, InteractionResult, Message, User
from tests.gin.players import choose

BUTTONS = {
    ActionKind.DRAW_DISCARD: "take",
    ActionKind.PASS: "pass",
    ActionKind.DRAW_STOCK: "stock",
    ActionKind.BIG_GIN: "biggin",
}
SELECTS = {ActionKind.DISCARD: "discard", ActionKind.KNOCK: "knock"}


async def play_card(
    fake: FakeDiscord, user: User, message: Message, table_id: int, token: int, action: Action
) -> InteractionResult:
    """A discard or knock from a hand message: the best knock has a button of its own, the
    rest are menu options."""
    assert action.card is not None
    knock = f"gin:mv:{table_id}:{token}:knock{int(action.card)}"
    if action.kind is ActionKind.KNOCK and knock in message.custom_ids():
        return await fake.click(user, message, knock)
    custom_id = f"gin:sel:{table_id}:{token}:{SELECTS[action.kind]}"
    return await fake.select(user, message, custom_id, [str(int(action.card))])


class Game:
    """One table in one channel, seen from the test: who sits where, and how to move."""

    def __init__(self, world: World, bot: GinBot, channel: Any = None) -> None:
        self.world = world
        self.fake = world.fake
        self.bot = bot
        self.channel = channel or world.channel
        self.table: Table | None = None
        self.users: dict[str, User] = {}

    async def start(self, challenger: User, opponent: User, **options: Any) -> Table:
        """Challenge, accept with the button, and wait for the first hand's messages."""
        result = await self.fake.slash(
            challenger, self.channel, "gin challenge", opponent=opponent, **options
        )
        assert not result.ephemeral, result.text
        table = self.bot.service.in_channel(str(self.channel.id))
        assert table is not None
        await self.fake.click(opponent, result.message, f"gin:ch:{table.id}:accept")
        self.table = table
        self.users = {str(challenger.id): challenger, str(opponent.id): opponent}

        def dealt() -> bool:
            shown = table.display
            hands = shown.get("hands", {})
            closed = shown.get("dm_closed", {})
            return "public" in shown and all(
                str(seat) in hands or str(seat) in closed
                for seat in (0, 1)
                if seat != table.bot_seat
            )

        await self.fake.wait_for(dealt, what="the public table and both private hands")
        return table

    async def practice(self, player: User, level: str) -> Table:
        """Start a match against the bot itself with `/gin practice`."""
        result = await self.fake.slash(player, self.channel, "gin practice", level=level)
        assert not result.ephemeral and "⚠️" not in result.text, result.text
        table = self.bot.service.in_channel(str(self.channel.id))
        assert table is not None and table.vs_bot
        self.table = table
        self.users = {str(player.id): player}
        await self.fake.wait_for(
            lambda: "public" in table.display and "0" in table.display.get("hands", {}),
            what="the public table and the private hand",
        )
        return table

    async def play_against_bot(self, via: str = "command", seed: int = 1, limit: int = 3000) -> int:
        """Play the human's moves until the match ends; the bot plays its own."""
        assert self.table is not None
        table = self.table
        rng = random.Random(seed)
        moves = 0
        while not self.match.is_over:
            # The bot's move is visible in memory a moment before it is committed and
            # counted; wait for the commit, as a player waits for their buttons.
            await self.fake.wait_for(
                lambda: (
                    self.match.is_over or (self.match.hand.turn == 0 and not table.lock.locked())
                ),
                timeout=20,
                what="the bot to finish its turn",
            )
            if self.match.is_over:
                break
            action = choose(self.match.hand, "knocker", rng)
            before = (self.match.hand_number, len(self.match.hand.actions), table.move_count)
            result = await (self.command(action) if via == "command" else self.button(action))
            if "⚠️" in result.text:
                logged = await self.bot.store.moves(table.id)
                now = (self.match.hand_number, len(self.match.hand.actions), table.move_count)
                raise AssertionError(
                    f"{result.text} | before={before} action={action} now={now} "
                    f"last={[(m.seat, m.action) for m in logged[-4:]]}"
                )
            moves += 1
            assert moves < limit
        # The bot's last move may still be committing: the table closes once it is.
        await self.fake.wait_for(lambda: not table.is_open, what="the table to close")
        return moves

    def user(self, seat: int) -> User:
        assert self.table is not None
        return self.users[self.table.players[seat].id]

    @property
    def match(self) -> Any:
        assert self.table is not None and self.table.match is not None
        return self.table.match

    async def command(self, action: Action) -> InteractionResult:
        """Make the move with a slash command in the channel."""
        user = self.user(action.seat)
        kind = action.kind
        if kind is ActionKind.PASS:
            return await self.fake.slash(user, self.channel, "gin pass")
        if kind is ActionKind.DRAW_STOCK:
            return await self.fake.slash(user, self.channel, "gin draw", source="stock")
        if kind is ActionKind.DRAW_DISCARD:
            return await self.fake.slash(user, self.channel, "gin draw", source="discard")
        if kind is ActionKind.DISCARD:
            return await self.fake.slash(user, self.channel, "gin discard", card=str(action.card))
        if kind is ActionKind.KNOCK:
            return await self.fake.slash(user, self.channel, "gin knock", card=str(action.card))
        return await self.fake.slash(user, self.channel, "gin knock")

    def dm_panel(self, seat: int) -> Message:
        """The player's current private hand message in their DMs."""
        assert self.table is not None
        entry = self.table.display["hands"][str(seat)]
        message = self.fake.message(entry["message"])
        assert message is not None
        return message

    async def wait_for_buttons(self, seat: int, *, dm_only: bool = False) -> Message:
        """Wait until the player's DM hand message carries the buttons for the current move,
        or, for a player who moved from the channel, the private reply that carries their
        turn (``TableDisplay.carrier``); ``dm_only``, the DM hand, pressed to bring it up to
        date if it was left behind."""
        assert self.table is not None
        table = self.table

        def ready() -> Message | None:
            prefix = f":{table.id}:{table.token(seat)}:"
            entry = table.display.get("hands", {}).get(str(seat))
            if not entry or entry.get("hand") != table.match.hand_number:
                return None
            message = self.fake.message(entry["message"])
            if message and any(prefix in c for c in message.custom_ids()):
                return message
            return None if dm_only else carried_buttons(self.fake, self.bot, table, seat)

        def describe() -> str:
            entry = table.display.get("hands", {}).get(str(seat))
            message = self.fake.message(entry["message"]) if entry else None
            return (
                f"seat {seat}'s buttons for move {table.move_count} (hand "
                f"{table.match.hand_number}, {table.match.hand.phase}, turn "
                f"{table.match.hand.turn}); DM entry {entry}, its ids "
                f"{message.custom_ids() if message else None}"
            )

        shown = ready()
        if shown is not None:
            return shown
        await refresh_left_behind(
            self.fake, self.bot, table, seat, self.user(seat), dm_only=dm_only
        )
        try:
            return await self.fake.wait_for(ready, what=f"seat {seat}'s buttons")
        except Exception as error:
            raise AssertionError(describe()) from error

    async def button(self, action: Action, message: Message | None = None) -> InteractionResult:
        """Make the move with the buttons and menus on a private hand message (DM by default)."""
        assert self.table is not None
        user = self.user(action.seat)
        if message is None:
            message = await self.wait_for_buttons(action.seat)
        move = self.table.token(action.seat)
        if action.kind in BUTTONS:
            return await self.fake.click(
                user, message, f"gin:mv:{self.table.id}:{move}:{BUTTONS[action.kind]}"
            )
        return await play_card(self.fake, user, message, self.table.id, move, action)

    async def play_out(
        self,
        via: str = "command",
        style: str = "knocker",
        seed: int = 1,
        limit: int = 5000,
        stop_after: int | None = None,
    ) -> int:
        """Play to the end of the match (or ``stop_after`` moves); returns the moves made."""
        rng = random.Random(seed)
        moves = 0
        while not self.match.is_over and (stop_after is None or moves < stop_after):
            action = choose(self.match.hand, style, rng)
            result = await (self.command(action) if via == "command" else self.button(action))
            assert "⚠️" not in result.text, result.text
            moves += 1
            assert moves < limit
        return moves


def carried_buttons(fake: FakeDiscord, bot: GinBot, table: Table, seat: int) -> Message | None:
    """The private reply that carries the player's hand, when it shows its buttons."""
    display = screens_of(bot)
    reply = display.carrier(table, seat)
    if reply is None:
        return None
    message_id = reply.message_id
    if message_id is None:
        record = fake.interactions.get(reply.interaction.id)
        message_id = None if record is None else record.response_message_id
    message = fake.store.messages.get(message_id or 0)
    prefix = f":{table.id}:{table.token(seat)}:"
    if message and not message.deleted and any(prefix in c for c in message.custom_ids()):
        return message
    return None


async def refresh_left_behind(
    fake: FakeDiscord, bot: GinBot, table: Table, seat: int, user: User, *, dm_only: bool = False
) -> None:
    """A player who played from the channel and wants their DM hand (``dm_only``) presses
    its Play here, as a person coming back to it does: it then shows the hand with its
    buttons. Nothing happens otherwise: the bot keeps the live hand up to date itself."""
    display = screens_of(bot)
    async with display.quiet(table):
        pass  # an edit of the hand in flight lands first (test players are quick)
    entry = table.display.get("hands", {}).get(str(seat))
    if not dm_only or not entry:
        return
    message = fake.message(entry["message"])
    here = f"gin:here:{table.id}"
    if message is not None and here in message.custom_ids():
        await fake.click(user, message, here)


async def press_older(
    fake: FakeDiscord, user: User, message: Message, table_id: int, token: int
) -> bool:
    """Press the first button (or pick the first item of the first menu) of this table on
    the message that is from a move before ``token``: such a press never makes a move, and
    shows the hand as it is now. False when the message has none."""
    older = re.compile(rf"gin:(mv|sel):{table_id}:(\d+):")
    for row in message.components:
        for component in row.get("components") or []:
            custom_id = str(component.get("custom_id", ""))
            found = older.match(custom_id)
            if found is None or int(found[2]) >= token:
                continue
            if found[1] == "mv":
                await fake.click(user, message, custom_id)
                return True
            if component.get("options"):
                await fake.select(user, message, custom_id, [str(component["options"][0]["value"])])
                return True
    return False
