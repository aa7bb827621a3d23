"""The artist draws in a process of its own, caches what it drew, and outlives its worker."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.art.artist import Artist
from bot.art.bench import random_showdowns
from bot.art.showdown import ShowdownPicture, draw_showdown

PICTURES = random_showdowns(3, 7)


@pytest.fixture
def artist() -> Iterator[Artist]:
    drawer = Artist()
    yield drawer
    drawer.close()


async def worker_pid(artist: Artist) -> int:
    """The worker's pid, once the pool has started it."""
    for _ in range(500):
        pids = artist.worker_pids()
        if pids:
            return pids[0]
        await asyncio.sleep(0.01)
    raise AssertionError("the artist started no worker process")


async def test_pictures_are_drawn_in_another_process_and_match_a_local_drawing(
    artist: Artist,
) -> None:
    artist.start()
    pid = await worker_pid(artist)
    assert pid != os.getpid()
    data = await artist.showdown(PICTURES[0])
    assert data == draw_showdown(PICTURES[0])  # the same bytes, wherever drawn
    assert len(artist.draw_ms) == 1 and 0 < artist.draw_ms[0] < artist.wait_ms[0]


async def test_a_picture_drawn_once_is_served_from_the_cache(artist: Artist) -> None:
    first = await artist.showdown(PICTURES[1])
    again = await artist.showdown(PICTURES[1])
    assert again is first
    assert len(artist.draw_ms) == 1


async def test_a_killed_worker_costs_one_picture_and_the_next_starts_a_new_one(
    artist: Artist,
) -> None:
    artist.start()
    pid = await worker_pid(artist)
    await artist.showdown(PICTURES[0])
    os.kill(pid, signal.SIGKILL)
    lost: ShowdownPicture = PICTURES[1]
    with pytest.raises(BrokenProcessPool):
        for _ in range(100):  # the pool learns of the death when it next looks
            await artist.showdown(lost)
            artist._cache.clear()
    data = await artist.showdown(PICTURES[2])
    assert data == draw_showdown(PICTURES[2])
    assert (await worker_pid(artist)) != pid


async def test_without_processes_the_artist_draws_on_a_thread() -> None:
    artist = Artist(processes=False)
    try:
        assert await artist.showdown(PICTURES[0]) == draw_showdown(PICTURES[0])
        assert artist.worker_pids() == []
    finally:
        artist.close()


def running(pid: int) -> bool:
    """Whether the process is alive (an exited one waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_the_worker_leaves_when_the_bot_process_is_killed(tmp_path: Path) -> None:
    """A bot killed outright (SIGKILL, the OOM killer) leaves no picture worker behind."""
    script = tmp_path / "killed_bot.py"
    script.write_text(
        "import asyncio, sys, time\n"
        "from bot.art.artist import Artist\n"
        "artist = Artist()\n"
        "artist.start()\n"
        "for _ in range(500):\n"
        "    if artist.worker_pids():\n"
        "        break\n"
        "    time.sleep(0.01)\n"
        "print(artist.worker_pids()[0], flush=True)\n"
        "time.sleep(60)\n"
    )
    root = Path(__file__).resolve().parents[2]
    bot = subprocess.Popen(
        [sys.executable, str(script)], cwd=root, stdout=subprocess.PIPE, text=True
    )
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait(timeout=10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and running(worker):
            time.sleep(0.1)
        assert not running(worker), "the worker outlived the bot"
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
