"""Runs tournaments through the fake Discord as people do: the organiser's commands, players
joining by button or command, each match played (or resigned) in its own thread."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, cast

from bot.client import GinBot
from bot.tables import Table
from bot.tournaments import Tournament
from cogs.gin.tournament_cog import TournamentCog
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.fakediscord import Channel, InteractionResult, Message, User

SYSTEM_THREAD_CREATED = 18


def cog_of(bot: GinBot) -> TournamentCog:
    found = bot.get_cog("TournamentCog")
    assert found is not None
    return cast(TournamentCog, found)


def title_of(message: Message) -> str:
    """The title of a message's first embed."""
    return str((message.embeds or [{}])[0].get("title") or "")


class Tourney:
    """One tournament in the world's channel, seen from the test."""

    def __init__(self, world: World, bot: GinBot, channel: Channel | None = None) -> None:
        self.world = world
        self.fake = world.fake
        self.bot = bot
        self.channel = channel or world.channel
        self.users: dict[str, User] = {}
        self.signup: Message | None = None
        self.id = 0

    def people(self, count: int) -> list[User]:
        """``count`` members: Alice, Bob and Carol first, then new ones."""
        world = self.world
        found = [world.alice, world.bob, world.carol][:count]
        names = ["dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea", "max"]
        for name in names[: max(0, count - len(found))]:
            user = self.fake.add_user(name, global_name=name.capitalize())
            self.fake.add_member(world.guild, user)
            found.append(user)
        for user in found:
            self.users[str(user.id)] = user
        return found

    async def open(self, organiser: User, **options: Any) -> InteractionResult:
        result = await self.fake.slash(organiser, self.channel, "gin tournament open", **options)
        assert not result.ephemeral and "⚠️" not in result.text, result.text
        self.signup = result.message
        tournament = await self.bot.tournaments.in_channel(str(self.channel.id))
        assert tournament is not None
        self.id = tournament.id
        return result

    async def join(self, users: list[User], *, by_button: bool = True) -> None:
        assert self.signup is not None
        for user in users:
            if by_button:
                result = await self.fake.click(user, self.signup, f"gin:tn:{self.id}:join")
            else:
                result = await self.fake.slash(user, self.channel, "gin tournament join")
            assert "⚠️" not in result.text, result.text

    async def start(self, organiser: User) -> InteractionResult:
        result = await self.fake.slash(organiser, self.channel, "gin tournament start")
        assert "⚠️" not in result.text, result.text
        return result

    async def tournament(self) -> Tournament:
        return await self.bot.tournaments.get(self.id)

    def threads(self) -> list[Channel]:
        return self.fake.threads(self.channel)

    def stored(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The tournament and its pairings as the database has them now (read here, so a
        wait re-checks them at every change the fake sees)."""
        with sqlite3.connect(self.world.db_path) as db:
            db.row_factory = sqlite3.Row
            found = db.execute("SELECT * FROM tournaments WHERE id = ?", (self.id,)).fetchone()
            rows = db.execute(
                "SELECT * FROM tournament_pairings WHERE tournament_id = ? ORDER BY round, board",
                (self.id,),
            )
            pairings = [dict(r) for r in rows]
        tournament = dict(found)
        tournament["screens"] = json.loads(tournament["settings"]).get("screens", {})
        return tournament, pairings

    def finished(self) -> bool:
        return bool(self.stored()[0]["state"] == "finished")

    async def round_tables(
        self, number: int, timeout: float = 15
    ) -> dict[int, tuple[Channel, Table]]:
        """Each match of round ``number``: its thread and its table, once all have started
        and show their table in the thread."""

        def ready() -> dict[int, tuple[Channel, Table]] | None:
            tournament, rows = self.stored()
            pairings = [p for p in rows if p["round"] == number and p["player_b"] is not None]
            if tournament["round"] != number or not pairings:
                return None
            found: dict[int, tuple[Channel, Table]] = {}
            threads = {t.id: t for t in self.threads()}
            for pairing in pairings:
                if pairing["state"] == "decided":
                    continue
                thread_id = tournament["screens"].get(f"thread:{number}:{pairing['board']}")
                if pairing["table_id"] is None or thread_id is None:
                    return None
                table = self.bot.service.by_id(pairing["table_id"])
                if table is None or "public" not in table.display:
                    return None
                found[pairing["board"]] = (threads[int(thread_id)], table)
            return found

        return await self.fake.wait_for(ready, timeout, f"round {number}'s matches")

    async def resign(self, table: Table, loser: str, thread: Channel) -> None:
        result = await self.fake.slash(self.users[loser], thread, "gin resign")
        assert "⚠️" not in result.text, result.text
        assert not table.is_open

    async def play(self, thread: Channel, table: Table, seed: int = 1) -> int:
        """The whole match by slash commands in its thread, as the driver plays a table."""
        game = Game(self.world, self.bot, thread)
        game.table = table
        game.users = {p.id: self.users[p.id] for p in table.players}
        return await game.play_out(seed=seed)

    async def announced(self) -> Message:
        """The tournament's last message: its winner (or that it was called off)."""
        return await self.fake.wait_for(
            lambda: next(
                (m for m in self.channel_posts() if "The tournament is over" in title_of(m)),
                None,
            ),
            what="the winner announced",
        )

    def channel_posts(self) -> list[Message]:
        """The bot's messages in the tournament's channel (no thread-started notices)."""
        return [
            m
            for m in self.fake.channel_messages(self.channel)
            if m.author.id == self.fake.bot.id and m.payload.get("type") != SYSTEM_THREAD_CREATED
        ]
