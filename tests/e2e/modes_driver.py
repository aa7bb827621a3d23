"""Plays tables of more than two through the fake Discord, the way people do: a lobby filled
by buttons and commands, then moves by slash commands and by the buttons in each DM."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.client import GinBot
from bot.gin.hand import Action, ActionKind, Hand
from bot.gin.match import Match
from bot.tables import Table
from tests.e2e.conftest import World
from tests.e2e.driver import BUTTONS, carried_buttons, play_card, refresh_left_behind
from tests.fakediscord import InteractionResult, Message, User
from tests.gin.players import choose

NAMES = ["dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea", "max", "ned"]


def people(world: World, count: int) -> list[User]:
    """``count`` members of the world's server: alice, bob and carol, then new ones."""
    users = [world.alice, world.bob, world.carol]
    fake = world.fake
    for name in NAMES[: max(0, count - 3)]:
        user = fake.add_user(name, global_name=name.capitalize())
        fake.add_member(world.guild, user)
        users.append(user)
    return users[:count]


class Seats:
    """One table of several players in one channel, seen from the test."""

    def __init__(self, world: World, bot: GinBot, users: list[User]) -> None:
        self.world = world
        self.fake = world.fake
        self.bot = bot
        self.channel = world.channel
        self.users = {str(u.id): u for u in users}
        self.table: Table | None = None
        self.lobby: Message | None = None

    @property
    def match(self) -> Match:
        assert self.table is not None and self.table.match is not None
        return self.table.match

    def user(self, seat: int) -> User:
        assert self.table is not None
        return self.users[self.table.players[seat].id]

    async def open(self, host: User, mode: str, **options: Any) -> InteractionResult:
        result = await self.fake.slash(host, self.channel, "gin open", mode=mode, **options)
        assert not result.ephemeral and "⚠️" not in result.text, result.text
        self.table = self.bot.service.in_channel(str(self.channel.id))
        assert self.table is not None
        self.lobby = result.message
        return result

    async def challenge(self, challenger: User, opponent: User, **options: Any) -> None:
        """A two-player match: a challenge in the channel, accepted by its button."""
        result = await self.fake.slash(
            challenger, self.channel, "gin challenge", opponent=opponent, **options
        )
        assert not result.ephemeral and "⚠️" not in result.text, result.text
        self.table = self.bot.service.in_channel(str(self.channel.id))
        assert self.table is not None and result.message is not None
        accepted = await self.fake.click(opponent, result.message, f"gin:ch:{self.table.id}:accept")
        assert "⚠️" not in accepted.text, accepted.text

    async def join_by_button(self, user: User, team: int | None = None) -> InteractionResult:
        assert self.table is not None and self.lobby is not None
        what = "join" if team is None else f"team{team}"
        result = await self.fake.click(user, self.lobby, f"gin:lb:{self.table.id}:{what}")
        assert "⚠️" not in result.text, result.text
        return result

    async def join_by_command(self, user: User, team: int | None = None) -> InteractionResult:
        options = {} if team is None else {"team": team}
        result = await self.fake.slash(user, self.channel, "gin join", **options)
        assert "⚠️" not in result.text, result.text
        return result

    async def dealt(self) -> None:
        """Wait until the match started and every person in play has a hand by DM."""
        assert self.table is not None
        table = self.table

        def ready() -> bool:
            if table.match is None or "public" not in table.display:
                return False
            hands = table.display.get("hands", {})
            return all(
                hands.get(str(seat), {}).get("hand") == table.match.hand_number
                for seat in table.human_seats
                if table.match.board_of(seat) is not None
            )

        await self.fake.wait_for(ready, timeout=10, what="the deal to every player's DMs")

    async def wait_for_buttons(self, seat: int) -> Message:
        assert self.table is not None
        table = self.table

        def ready() -> Message | None:
            prefix = f":{table.id}:{table.token(seat)}:"
            entry = table.display.get("hands", {}).get(str(seat))
            if not entry or entry.get("hand") != self.match.hand_number:
                return None
            message = self.fake.message(entry["message"])
            if any(prefix in c for c in message.custom_ids()):
                return message
            # A player who moved by command: their turn comes on their last private reply.
            return carried_buttons(self.fake, self.bot, table, seat)

        shown = ready()
        if shown is not None:
            return shown
        await refresh_left_behind(self.fake, self.bot, table, seat, self.user(seat))
        return await self.fake.wait_for(ready, what=f"seat {seat}'s buttons")

    async def command(self, action: Action) -> InteractionResult:
        user, kind = self.user(action.seat), action.kind
        fake, channel = self.fake, self.channel
        if kind is ActionKind.PASS:
            return await fake.slash(user, channel, "gin pass")
        if kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
            source = "stock" if kind is ActionKind.DRAW_STOCK else "discard"
            return await fake.slash(user, channel, "gin draw", source=source)
        if kind is ActionKind.DISCARD:
            return await fake.slash(user, channel, "gin discard", card=str(action.card))
        if kind is ActionKind.KNOCK:
            return await fake.slash(user, channel, "gin knock", card=str(action.card))
        return await fake.slash(user, channel, "gin knock")

    async def button(self, action: Action) -> InteractionResult:
        assert self.table is not None
        user = self.user(action.seat)
        message = await self.wait_for_buttons(action.seat)
        token = self.table.token(action.seat)
        if action.kind in BUTTONS:
            custom_id = f"gin:mv:{self.table.id}:{token}:{BUTTONS[action.kind]}"
            return await self.fake.click(user, message, custom_id)
        return await play_card(self.fake, user, message, self.table.id, token, action)

    async def play(
        self,
        *,
        seed: int = 1,
        via: str = "mixed",
        style: str = "knocker",
        limit: int = 20_000,
        before: Callable[[Match, int, Hand], None] | None = None,
        after: Callable[[Match, Action], Awaitable[None]] | None = None,
        stop: Callable[[Match], bool] | None = None,
        chooser: Callable[[Match, int, random.Random], Action] | None = None,
    ) -> int:
        """Play the people's moves to the end of the match (bots play their own), choosing
        among the boards to act at random; ``via``: command, button, or mixed. ``chooser``
        picks each move instead of the test players (say, the bot's own play)."""
        assert self.table is not None
        table = self.table
        rng = random.Random(seed)
        moves = 0
        round_moves, round_number = 0, 0
        while not self.match.is_over and (stop is None or not stop(self.match)):
            await self.fake.wait_for(
                lambda: (
                    self.match.is_over
                    or (not table.lock.locked() and set(self.match.to_act()) - set(table.bot_seats))
                ),
                timeout=20,
                what="a person's turn",
            )
            if self.match.is_over:
                break
            seat = rng.choice(sorted(set(self.match.to_act()) - set(table.bot_seats)))
            board = self.match.board_of(seat)
            assert board is not None
            if before is not None:
                before(self.match, seat, board)
            if self.match.hand_number != round_number:
                round_number, round_moves = self.match.hand_number, 0
            round_moves += 1
            # Careful players can lock each other's cards for ever: then play loosely.
            chosen = style if round_moves < 60 else ("random" if rng.random() < 0.5 else "hunter")
            action = chooser(self.match, seat, rng) if chooser else choose(board, chosen, rng)
            way = via if via != "mixed" else rng.choice(["command", "button"])
            result = await (self.command(action) if way == "command" else self.button(action))
            assert "⚠️" not in result.text, f"{action}: {result.text}"
            if after is not None:
                await after(self.match, action)
            moves += 1
            assert moves < limit, "the match did not end"
        return moves
