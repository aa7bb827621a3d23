"""The bot process is killed mid-hand and started again on the same database: play goes on."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.gin.hand import Action, ActionKind
from bot.gin.match import Match
from bot.tables.model import TOKEN_HAND
from cogs.gin.screens.channel import PUBLIC_EDIT_INTERVAL
from tests.e2e.conftest import TOKEN, World
from tests.e2e.driver import play_card
from tests.fakediscord import InteractionResult, Message
from tests.gin.players import choose

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def bot_process(world: World, log_file: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        **world.fake.env(),
        "DISCORD_TOKEN": TOKEN,
        "GIN_DB": str(world.db_path),
        "GIN_DEV_GUILD": "",
        "LOG_LEVEL": "INFO" if log_file else os.environ.get("GIN_TEST_LOG_LEVEL", "WARNING"),
    }
    stderr = open(log_file, "wb") if log_file else None  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fakediscord.bootstrap", "bot"],
        cwd=ROOT,
        env=env,
        stderr=stderr,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        if stderr:
            stderr.close()


def stored(world: World) -> tuple[int, Match, int]:
    """The open table as the database has it: id, match state and move count."""
    with sqlite3.connect(world.db_path) as db:
        row = db.execute(
            "SELECT id, state, move_count FROM matches WHERE status = 'playing'"
        ).fetchone()
        return row[0], Match.from_dict(json.loads(row[1])), row[2]


def move_log(world: World, table_id: int) -> list[int]:
    with sqlite3.connect(world.db_path) as db:
        rows = db.execute("SELECT seq FROM moves WHERE match_id = ? ORDER BY seq", (table_id,))
        return [seq for (seq,) in rows]


async def command(world: World, match: Match, action: Action) -> InteractionResult:
    users = {str(u.id): u for u in (world.alice, world.bob)}
    user = users[match.players[action.seat].id]
    fake, channel = world.fake, world.channel
    if action.kind is ActionKind.PASS:
        return await fake.slash(user, channel, "gin pass")
    if action.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
        source = "stock" if action.kind is ActionKind.DRAW_STOCK else "discard"
        return await fake.slash(user, channel, "gin draw", source=source)
    if action.kind is ActionKind.DISCARD:
        return await fake.slash(user, channel, "gin discard", card=str(action.card))
    return await fake.slash(user, channel, "gin knock", card=str(action.card))


async def test_sigkill_mid_hand_then_restart_loses_and_doubles_nothing(world: World) -> None:
    fake = world.fake
    rng = random.Random(11)
    with bot_process(world) as first:
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for_command("gin", world.guild, timeout=30)
        challenge = await fake.slash(
            world.alice, world.channel, "gin challenge", opponent=world.bob
        )
        accept_id = next(c for c in challenge.message.custom_ids() if c.endswith(":accept"))
        await fake.click(world.bob, challenge.message, accept_id)
        made = 0
        while made < 9:
            table_id, match, count = stored(world)
            assert count == made
            action = choose(match.hand, "hunter", rng)
            reply = await command(world, match, action)
            assert reply.ephemeral and "⚠️" not in reply.text, reply.text
            made += 1
        await fake.wait_for(lambda: fake.message(public_id(world)) is not None, what="public")
        before_kill = stored(world)
        public = public_id(world)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        await fake.wait_for(
            lambda: fake.gateway.session_for(None) is None,
            timeout=10,
            what="the killed bot's gateway session to drop",
        )

    table_id, match, count = stored(world)
    assert (count, match.to_dict()) == (before_kill[2], before_kill[1].to_dict())
    assert move_log(world, table_id) == list(range(1, made + 1))

    with bot_process(world):
        await fake.wait_until_connected(timeout=30)
        # The buttons on the DM hand message sent before the kill still work.
        seat = match.hand.turn
        user = world.alice if match.players[seat].id == str(world.alice.id) else world.bob
        token = match.hand_number * TOKEN_HAND + len(match.hand.actions)
        marks = (f"gin:mv:{table_id}:{token}:", f"gin:sel:{table_id}:{token}:")

        def current_panel() -> Message | None:
            for message in reversed(fake.dm_messages(user)):
                if any(c.startswith(marks) for c in message.custom_ids()):
                    return message
            return None

        panel = await fake.wait_for(current_panel, timeout=10, what="the DM hand buttons")
        action = choose(match.hand, "hunter", rng)
        if action.kind in (ActionKind.DISCARD, ActionKind.KNOCK):
            clicked = await play_card(fake, user, panel, table_id, token, action)
        else:
            kind = {
                ActionKind.DRAW_STOCK: "stock",
                ActionKind.DRAW_DISCARD: "take",
                ActionKind.PASS: "pass",
            }[action.kind]
            clicked = await fake.click(user, panel, f"gin:mv:{table_id}:{token}:{kind}")
        assert "⚠️" not in clicked.text, clicked.text
        _, after, count_after = stored(world)
        assert count_after == count + 1
        assert move_log(world, table_id) == list(range(1, count + 2))
        # The public message from before the restart keeps being edited in place.
        versions = len(fake.message(public).history)  # type: ignore[union-attr]
        reply = await command(world, after, choose(after.hand, "hunter", rng))
        assert "⚠️" not in reply.text, reply.text
        await fake.wait_for(
            lambda: len(fake.message(public).history) > versions,  # type: ignore[union-attr]
            timeout=PUBLIC_EDIT_INTERVAL + 15,  # spectators see a few moves at a time
            what="the public table message to be edited after the restart",
        )
        assert move_log(world, table_id) == list(range(1, count + 3))


def public_id(world: World) -> int:
    with sqlite3.connect(world.db_path) as db:
        (display,) = db.execute("SELECT display FROM matches WHERE status='playing'").fetchone()
        return int(json.loads(display)["public"])


async def test_sigterm_shuts_down_cleanly_and_keeps_every_move(
    world: World, tmp_path: Path
) -> None:
    fake = world.fake
    log_file = tmp_path / "bot.log"
    with bot_process(world, log_file) as process:
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for_command("gin", world.guild, timeout=30)
        challenge = await fake.slash(
            world.alice, world.channel, "gin challenge", opponent=world.bob
        )
        accept_id = next(c for c in challenge.message.custom_ids() if c.endswith(":accept"))
        await fake.click(world.bob, challenge.message, accept_id)
        table_id, match, _ = stored(world)
        await command(world, match, choose(match.hand, "hunter", random.Random(1)))
        process.send_signal(signal.SIGTERM)
        # Wait without blocking the event loop: the fake must keep answering while the bot
        # finishes its last edits.
        assert await asyncio.to_thread(process.wait, 20) == 0
    assert move_log(world, table_id) == [1]
    log = log_file.read_text()
    assert "database closed" in log and "Traceback" not in log
    assert "fake.bot.token" not in log
