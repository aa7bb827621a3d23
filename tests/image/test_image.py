"""The Docker image as the README runs it: built from the Dockerfile, started with the README's
`--env-file .env` (copied from `.env.example`) and a `/data` volume, a match played against the
fake Discord, stopped the way `docker stop` stops it, and started again on the same volume.

Run alone with `python -m pytest -m image` (`.ci/run` does; the plain test run leaves it out).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.gin.hand import Action, ActionKind
from bot.gin.match import Match
from tests.e2e.conftest import add_card_emojis, card_room
from tests.fakediscord import FakeDiscord, InteractionResult
from tests.gin.players import choose
from tests.image import containers

# Building the image (a Debian root, then pip) takes minutes on a cold machine.
pytestmark = [pytest.mark.image, pytest.mark.timeout(1800)]

TAG = "localhost/gin-bot:test"
TOKEN = "fake.bot.token"
BOT_UID = 10001  # the image's user, who must own the volume (as Docker's named volumes do)
# What `docker stop` allows before SIGKILL; a clean stop ends well inside it.
STOP_GRACE_SECONDS = 10.0
FAKE_DIR = containers.ROOT / "tests" / "fakediscord"


@pytest.fixture(scope="module")
def image() -> containers.ImageConfig:
    containers.check_tools()
    containers.ensure_base()
    containers.build(TAG)
    return containers.inspect(TAG)


@dataclass
class Room:
    fake: FakeDiscord
    data: Path  # the /data volume
    env: dict[str, str]  # what the README's `--env-file .env` sets, plus the fake's address
    logs: Path

    def db(self) -> Path:
        return self.data / "gin.sqlite3"


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    try:
        data = tmp_path / "data"
        data.mkdir()
        os.chown(data, BOT_UID, BOT_UID)
        dotenv = tmp_path / ".env"  # the README: copy .env.example to .env, set the token
        example = (containers.ROOT / ".env.example").read_text()
        dotenv.write_text(example.replace("DISCORD_TOKEN=\n", f"DISCORD_TOKEN={TOKEN}\n"))
        env = {**containers.env_file(dotenv), **fake.env(), "GIN_BOT_DELAY": "0"}
        assert env["DISCORD_TOKEN"] == TOKEN
        yield Room(fake, data, env, tmp_path)
    finally:
        await fake.stop()


def bootstrapped(image: containers.ImageConfig) -> list[str]:
    """The image's own command, with discord.py pointed at the fake first."""
    assert image.cmd == ["python", "-m", "bot"], image.cmd
    return ["python", "/fake/bootstrap.py", "bot"]


@pytest.fixture
def start(image: containers.ImageConfig, room: Room) -> Iterator[object]:
    """Starts the image as `docker run --env-file .env -v gin-data:/data gin-bot` would."""
    runs: list[object] = []

    def starter(name: str, **env: str) -> containers.Running:
        context = containers.run(
            TAG,
            bootstrapped(image),
            env={**room.env, **env},
            volumes={room.data: "/data", FAKE_DIR: "/fake:ro"},
            log=room.logs / f"{name}.log",
        )
        running = context.__enter__()
        runs.append(context)
        return running

    yield starter
    for context in reversed(runs):
        context.__exit__(None, None, None)  # type: ignore[attr-defined]


def stored(db: Path) -> tuple[int, str, Match, int]:
    """The newest table: id, status, match state and move count, as the volume has it."""
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT id, status, state, move_count FROM matches ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return row[0], row[1], Match.from_dict(json.loads(row[2])), row[3]


async def move(room: Room, users: dict[str, object], match: Match, action: Action) -> str:
    """One move by slash command, as the player to act; the private answer's text."""
    fake, world = room.fake, users
    user = world[match.players[action.seat].id]
    channel = world["channel"]
    result: InteractionResult
    if action.kind is ActionKind.PASS:
        result = await fake.slash(user, channel, "gin pass")  # type: ignore[arg-type]
    elif action.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
        source = "stock" if action.kind is ActionKind.DRAW_STOCK else "discard"
        result = await fake.slash(user, channel, "gin draw", source=source)  # type: ignore[arg-type]
    else:
        name = "gin discard" if action.kind is ActionKind.DISCARD else "gin knock"
        result = await fake.slash(user, channel, name, card=str(action.card))  # type: ignore[arg-type]
    return result.text


async def stop(running: containers.Running) -> tuple[int, float]:
    """`docker stop`: SIGTERM to PID 1; the exit status and how long it took."""
    running.stop()
    began = time.monotonic()
    status = await asyncio.to_thread(running.process.wait, STOP_GRACE_SECONDS + 20)
    return status, time.monotonic() - began


async def test_the_image_plays_stops_cleanly_and_resumes_from_its_volume(
    image: containers.ImageConfig, room: Room, start: object
) -> None:
    assert image.entrypoint[0] == "dumb-init", image.entrypoint  # an init as PID 1
    assert image.user == "gin" and image.volumes == ["/data"] and image.stop_signal == "SIGTERM"
    assert "GIN_DB" not in room.env  # .env.example leaves the image's own database path
    fake = room.fake
    world = card_room(fake, room.data / "unused")
    add_card_emojis(fake)
    users: dict[str, object] = {
        str(world.alice.id): world.alice,
        str(world.bob.id): world.bob,
        "channel": world.channel,
    }
    rng = random.Random(23)

    first = start("first")  # type: ignore[operator]
    await fake.wait_until_connected(timeout=60)
    await fake.wait_for_command("gin", world.guild, timeout=60)
    challenge = await fake.slash(
        world.alice, world.channel, "gin challenge", opponent=world.bob, target=50
    )
    accept = next(c for c in challenge.message.custom_ids() if c.endswith(":accept"))
    await fake.click(world.bob, challenge.message, accept)
    for made in range(9):
        _, status, match, count = stored(room.db())
        assert (status, count) == ("playing", made)
        text = await move(room, users, match, choose(match.hand, "hunter", rng))
        assert "⚠️" not in text, text
    before = stored(room.db())
    hands_before = {seat: list(cards) for seat, cards in before[2].hand.hands.items()}

    status, seconds = await stop(first)
    log = first.output()
    print(f"\nSIGTERM to exit, a match in play: {seconds:.2f} s")
    assert status == 0, log
    assert seconds < STOP_GRACE_SECONDS, log
    assert "database closed; goodbye" in log and "Traceback" not in log, log
    assert TOKEN not in log

    # The same volume, a new container: the match goes on where it was, the hands as dealt.
    start("second")  # type: ignore[operator]
    await fake.wait_until_connected(timeout=60)
    after = stored(room.db())
    assert after[0] == before[0] and after[3] == before[3]
    assert after[2].to_dict() == before[2].to_dict()
    assert {seat: list(cards) for seat, cards in after[2].hand.hands.items()} == hands_before
    moves = 0
    while True:
        _, status, match, count = stored(room.db())
        if status != "playing":
            break
        text = await move(room, users, match, choose(match.hand, "knocker", rng))
        assert "⚠️" not in text, text
        moves += 1
        assert moves < 2000
    assert status == "finished" and match.is_over
    await fake.wait_for(
        lambda: any("wins the match" in m.text for m in fake.channel_messages(world.channel)),
        timeout=30,
        what="the match's result in the channel",
    )


@pytest.mark.parametrize("moment", ["at once", "logging in"])
async def test_a_stop_in_the_first_second_ends_it_at_once(
    image: containers.ImageConfig, room: Room, start: object, moment: str
) -> None:
    fake = room.fake
    card_room(fake, room.data / "unused")
    running = start("early")  # type: ignore[operator]
    running.init_pid()
    if moment == "logging in":
        await fake.wait_for(
            lambda: fake.rest.requests["GET /users/@me"] > 0, timeout=60, what="the login"
        )
    status, seconds = await stop(running)
    print(f"\nSIGTERM to exit, {moment}: {seconds:.2f} s")
    log = running.output()
    # Before Python set its handler the signal ends it as Docker's SIGTERM does (143).
    assert status in ((0, 143) if moment == "at once" else (0,)), log
    assert seconds < STOP_GRACE_SECONDS and "Traceback" not in log, log


@pytest.mark.parametrize("setting", ["", "data/gin.sqlite3"])
async def test_an_empty_or_plain_run_database_setting_still_lands_on_the_volume(
    image: containers.ImageConfig, room: Room, start: object, setting: str
) -> None:
    world = card_room(room.fake, room.data / "unused")
    running = start("db", GIN_DB=setting)  # type: ignore[operator]
    await room.fake.wait_for_command("gin", world.guild, timeout=60)
    status, _ = await stop(running)
    assert status == 0, running.output()
    assert room.db().exists(), running.output()


async def test_a_database_it_cannot_create_is_named_with_what_to_do(
    image: containers.ImageConfig, room: Room, start: object
) -> None:
    card_room(room.fake, room.data / "unused")
    running = start("nowhere", GIN_DB="/app/nowhere/gin.sqlite3")  # type: ignore[operator]
    status = await asyncio.to_thread(running.process.wait, 60)
    log = running.output()
    assert status == 2, log
    assert "cannot open or create the database at /app/nowhere/gin.sqlite3" in log, log
    assert "GIN_DB" in log and "Traceback" not in log, log
