"""The Activity under load: ``python -m tests.web.activitybench`` prints its figures.

The bot runs as ``python -m bot`` in its own process, with its web server, against the fake
Discord (which enforces Discord's rate limits and counts every call of the bot token). Each of
``--tables`` channels has a two-player match whose two players and ``--spectators`` watchers
have the Activity open on sockets (signed in as the page is: code, token, hello); the players
move through their sockets, each table a move every ``--pace`` seconds, for ``--seconds``.

Printed: from a move (its frame sent) to every viewer of its table holding the table it left,
p50 and p99; the counted Discord REST calls per move while everyone plays in the Activity
(route by route, with the calls of the tables' starts and of the sign-ins apart); the bot's
memory per open socket; the page's size gzipped; and the time from opening the page to a
playable table in headless Chromium.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import gzip
import os
import random
import signal
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.__main__ import loop_factory
from tests.e2e.conftest import TOKEN
from tests.fakediscord import Channel, FakeDiscord, User
from tests.fakediscord.limits import RateLimits
from tests.web.client import ActivityClient, pick_move
from tests.web.conftest import SECRET

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "bot" / "web" / "static"
EXEMPT = ("/interactions/", "/webhooks/")  # interaction answers: not counted by Discord
WAIT_S = 60.0


@dataclass
class TableRun:
    channel: Channel
    players: list[User]
    spectators: list[User]
    instance: str = ""
    clients: list[ActivityClient] = field(default_factory=list)
    moves: int = 0


@dataclass
class Figures:
    tables: int
    spectators: int
    pace: float
    seconds: float
    latencies: list[float] = field(default_factory=list)
    late: int = 0  # viewers who had not seen a move 5 s after it
    moves: int = 0
    play_s: float = 0.0
    calls: Counter[str] = field(default_factory=Counter)
    start_calls: Counter[str] = field(default_factory=Counter)
    sign_in_calls: Counter[str] = field(default_factory=Counter)
    hands_ended: int = 0
    sockets: int = 0
    rss_before_kb: int = 0
    rss_after_kb: int = 0
    bot_cpu_s: float = 0.0
    page_gzip: int = 0
    playable_s: list[float] = field(default_factory=list)


def counted(requests: Counter[str]) -> Counter[str]:
    """The calls Discord counts against the bot token, by route and place (dm, channel),
    an instance's id left out."""
    shown: Counter[str] = Counter()
    for route, count in requests.items():
        if any(part in route for part in EXEMPT):
            continue
        if "/activity-instances/" in route:
            route = route.split("/activity-instances/")[0] + "/activity-instances/{}"
        shown[route] += count
    return shown


def status_kb(pid: int, name: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def settled(fake: FakeDiscord, quiet: float = 3.0) -> None:
    """Until the bot has made no counted call for ``quiet`` seconds."""
    last, since = sum(counted(fake.rest.requests_by_place).values()), time.perf_counter()
    while time.perf_counter() - since < quiet:
        await asyncio.sleep(0.5)
        now = sum(counted(fake.rest.requests_by_place).values())
        if now != last:
            last, since = now, time.perf_counter()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.asynccontextmanager
async def bot_process(fake: FakeDiscord, workdir: Path, port: int) -> AsyncIterator[int]:
    env = {
        **os.environ,
        **fake.env(),
        "DISCORD_TOKEN": TOKEN,
        "GIN_DB": str(workdir / "gin.sqlite3"),
        "GIN_DEV_GUILD": "",
        "GIN_CARD_EMOJIS": "off",
        "GIN_BOT_DELAY": "0",
        "GIN_WEB_PORT": str(port),
        "GIN_WEB_HOST": "127.0.0.1",
        "GIN_CLIENT_SECRET": SECRET,
        "LOG_LEVEL": "WARNING",
    }
    with (workdir / "bot.log").open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.fakediscord.bootstrap",
            "bot",
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
        )
        try:
            yield process.pid
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()


def world(fake: FakeDiscord, tables: int, spectators: int) -> tuple[Any, list[TableRun]]:
    host = fake.add_user("host")
    guild = fake.add_guild("Activity Bench", owner=host)
    runs = []
    for number in range(tables):
        channel = fake.add_channel(guild, f"table-{number}")
        people = []
        for who in range(2 + spectators):
            user = fake.add_user(f"p{number}-{who}", global_name=f"P{number}.{who}")
            fake.add_member(guild, user)
            people.append(user)
        runs.append(TableRun(channel, people[:2], people[2:]))
    return guild, runs


async def start_table(fake: FakeDiscord, run: TableRun) -> None:
    first, second = run.players
    result = await fake.slash(first, run.channel, "gin challenge", opponent=second, timeout=60)
    assert result.message is not None, result.text
    table_id = next(c for c in result.message.custom_ids() if c.startswith("gin:ch:"))
    accepted = await fake.click(second, result.message, table_id, timeout=60)
    assert "⚠️" not in accepted.text, accepted.text


async def open_sockets(
    fake: FakeDiscord, base: str, http: aiohttp.ClientSession, run: TableRun
) -> None:
    run.instance = fake.add_activity_instance(run.channel, run.players + run.spectators).instance_id
    for user in run.players + run.spectators:
        client = ActivityClient(base, http, str(user.id), check=False)
        status, body = await client.exchange(fake.oauth_code(user))
        assert status == 200, body
        await client.open(run.instance, str(run.channel.id), token=body["access_token"])
        await client.wait(
            lambda c=client: any(f["type"] == "table" for f in c.frames), 30, "the table"
        )
        run.clients.append(client)


async def play_table(
    run: TableRun, rng: random.Random, pace: float, until: float, figures: Figures
) -> None:
    """One table's two players, a move every ``pace`` seconds; each move timed to every
    viewer's frame of it."""
    players, viewers = run.clients[:2], run.clients
    await asyncio.sleep(rng.uniform(0, pace))
    next_at = time.perf_counter()
    while time.perf_counter() < until:
        mover = next((p for p in players if (p.table.get("mine") or {}).get("moves")), None)
        if mover is None:
            if any(c.table["status"] != "playing" for c in players):
                return  # the match ended
            await asyncio.sleep(0.05)
            continue
        chosen = pick_move(mover.table, rng)
        assert chosen is not None
        wait = next_at - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        seen = [len(c.frames) for c in viewers]
        hand = mover.table["hand"]
        sent = time.perf_counter()
        await mover.move(*chosen)
        arrived = await asyncio.gather(
            *(arrival(c, n) for c, n in zip(viewers, seen, strict=True)),
        )
        for at in arrived:
            if at is None:
                figures.late += 1
            else:
                figures.latencies.append(at - sent)
        figures.moves += 1
        run.moves += 1
        if mover.table["hand"] != hand or mover.table["status"] != "playing":
            figures.hands_ended += 1
        next_at = sent + pace


async def arrival(client: ActivityClient, seen: int) -> float | None:
    """When the socket got its next table frame (None: not within 5 s)."""
    try:
        await client.wait(
            lambda: any(f["type"] == "table" for f in client.frames[seen:]), 5.0, "a frame"
        )
    except AssertionError:
        return None
    return client.arrived_at(seen)


async def time_to_playable(base: str, runs: Sequence[TableRun]) -> list[float]:
    """From opening the page to a table the player can play on (their cards shown)."""
    from tests.web.browser import chromium, page_url

    times = []
    async with chromium() as browser:
        for run in runs:
            user = run.players[0]
            context = await browser.new_context(viewport={"width": 1100, "height": 800})
            page = await context.new_page()
            started = time.perf_counter()
            await page.goto(page_url(base, user, run.channel, run.instance))
            await page.wait_for_selector(".hand .card", timeout=30_000)
            times.append(time.perf_counter() - started)
            await context.close()
    return times


async def run(tables: int, spectators: int, pace: float, seconds: float, seed: int) -> Figures:
    figures = Figures(tables, spectators, pace, seconds)
    fake = FakeDiscord(
        token=TOKEN,
        client_secret=SECRET,
        activities=True,
        mock_codes=True,
        rate_limits=RateLimits(),
        # The tables are opened before anything is measured: a busy machine's slow answer
        # to a challenge there is not what this benchmark is about.
        interaction_deadline=None,
    )
    await fake.start()
    guild, runs = world(fake, tables, spectators)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    try:
        with tempfile.TemporaryDirectory(prefix="activitybench-") as folder:
            async with bot_process(fake, Path(folder), port) as pid:
                await fake.wait_until_connected(timeout=WAIT_S)
                await fake.wait_for_command("gin", guild, timeout=WAIT_S)
                before_start = counted(fake.rest.requests_by_place)
                opening = asyncio.Semaphore(4)

                async def start(one: TableRun) -> None:
                    async with opening:
                        await start_table(fake, one)

                await asyncio.gather(*(start(one) for one in runs))
                await settled(fake)  # the first hands' messages land
                figures.start_calls = counted(fake.rest.requests_by_place) - before_start
                gc.collect()
                figures.rss_before_kb = status_kb(pid, "VmRSS")
                connector = aiohttp.TCPConnector(limit=0)
                async with aiohttp.ClientSession(connector=connector) as http:
                    before_sign_in = counted(fake.rest.requests_by_place)
                    signing = asyncio.Semaphore(16)

                    async def sign_in(one: TableRun) -> None:
                        async with signing:
                            await open_sockets(fake, base, http, one)

                    await asyncio.gather(*(sign_in(one) for one in runs))
                    await settled(fake)
                    figures.sign_in_calls = counted(fake.rest.requests_by_place) - before_sign_in
                    figures.sockets = sum(len(one.clients) for one in runs)
                    await asyncio.sleep(2)  # the DM hands made dormant, if any, settle
                    figures.rss_after_kb = status_kb(pid, "VmRSS")
                    before = counted(fake.rest.requests_by_place)
                    cpu_before = cpu_seconds(pid)
                    rng = random.Random(seed)
                    gc.collect()
                    gc.disable()
                    started = time.perf_counter()
                    until = started + seconds
                    try:
                        await asyncio.gather(
                            *(
                                play_table(
                                    one, random.Random(rng.getrandbits(64)), pace, until, figures
                                )
                                for one in runs
                            )
                        )
                    finally:
                        gc.enable()
                    figures.play_s = time.perf_counter() - started
                    figures.bot_cpu_s = cpu_seconds(pid) - cpu_before
                    await asyncio.sleep(2)
                    figures.calls = counted(fake.rest.requests_by_place) - before
                    figures.playable_s = await time_to_playable(base, runs[:5])
                    for one in runs:
                        for client in one.clients:
                            await client.close()
    finally:
        await fake.stop()
    figures.page_gzip = sum(
        len(gzip.compress(p.read_bytes(), 9)) for p in STATIC.rglob("*") if p.is_file()
    )
    return figures


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(f: Figures) -> str:
    lines = [
        f"activitybench: {f.tables} tables, {2 * f.tables} players and "
        f"{f.spectators * f.tables} spectators on sockets, a move every {f.pace:g} s per table, "
        f"{f.play_s:.0f} s of play",
        f"  moves: {f.moves} ({f.moves / f.play_s:.1f} a second), hands ended: {f.hands_ended}",
    ]
    ms = [x * 1000 for x in f.latencies]
    p99 = percentile(ms, 0.99)
    lines.append(
        f"  move -> every viewer's update: p50 {percentile(ms, 0.5):.1f} ms, p99 {p99:.1f} ms, "
        f"max {max(ms, default=float('nan')):.1f} ms over {len(ms)} deliveries"
        f"{f', {f.late} late (over 5 s)' if f.late else ''}"
        f"  [target p99 <= 100 ms: {'met' if p99 <= 100 and not f.late else 'MISSED'}]"
    )
    total = sum(f.calls.values())
    per_move = total / f.moves if f.moves else float("nan")
    lines.append(
        f"  counted Discord REST calls while playing: {total} = {per_move:.3f} a move"
        f"  [target 0 beyond the starts' and ends' posts]"
    )
    for route, count in f.calls.most_common():
        lines.append(f"    {count:6d}  {route}")
    lines.append(
        f"  the tables' starts (challenge, accept, first hand): {sum(f.start_calls.values())} "
        f"calls, {sum(f.start_calls.values()) / f.tables:.2f} a table"
    )
    signs = sum(f.sign_in_calls.values())
    lines.append(
        f"  sign-ins: {signs} calls for {f.sockets} sockets "
        f"({', '.join(f'{n} {r}' for r, n in f.sign_in_calls.most_common())})"
    )
    per_socket = (f.rss_after_kb - f.rss_before_kb) / max(1, f.sockets)
    lines.append(
        f"  bot memory: {f.rss_before_kb / 1024:.1f} MiB before the sockets, "
        f"{f.rss_after_kb / 1024:.1f} MiB with {f.sockets}: {per_socket:.1f} KiB a socket"
    )
    lines.append(
        f"  bot CPU while playing: {f.bot_cpu_s:.1f} s "
        f"({100 * f.bot_cpu_s / f.play_s:.0f} % of a core)"
    )
    lines.append(
        f"  the page gzipped (SDK included): {f.page_gzip / 1024:.1f} KB"
        f"  [target <= 150 KB: {'met' if f.page_gzip <= 150 * 1024 else 'MISSED'}]"
    )
    if f.playable_s:
        lines.append(
            f"  headless Chromium, page opened -> playable table: median "
            f"{statistics.median(f.playable_s) * 1000:.0f} ms, max "
            f"{max(f.playable_s) * 1000:.0f} ms over {len(f.playable_s)} loads"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2, help="a table")
    parser.add_argument("--pace", type=float, default=4.0, help="seconds between a table's moves")
    parser.add_argument("--seconds", type=float, default=120.0, help="of play")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        figures = runner.run(run(args.tables, args.spectators, args.pace, args.seconds, args.seed))
    print(report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
