"""Two real bot processes (shards 0 and 1 of 2) on one PostgreSQL schema, and a fake Discord
with guilds on both shards: what the fleet tests and the load benchmark start."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.gin.match import Match
from bot.store.postgres import scratch_schema
from bot.tables.model import TOKEN_HAND
from tests.e2e.driver import press_older
from tests.fakediscord import Channel, FakeDiscord, Guild, Message, User
from tests.fakediscord.errors import InteractionFailed

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "fake.bot.token"
# How long bot processes may take to start and connect. Only a cap for a start-up that hangs:
# on a machine shared with other work (or under `nice`), importing and starting a bot took
# 25 s and more while its cores were busy, and nothing is timed against Discord until then.
STARTUP_SECONDS = 120.0


@dataclass
class Stored:
    """A table as the database has it."""

    id: int
    status: str
    match: Match | None
    move_count: int
    display: dict[str, Any]


@dataclass
class Fleet:
    """The fake Discord, the database and the bot processes on it (one per shard)."""

    fake: FakeDiscord
    url: str
    shard_count: int
    logs: Path
    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    extra_env: dict[str, str] = field(default_factory=dict)

    def start(self, shard: int) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            **self.fake.env(),
            "DISCORD_TOKEN": TOKEN,
            "GIN_DB": self.url,
            "GIN_DEV_GUILD": "",
            "GIN_SHARD_COUNT": str(self.shard_count),
            "GIN_SHARD_IDS": str(shard),
            "GIN_BOT_DELAY": "0",
            "GIN_CARD_EMOJIS": "off",
            "LOG_LEVEL": os.environ.get("GIN_TEST_LOG_LEVEL", "INFO"),
            **self.extra_env,
        }
        log = open(self.logs / f"shard{shard}.log", "ab")  # noqa: SIM115
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.fakediscord.bootstrap", "bot"],
            cwd=ROOT,
            env=env,
            stderr=log,
        )
        log.close()
        self.processes[shard] = process
        return process

    async def connected(self, timeout: float = STARTUP_SECONDS) -> None:
        """Until every running process's shard is connected and the commands are synced."""
        wanted = sorted(
            (s, self.shard_count) for s, p in self.processes.items() if p.poll() is None
        )
        await self.fake.wait_for(
            lambda: self.fake.connected_shards() == wanted, timeout=timeout, what=f"shards {wanted}"
        )
        guild = next(iter(self.fake.store.guilds.values()))  # /gin is for servers only
        await self.fake.wait_for_command("gin", guild, timeout=timeout)

    def kill(self, shard: int) -> None:
        process = self.processes.pop(shard)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    async def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                await asyncio.to_thread(process.wait, 20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        self.processes.clear()

    def log_text(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-6000:]}"
            for path in sorted(self.logs.glob("shard*.log"))
        )

    # -- the database ----------------------------------------------------------------------

    async def query(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        conn = await asyncpg.connect(self.url)
        try:
            return list(await conn.fetch(sql, *args))
        finally:
            await conn.close()

    async def table_in(self, channel: Channel) -> Stored | None:
        rows = await self.query(
            "SELECT id, status, state, move_count, display FROM matches WHERE channel_id = $1"
            " ORDER BY id DESC LIMIT 1",
            str(channel.id),
        )
        if not rows:
            return None
        row = rows[0]
        state = None if row["state"] is None else json.loads(row["state"])
        history: list[Any] = []
        match = None if state is None else Match.from_dict({**state, "history": history})
        return Stored(
            row["id"], row["status"], match, row["move_count"], json.loads(row["display"])
        )

    async def stored_display(self, channel: Channel, key: str, timeout: float = 10) -> Any:
        """A message id the table's owner stores once its message is up (the public table
        is posted in the channel's lane, after the players'): re-read at each change."""
        deadline = time.perf_counter() + timeout
        while True:
            table = await self.table_in(channel)
            if table is not None and key in table.display:
                return table.display[key]
            if time.perf_counter() > deadline:
                raise AssertionError(f"no {key!r} stored for the table in {channel.id}")
            await self.fake.changed()

    async def move_log(self, table_id: int) -> list[int]:
        rows = await self.query("SELECT seq FROM moves WHERE match_id = $1 ORDER BY seq", table_id)
        return [row["seq"] for row in rows]


def token_of(match: Match) -> int:
    """The move number a hand message's buttons carry for the current decision."""
    return match.hand_number * TOKEN_HAND + len(match.hand.actions)


def hand_message(fake: FakeDiscord, user: User, table_id: int, token: int) -> Message | None:
    """The player's newest DM hand message with buttons for this move, if any."""
    marks = (f"gin:mv:{table_id}:{token}:", f"gin:sel:{table_id}:{token}:")
    for message in reversed(fake.dm_messages(user)):
        if any(c.startswith(marks) for c in message.custom_ids()):
            return message
    return None


async def press_if_behind(fake: FakeDiscord, user: User, table_id: int, token: int) -> None:
    """A player coming back to their DM hand after moves by command presses its Play here
    (the DM hand says the hand is played from the channel) or, on a hand left behind, one
    of its buttons, which shows the hand as it is: as a person would. A button of an older
    move never makes a move."""
    ours = re.compile(rf"gin:(mv|sel):{table_id}:(\d+):")
    here = f"gin:here:{table_id}"

    def newest() -> Message | None:  # only the newest hand message with buttons is theirs
        return next((m for m in reversed(fake.dm_messages(user)) if m.custom_ids()), None)

    def this_hand() -> bool:  # the hand's message has come (test players are quick)
        shown = newest()
        if shown is not None and here in shown.custom_ids():
            return True
        tokens = [int(m[2]) for c in (shown.custom_ids() if shown else []) if (m := ours.match(c))]
        return any(t // TOKEN_HAND == token // TOKEN_HAND for t in tokens)

    def describe() -> str:
        shown = [(m.id, m.text[:60], m.custom_ids()[:2]) for m in fake.dm_messages(user)[-3:]]
        return f"the DM message of hand {token // TOKEN_HAND} (its last DMs: {shown})"

    await fake.wait_for(this_hand, timeout=30, what=describe)
    message = newest()
    try:
        if message is not None and here in message.custom_ids():
            await fake.click(user, message, here)
        elif message is not None and hand_message(fake, user, table_id, token) is None:
            await press_older(fake, user, message, table_id, token)
    except InteractionFailed as error:
        # Pressed as a restarted owner sent the hand afresh and deleted this copy: Discord
        # refuses the answer on the deleted message, nothing was played, and the caller
        # looks for the new copy as a person would.
        if message is None or not (message.deleted and "10008" in str(error)):
            raise


@asynccontextmanager
async def fleet_world(
    base_url: str, logs: Path, shard_count: int = 2
) -> AsyncIterator[tuple[Fleet, dict[str, User], list[Guild], list[Channel]]]:
    """A fresh schema, a fake Discord with one guild (and channel) per shard and four
    players in each; no process started yet."""
    async with scratch_schema(base_url, prefix="gin_fleet") as url:
        fake = FakeDiscord(token=TOKEN, shard_count=shard_count)
        await fake.start()
        try:
            users = {
                name: fake.add_user(name, global_name=name.title())
                for name in ("alice", "bob", "carol", "dave")
            }
            guilds, channels = [], []
            for shard in range(shard_count):
                guild = fake.add_guild(f"Room {shard}", owner=users["alice"], shard=shard)
                for name in ("bob", "carol", "dave"):
                    fake.add_member(guild, users[name])
                guilds.append(guild)
                channels.append(fake.add_channel(guild, "gin"))
            fleet = Fleet(fake, url, shard_count, logs)
            try:
                yield fleet, users, guilds, channels
            finally:
                await fleet.stop()
        finally:
            await fake.stop()
