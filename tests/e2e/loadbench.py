"""Load benchmark: many tables play at once through the fake Discord against the real bot.

Run: ``python -m tests.e2e.loadbench --tables 100 [--moves-per-table 40] [--seed 1]
[--in-process] [--expert-tables 10]``.

The bot runs as its own process (``tests.fakediscord.bootstrap bot``) so that its memory and
CPU are its own; the fake Discord and the players run here. Players decide their moves only
from what they see, the buttons and menus on their DM hand message, like real people; each
table makes its moves one after another while all tables play at the same time. A table whose
match ends stops there (no new challenge). With ``--expert-tables`` that many more players each
practise against the expert opponent (``/gin practice level:expert``) meanwhile, and the
expert's decision times, as the bot measured them, are reported beside the other tables'
move latency. Figures are printed with the targets; a missed target is reported, never raised.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.conftest import add_card_emojis
from tests.fakediscord import (
    Channel,
    FakeDiscord,
    FakeDiscordError,
    Guild,
    Message,
    RateLimits,
    User,
)

TOKEN = "fake.bot.token"
ROOT = Path(__file__).resolve().parents[2]

TARGET_P99_MS = 50.0
TARGET_MOVES_PER_S = 300.0
TARGET_KB_PER_TABLE = 100.0
TARGET_KB_PER_BIG_TABLE = 200.0  # a table of 14
TARGET_PICTURE_P99_MS = 30.0
TARGET_EXPERT_MEDIAN_MS = 100.0
TARGET_EXPERT_P99_MS = 1000.0
PRACTICE = "practice"  # a table's mode in this benchmark: one player against the expert

# Move components on a DM hand message: gin:mv:{table}:{move}:{kind} / gin:sel:{table}:{move}:…
MOVE_ID = re.compile(r"gin:(?:mv|sel):(\d+):(\d+):(\w+)")
CHALLENGE_ID = re.compile(r"gin:ch:(\d+):accept")
LOBBY_ID = re.compile(r"gin:lb:(\d+):join")
DEADWOOD = re.compile(r"deadwood (\d+)")
WAIT_S = 30.0
# This benchmark measures the bot's CPU: the fake enforces no rate limit, and the bot is told
# its token may make as many REST calls as it likes (the rate benchmark, tests.e2e.ratebench,
# measures the calls under Discord's limits).
UNLIMITED_REST = 10_000.0
LABEL = 42  # width of the report's first column


# --- watching what players see ----------------------------------------------------------------


class Panels:
    """Tells each table when the buttons for its next move appear, at O(1) per message event.

    ``FakeDiscord.wait_for`` re-checks every waiting table on every change in the fake; this
    listens to the fake's message events instead and wakes only the table concerned, so the
    players' own cost per message stays flat however many tables play. It also counts the
    messages the bot sends and edits.
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self._ready: dict[tuple[int, int], int] = {}  # (table, move) -> DM message id
        # Buttons carry a token per decision point (hand and board move number); the n-th new
        # token a table shows is its move n.
        self.tokens: dict[tuple[int, int], int] = {}  # (table, move) -> token
        self._last_token: dict[int, tuple[int, int]] = {}  # table -> (token, move)
        self.shown_at: dict[tuple[int, int], float] = {}  # (table, move) -> when it showed
        self._waiting: dict[tuple[int, int], asyncio.Future[int | None]] = {}
        self._channel_table: dict[int, int] = {}
        self.over: set[int] = set()  # tables whose "Match over" message was posted
        self.events: Counter[str] = Counter()
        fake.store.sinks.append(self._on_event)

    def watch_channel(self, channel_id: int, table_id: int) -> None:
        self._channel_table[channel_id] = table_id

    def _on_event(self, event: str, data: dict[str, Any], guild_id: int | None) -> None:
        if not event.startswith("MESSAGE_"):
            return
        where = "dm" if guild_id is None else "channel"
        self.events[f"{event} {where}"] += 1
        if event == "MESSAGE_DELETE":
            return
        if guild_id is None:
            for row in data.get("components") or []:
                for component in row.get("components") or []:
                    found = MOVE_ID.fullmatch(str(component.get("custom_id", "")))
                    if found:
                        table, token = int(found[1]), int(found[2])
                        last, move = self._last_token.get(table, (-1, -1))
                        if token < last:
                            continue  # an older hand message, edited late
                        if token > last:
                            move += 1
                            self._last_token[table] = (token, move)
                            self.tokens[(table, move)] = token
                        key = (table, move)
                        self._ready[key] = int(data["id"])
                        self.shown_at.setdefault(key, time.perf_counter())
                        self._wake(key, int(data["id"]))
            return
        if event == "MESSAGE_CREATE" and any(
            e.get("title") == "Match over" for e in data.get("embeds") or []
        ):
            table_id = self._channel_table.get(int(data["channel_id"]))
            if table_id is not None:
                self.over.add(table_id)
                for key in [k for k in self._waiting if k[0] == table_id]:
                    self._wake(key, None)

    def _wake(self, key: tuple[int, int], value: int | None) -> None:
        future = self._waiting.pop(key, None)
        if future is not None and not future.done():
            future.set_result(value)

    async def next_move(self, table_id: int, move: int, timeout: float = WAIT_S) -> int | None:
        """The DM message carrying the buttons of this move, or None once the match is over."""
        key = (table_id, move)
        self._ready.pop((table_id, move - 1), None)
        self.shown_at.pop((table_id, move - 1), None)
        if key in self._ready:
            return self._ready[key]
        if table_id in self.over:
            return None
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._waiting[key] = future
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(key, None)


# --- one table ----------------------------------------------------------------------------------


@dataclass
class TableRun:
    """One table as its players know it, and what it did."""

    channel: Channel
    players: list[User]
    mode: str = "classic"
    target: int | None = None  # the match's target (None: the server's)
    table_id: int = 0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    dispatched: list[float] = field(default_factory=list)  # perf_counter of each move's dispatch
    latency_kinds: list[str] = field(default_factory=list)  # the kind of each timed move
    follow_ups: list[float] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    finished: bool = False
    error: str | None = None
    ended: float = 0.0  # perf_counter when its last move was answered (or it stopped)


def choose(message: Message, table_id: int, move: int, rng: random.Random) -> tuple[str, str, str]:
    """A sensible move from what the hand message offers: (custom id, kind, select value or '').

    Knock (the best knock's button) or Big Gin when offered, else discard the card leaving the least
    deadwood; draw from the stock, now and then take the upcard; pass on the first upcard.
    """
    offered: dict[str, dict[str, Any]] = {}
    for component in _leaves(message.components):
        found = MOVE_ID.fullmatch(str(component.get("custom_id", "")))
        if found and int(found[1]) == table_id and int(found[2]) == move:  # move: the token
            offered[found[3]] = component
    for kind, component in offered.items():  # the best knock (or gin) is a button of its own
        if re.fullmatch(r"knock\d+", kind):
            return component["custom_id"], "knock", ""
    for kind in ("biggin", "knock", "discard"):
        if kind in offered:
            component = offered[kind]
            if kind == "biggin":
                return component["custom_id"], kind, ""
            options = component.get("options") or []
            least = min(_deadwood(o) for o in options)
            best = [o for o in options if _deadwood(o) == least]
            return component["custom_id"], kind, str(rng.choice(best)["value"])
    if "stock" in offered:
        if "take" in offered and rng.random() < 0.15:
            return offered["take"]["custom_id"], "take", ""
        return offered["stock"]["custom_id"], "stock", ""
    if "pass" in offered:
        return offered["pass"]["custom_id"], "pass", ""
    if "take" in offered:
        return offered["take"]["custom_id"], "take", ""
    raise FakeDiscordError(f"no move {move} offered on DM message {message.id}: {offered}")


def _leaves(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for row in rows for c in row.get("components") or [row]]


def _deadwood(option: dict[str, Any]) -> int:
    found = DEADWOOD.search(str(option.get("description") or ""))
    return int(found[1]) if found else 1000


async def start_table(fake: FakeDiscord, panels: Panels, run: TableRun) -> None:
    """Two players: challenge and accept with the button; more: open a table and join it
    by command. Then wait for the public table and every DM hand."""
    host, *others = run.players
    if run.mode == PRACTICE:
        await start_practice(fake, panels, run)
        return
    if run.mode == "classic":
        target: dict[str, Any] = {"target": run.target} if run.target else {}
        result = await fake.slash(
            host, run.channel, "gin challenge", opponent=others[0], timeout=WAIT_S, **target
        )
        message = result.message
        assert message is not None, result.text
        ids = [m for c in message.custom_ids() if (m := CHALLENGE_ID.fullmatch(c))]
        assert ids, f"no Accept button on the challenge: {result.text}"
        run.table_id = int(ids[0][1])
        panels.watch_channel(run.channel.id, run.table_id)
        await fake.click(others[0], message, ids[0][0], timeout=WAIT_S)
    else:
        options: dict[str, Any] = {}
        if run.mode == "elimination":
            options["players"] = len(run.players)
        if run.target:
            options["target"] = run.target
        result = await fake.slash(
            host, run.channel, "gin open", mode=run.mode, timeout=WAIT_S, **options
        )
        message = result.message
        assert message is not None, result.text
        ids = [m for c in message.custom_ids() if (m := LOBBY_ID.fullmatch(c))]
        assert ids, f"no Join button on the lobby: {result.text}"
        run.table_id = int(ids[0][1])
        panels.watch_channel(run.channel.id, run.table_id)
        for player in others:
            await fake.slash(player, run.channel, "gin join", timeout=WAIT_S)

    def dealt() -> bool:
        public = [m for m in fake.channel_messages(run.channel) if m.id != message.id]
        return bool(public) and all(fake.dm_messages(p) for p in run.players)

    await fake.wait_for(dealt, timeout=WAIT_S, what=f"table {run.table_id} to be dealt")


async def start_practice(fake: FakeDiscord, panels: Panels, run: TableRun) -> None:
    """One player against the expert: the table's number is read off their DM hand."""
    (player,) = run.players
    await fake.slash(player, run.channel, "gin practice", level="expert", timeout=WAIT_S)

    def table_id() -> int | None:
        for message in fake.dm_messages(player):
            for custom_id in message.custom_ids():
                found = MOVE_ID.fullmatch(custom_id)
                if found:
                    return int(found[1])
        return None

    run.table_id = await fake.wait_for(
        table_id, timeout=WAIT_S, what=f"{player.username}'s hand against the expert"
    )
    panels.watch_channel(run.channel.id, run.table_id)


async def play_table(
    fake: FakeDiscord,
    panels: Panels,
    run: TableRun,
    moves: int,
    rng: random.Random,
    interval: float | None = None,
) -> None:
    """Make up to ``moves`` moves, each one after the previous one is shown to its player.

    With ``interval`` the players pace themselves: move k is made no earlier than k intervals
    after a random start within the first interval (an offered load, as real players think).
    """
    users = {fake.dm_channel(u).id: u for u in run.players}
    answered: float | None = None
    start = time.perf_counter() + (rng.random() * interval if interval else 0.0)
    try:
        for move in range(moves):
            if interval:
                delay = start + move * interval - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            message_id = await panels.next_move(run.table_id, move)
            if message_id is None:
                run.finished = True
                return
            shown = panels.shown_at.get((run.table_id, move), time.perf_counter())
            if answered is not None:
                run.follow_ups.append(max(0.0, shown - answered))
            message = fake.message(message_id)
            user = users[message.channel_id]
            token = panels.tokens[(run.table_id, move)]
            custom_id, kind, value = choose(message, run.table_id, token, rng)
            if value:
                result = await fake.select(user, message, custom_id, [value], timeout=WAIT_S)
            else:
                result = await fake.click(user, message, custom_id, timeout=WAIT_S)
            answered = time.perf_counter()
            if "⚠️" in result.text:
                run.error = f"move {move} ({kind}) refused: {result.text}"
                return
            run.moves += 1
            run.kinds[kind] += 1
            if result.latency is not None and result.record.dispatched_at is not None:
                run.latencies.append(result.latency)
                run.dispatched.append(result.record.dispatched_at)
                run.latency_kinds.append(kind)
        if run.table_id in panels.over:
            run.finished = True
    except (FakeDiscordError, TimeoutError) as error:
        run.error = f"move {run.moves}: {type(error).__name__}: {error}"
    finally:
        run.ended = time.perf_counter()


# --- the bot: a process of its own, or in here -------------------------------------------------


class BotProcess:
    """The bot under test; memory and CPU figures come from /proc for its process."""

    def __init__(
        self,
        pid: int,
        own_process: bool,
        others: Sequence[int] = (),
        trace: Path | None = None,
    ) -> None:
        self.pid = pid
        self.own_process = own_process
        self.pids = [pid, *others]  # with several bot processes, figures are their sums
        self.trace = trace  # where its tracemalloc snapshots go (--tracemalloc)
        self.snapshots: list[Path] = []

    async def snapshot(self) -> None:
        """With --tracemalloc: the bot's allocations now, written by the bot itself."""
        if self.trace is None:
            return
        target = Path(f"{self.trace}.{len(self.snapshots)}")
        os.kill(self.pid, signal.SIGUSR1)
        deadline = time.perf_counter() + 300
        while not target.exists():
            if time.perf_counter() > deadline:
                raise RuntimeError(f"the bot wrote no snapshot {target}")
            await asyncio.sleep(0.1)
        self.snapshots.append(target)

    def status_kb(self, field_name: str) -> int:
        return sum(_status_kb(pid, field_name) for pid in self.pids)

    def children_rss_kb(self) -> int:
        """RSS of the bot's child processes (the showdown pictures' workers)."""
        if not self.own_process:
            return 0
        total = 0
        for pid in self.pids:
            try:
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                continue
            for child in children:
                with contextlib.suppress(OSError, KeyError, ValueError):
                    total += _status_kb(int(child), "VmRSS")
        return total

    def cpu_seconds(self) -> float:
        if not self.own_process:
            return time.process_time()
        total = 0.0
        for pid in self.pids:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total


def _status_kb(pid: int, field_name: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    raise KeyError(field_name)


@contextlib.asynccontextmanager
async def bot_process(
    fake: FakeDiscord,
    database: str,
    log_path: Path,
    figures_path: Path,
    processes: int = 1,
    rest_per_second: float | None = UNLIMITED_REST,
    trace: Path | None = None,
) -> AsyncIterator[BotProcess]:
    """The bot as ``processes`` processes, each on its shard (one process: all of them),
    all on ``database`` (a SQLite file or a PostgreSQL URL). ``rest_per_second``: the REST
    budget of the bot token (None: the bot's default)."""
    started = []
    with contextlib.ExitStack() as logs:
        try:
            for shard in range(processes):
                env = {
                    "GIN_BENCH_FIGURES": f"{figures_path}.{shard}",
                    **os.environ,
                    **fake.env(),
                    "DISCORD_TOKEN": TOKEN,
                    "GIN_DB": database,
                    "GIN_DEV_GUILD": "",
                    "LOG_LEVEL": "WARNING",
                }
                if rest_per_second is not None:
                    env["GIN_REST_PER_SECOND"] = f"{rest_per_second:g}"
                if trace is not None:
                    env["GIN_BENCH_TRACEMALLOC"] = str(trace)
                if processes > 1:
                    env |= {"GIN_SHARD_COUNT": str(processes), "GIN_SHARD_IDS": str(shard)}
                name = log_path if processes == 1 else log_path.with_suffix(f".{shard}.log")
                log = logs.enter_context(name.open("wb"))
                started.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable,
                        "-m",
                        "tests.fakediscord.bootstrap",
                        "tests.e2e.benchbot",
                        cwd=ROOT,
                        env=env,
                        stdout=log,
                        stderr=log,
                    )
                )
            first, *others = started
            others_pids = [p.pid for p in others]
            yield BotProcess(first.pid, own_process=True, others=others_pids, trace=trace)
        finally:
            for process in started:
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
            for process in started:
                try:
                    await asyncio.wait_for(process.wait(), 15)
                except TimeoutError:
                    process.kill()
                    await process.wait()


@contextlib.asynccontextmanager
async def bot_in_process(fake: FakeDiscord, db_path: Path) -> AsyncIterator[BotProcess]:
    from bot.client import GinBot
    from bot.config import Config
    from tests.fakediscord import patch_discord

    with patch_discord(fake.http_base, fake.gateway_url):
        bot = GinBot(
            Config(
                token=TOKEN,
                db_path=db_path,
                dev_guild=None,
                log_level="WARNING",
                rest_per_second=UNLIMITED_REST,
            )
        )

        async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
            return None

        bot.before_identify_hook = no_wait  # type: ignore[method-assign]
        await bot.login(TOKEN)
        task = asyncio.create_task(bot.connect())
        try:
            yield BotProcess(os.getpid(), own_process=False)
        finally:
            await bot.close()
            await task


# --- checking the database --------------------------------------------------------------------


@dataclass
class Durability:
    """What the database file says: it must hold every move the players saw answered."""

    move_rows: int
    tables_matching: int
    tables: int

    def passed(self, moves: int) -> bool:
        """``moves``: the players' moves at the tables without the expert."""
        return self.move_rows == moves and self.tables_matching == self.tables


async def check_postgres(url: str, runs: Sequence[TableRun]) -> Durability:
    """The same check on a PostgreSQL database."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        stored = {
            r["id"]: r["move_count"] for r in await conn.fetch("SELECT id, move_count FROM matches")
        }
        logged = {
            r["match_id"]: r["n"]
            for r in await conn.fetch("SELECT match_id, COUNT(*) AS n FROM moves GROUP BY match_id")
        }
    finally:
        await conn.close()
    return _durability(stored, logged, runs)


def check_database(db_path: Path, runs: Sequence[TableRun]) -> Durability:
    """Read the file the bot writes: one row per move made, and each table's move count."""
    uri = f"file:{db_path}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        stored = dict(db.execute("SELECT id, move_count FROM matches").fetchall())
        logged = dict(
            db.execute("SELECT match_id, COUNT(*) FROM moves GROUP BY match_id").fetchall()
        )
    return _durability(stored, logged, runs)


def _durability(
    stored: dict[int, int], logged: dict[int, int], runs: Sequence[TableRun]
) -> Durability:
    """Each table's rows against its moves. At a table against the expert the bot's own moves
    are stored too: there the rows must match the stored count and hold the player's moves."""
    rows = sum(logged.get(r.table_id, 0) for r in runs if r.mode != PRACTICE)
    matching = sum(
        1
        for r in runs
        if (
            stored.get(r.table_id) == logged.get(r.table_id, 0) >= r.moves
            if r.mode == PRACTICE
            else stored.get(r.table_id) == r.moves and logged.get(r.table_id, 0) == r.moves
        )
    )
    return Durability(rows, matching, len(runs))


# --- the run ------------------------------------------------------------------------------------


@dataclass
class Figures:
    """Everything the benchmark measured."""

    tables: int
    moves_per_table: int
    seed: int
    own_process: bool
    mode: str = "classic"
    players: int = 2
    rate: float | None = None  # offered moves per second over all tables; None: flat out
    database: str = "SQLite"  # what the bot stores to, as the report names it
    processes: int = 1
    bot_pid: int = 0
    load_before: str = ""
    setup_s: float = 0.0
    play_s: float = 0.0
    moves: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    latencies_by_kind: dict[str, list[float]] = field(default_factory=dict)
    slow_windows: int = 0  # distinct 100 ms windows in which a move over the target started
    follow_ups_ms: list[float] = field(default_factory=list)
    finished_tables: int = 0
    errors: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    durability: Durability | None = None
    baseline_rss_kb: int = 0
    started_rss_kb: int = 0
    open_rss_kb: int = 0
    peak_kb: int = 0
    bot_cpu_s: float = 0.0
    here_cpu_s: float = 0.0
    bot_log: str = ""
    requests: Counter[str] = field(default_factory=Counter)  # REST calls while playing
    pictures: int = 0  # showdown pictures the bot attached while playing
    picture_draw_ms: list[float] = field(default_factory=list)
    picture_wait_ms: list[float] = field(default_factory=list)
    worker_rss_kb: int = 0
    expert_tables: int = 0
    expert_think_ms: list[float] = field(default_factory=list)  # each decision in its worker
    expert_decide_ms: list[float] = field(default_factory=list)  # as its table waited for it
    practice_moves: int = 0  # the players' moves at the tables against the expert
    practice_s: float = 0.0  # until the last table against the expert was done
    practice_latencies_ms: list[float] = field(default_factory=list)
    memory_report: str = ""  # --tracemalloc: where the memory went, by file and line

    @property
    def counted_calls(self) -> int:
        """REST calls the global rate limit counts: all but interaction answers."""
        return sum(
            n
            for route, n in self.requests.items()
            if "/interactions/" not in route and "/webhooks/" not in route
        )

    @property
    def kb_target(self) -> float:
        return TARGET_KB_PER_TABLE if self.players <= 2 else TARGET_KB_PER_BIG_TABLE

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.play_s if self.play_s > 0 else 0.0

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.latencies_ms) if self.latencies_ms else math.nan

    @property
    def p99_ms(self) -> float:
        return percentile(self.latencies_ms, 99.0)

    @property
    def open_tables(self) -> int:
        return self.tables - self.finished_tables

    @property
    def kb_per_table(self) -> float:
        """RSS the open tables added since start-up; a finished match's table is closed."""
        return (self.open_rss_kb - self.baseline_rss_kb) / max(self.open_tables, 1)

    @property
    def durable(self) -> bool:
        return self.durability is not None and self.durability.passed(self.moves)


MEMORY_LINES = 25  # lines of each table of the memory report


def memory_report(snapshots: Sequence[Path], figures: Figures) -> str:
    """Where the bot's memory went (tracemalloc's snapshots at start-up, with the tables
    dealt, and after play): the lines that hold the most more than at start-up, per open
    table, by line and by file; then what dealing alone added."""
    import tracemalloc

    baseline, dealt, played = (tracemalloc.Snapshot.load(str(path)) for path in snapshots)
    tables = max(figures.open_tables, 1)
    lines = []

    def table(title: str, after: tracemalloc.Snapshot, key: str, per: int) -> None:
        stats = after.compare_to(baseline, key)
        total = sum(stat.size_diff for stat in stats)
        lines.append(f"{title}: {total / per / 1024:.1f} KB a table traced")
        for stat in stats[:MEMORY_LINES]:
            frame = stat.traceback[0]
            where = frame.filename.removeprefix(str(ROOT) + "/")
            if key == "lineno":
                where += f":{frame.lineno}"
            size, count = stat.size_diff / per / 1024, stat.count_diff / per
            lines.append(f"  {size:8.2f} KB {count:8.1f} blocks  {where}")

    table(f"after play, {tables} open tables, by line", played, "lineno", tables)
    table("after play, by file", played, "filename", tables)
    table(f"dealt, {figures.tables} tables, by line", dealt, "lineno", max(figures.tables, 1))
    return "\n".join(lines)


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile: the smallest value with ``pct`` % of the values at or below."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100.0 * len(ordered)))
    return ordered[rank - 1]


async def run_benchmark(
    tables: int,
    moves_per_table: int = 40,
    seed: int = 1,
    *,
    in_process: bool = False,
    workdir: Path | None = None,
    rate: float | None = None,
    mode: str = "classic",
    players: int = 2,
    db: str | None = None,
    processes: int = 1,
    checked: bool = True,
    expert_tables: int = 0,
    trace: bool = False,
) -> Figures:
    """Start ``tables`` tables, play them all at once, and measure the bot while it serves them.

    ``rate`` paces the players to that many moves per second in all (players who think);
    without it they move as soon as their buttons show, which measures the most it can do.
    ``db``: a PostgreSQL URL (a scratch schema there, dropped afterwards) instead of a SQLite
    file; ``processes``: that many bot processes, one per shard, with a server on each shard
    and the tables spread over them (DM clicks all reach shard 0, as on Discord). ``checked``:
    the fake checks each request against Discord's spec, on the bot's cores (off: to compare
    with a build whose fake had no such checks). ``expert_tables``: that many more players
    each practise against the expert meanwhile. ``trace``: the bot traces its allocations
    (tracemalloc, which slows it down) and the figures say where the memory went.
    """
    figures = Figures(
        tables, moves_per_table, seed, own_process=not in_process, mode=mode, players=players
    )
    figures.rate = rate
    figures.processes = processes
    figures.expert_tables = expert_tables
    async with contextlib.AsyncExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loadbench-")))
        database = str(workdir / "gin.sqlite3")
        if db is not None:
            from bot.store.postgres import scratch_schema

            database = await stack.enter_async_context(scratch_schema(db, prefix="gin_bench"))
            figures.database = "PostgreSQL"
        log_path = workdir / "bot.log"
        figures_path = workdir / "figures.json"
        fake = FakeDiscord(
            token=TOKEN,
            shard_count=processes,
            rate_limits=RateLimits.off(),
            validate_requests=checked,
        )
        await fake.start()
        try:
            panels = Panels(fake)
            add_card_emojis(fake)  # as an earlier start left them: cards show as emojis
            host = fake.add_user("host")
            guilds = [
                fake.add_guild(f"Load Test {k}", owner=host, shard=k) for k in range(processes)
            ]
            runs = _seat_players(fake, guilds, tables, mode, players)
            runs += _seat_practice(fake, guilds[0], expert_tables)
            starter = (
                bot_in_process(fake, Path(database))
                if in_process
                else bot_process(
                    fake,
                    database,
                    log_path,
                    figures_path,
                    processes,
                    trace=workdir / "memory.snapshot" if trace else None,
                )
            )
            async with starter as bot:
                try:
                    if processes == 1:
                        await fake.wait_until_connected(timeout=WAIT_S)
                    else:
                        await fake.wait_for(
                            lambda: len(fake.connected_shards()) == processes,
                            timeout=WAIT_S,
                            what="every shard to connect",
                        )
                    await fake.wait_for_command("gin", guilds[0], timeout=WAIT_S)
                except FakeDiscordError as error:
                    logs = sorted(workdir.glob("bot*.log"))
                    log = "\n".join(p.read_text(errors="replace") for p in logs)
                    raise RuntimeError(f"the bot did not come up: {error}\n{log}") from None
                figures.bot_pid = bot.pid
                await asyncio.sleep(0.5)  # let start-up settle before the baseline
                figures.baseline_rss_kb = bot.status_kb("VmRSS")
                await bot.snapshot()
                await _measure(fake, panels, bot, runs, figures)
                await asyncio.sleep(0.5)  # the owners' last screens, after the last commit
                if db is None:
                    figures.durability = await asyncio.to_thread(
                        check_database, Path(database), runs
                    )
                else:
                    figures.durability = await check_postgres(database, runs)
                if len(bot.snapshots) == 3:
                    figures.memory_report = memory_report(bot.snapshots, figures)
        finally:
            await fake.stop()
        figures.bot_log = "\n".join(
            p.read_text(errors="replace").strip() for p in sorted(workdir.glob("bot*.log"))
        ).strip()
        for drawn_path in sorted(workdir.glob("figures.json.*")):
            drawn = json.loads(drawn_path.read_text())
            figures.picture_draw_ms += drawn["draw_ms"]
            figures.picture_wait_ms += drawn["wait_ms"]
            figures.expert_think_ms += drawn.get("think_ms", [])
            figures.expert_decide_ms += drawn.get("decide_ms", [])
    return figures


def _seat_players(
    fake: FakeDiscord, guilds: list[Guild], tables: int, mode: str, players: int
) -> list[TableRun]:
    runs = []
    for i in range(tables):
        guild = guilds[i % len(guilds)]
        seated = []
        for j in range(players):
            user = fake.add_user(f"p{i}-{j}", global_name=f"Player {i}-{j}")
            fake.add_member(guild, user)
            seated.append(user)
        runs.append(TableRun(fake.add_channel(guild, f"table-{i}"), seated, mode))
    return runs


def _seat_practice(fake: FakeDiscord, guild: Guild, tables: int) -> list[TableRun]:
    runs = []
    for i in range(tables):
        user = fake.add_user(f"x{i}", global_name=f"Expert's guest {i}")
        fake.add_member(guild, user)
        runs.append(TableRun(fake.add_channel(guild, f"practice-{i}"), [user], PRACTICE))
    return runs


async def _measure(
    fake: FakeDiscord, panels: Panels, bot: BotProcess, runs: list[TableRun], figures: Figures
) -> None:
    started = time.perf_counter()
    await asyncio.gather(*(start_table(fake, panels, run) for run in runs))
    figures.setup_s = time.perf_counter() - started
    await asyncio.sleep(0.2)
    figures.started_rss_kb = bot.status_kb("VmRSS")
    await bot.snapshot()

    figures.load_before = Path("/proc/loadavg").read_text().split(" ", 1)[0]
    rng = random.Random(figures.seed)
    rngs = [random.Random(rng.getrandbits(64)) for _ in runs]
    cpu_bot, cpu_here = bot.cpu_seconds(), time.process_time()
    events_before = Counter(panels.events)
    requests_before = Counter(fake.rest.requests)
    interval = len(runs) / figures.rate if figures.rate else None
    # The fake keeps every message and event it ever saw, so a full collection here takes
    # 100 ms and more, and every move in flight then looks that much slower: no collector in
    # this process while the bot is measured.
    gc.collect()
    gc.disable()
    started = time.perf_counter()
    try:
        await asyncio.gather(
            *(
                play_table(fake, panels, run, figures.moves_per_table, r, interval)
                for run, r in zip(runs, rngs, strict=True)
            )
        )
    finally:
        gc.enable()
    # The tables against the expert wait out the bot's pause (GIN_BOT_DELAY) before each of
    # its moves, so they end long after the others: the play time (and moves per second) is
    # that of the people's tables; the expert's tables are reported apart.
    people = [run.ended for run in runs if run.mode != PRACTICE]
    figures.play_s = (max(people) if people else time.perf_counter()) - started
    figures.practice_s = time.perf_counter() - started
    figures.bot_cpu_s = bot.cpu_seconds() - cpu_bot
    figures.here_cpu_s = time.process_time() - cpu_here

    await asyncio.sleep(0.2)  # the last moves' message upkeep
    figures.events = panels.events - events_before
    figures.requests = fake.rest.requests - requests_before
    figures.open_rss_kb = bot.status_kb("VmRSS")
    await bot.snapshot()
    figures.peak_kb = bot.status_kb("VmHWM")
    figures.worker_rss_kb = bot.children_rss_kb()
    figures.pictures = sum(
        1 for a in fake.store.attachments.values() if a.filename.startswith("showdown-")
    )
    for run in runs:
        if run.mode == PRACTICE:  # reported apart: the bot's own moves come between
            figures.practice_moves += run.moves
            figures.practice_latencies_ms.extend(x * 1000.0 for x in run.latencies)
            if run.error:
                figures.errors.append(f"table {run.table_id} (vs expert): {run.error}")
            continue
        figures.moves += run.moves
        figures.latencies_ms.extend(x * 1000.0 for x in run.latencies)
        for kind, latency in zip(run.latency_kinds, run.latencies, strict=True):
            figures.latencies_by_kind.setdefault(kind, []).append(latency * 1000.0)
        figures.follow_ups_ms.extend(x * 1000.0 for x in run.follow_ups)
        figures.kinds.update(run.kinds)
        figures.finished_tables += run.finished
        if run.error:
            figures.errors.append(f"table {run.table_id}: {run.error}")
    figures.slow_windows = len(
        {
            int(at * 10)
            for run in runs
            if run.mode != PRACTICE
            for at, latency in zip(run.dispatched, run.latencies, strict=True)
            if latency * 1000.0 >= TARGET_P99_MS
        }
    )


# --- the report ---------------------------------------------------------------------------------


def report(f: Figures) -> str:
    """The figures as a table, each target next to its figure and its verdict."""
    mode = (
        f"its own process (pid {f.bot_pid})"
        if f.own_process
        else "this process with the fake and the players: memory and CPU are theirs too"
    )
    if f.processes > 1:
        mode = f"{f.processes} processes, one per shard (memory and CPU: their sums)"
    mode += f", storing to {f.database}"
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(f.kinds.items()))
    d = f.durability
    durable = (
        f"{d.move_rows} move rows for {f.moves} moves; stored move_count right for "
        f"{d.tables_matching}/{d.tables} tables"
        if d
        else "not checked"
    )
    dealt_kb = (f.started_rss_kb - f.baseline_rss_kb) / max(f.tables, 1)
    game = "two-player" if f.mode == "classic" else f"{f.mode}, {f.players} players each"
    lines = [
        f"Gin Rummy load benchmark: {f.tables} tables ({game}) at once, up to "
        f"{f.moves_per_table} moves each, players' seed {f.seed}; bot in {mode}",
        f"machine: {os.cpu_count()} CPUs, 1-minute load average {f.load_before} before play; "
        f"setup (challenge, accept, deal; all tables at once): {f.setup_s:.1f} s",
        "offered load: "
        + (
            f"{f.rate:.0f} moves/s in all (players pace themselves)"
            if f.rate
            else "flat out (each player moves as soon as their buttons show)"
        ),
        f"playing: {f.play_s:.2f} s; {f.moves} moves ({kinds}); {f.finished_tables} matches "
        f"ended; {len(f.errors)} tables stopped by an error",
        "",
        f"{'':<{LABEL}}{'figure':>12}   {'target':<10} verdict",
        _row("move latency, median (dispatch→callback)", f"{f.p50_ms:.1f} ms"),
        _row("move latency, p99", f"{f.p99_ms:.1f} ms", "< 50 ms", f.p99_ms < TARGET_P99_MS),
        _row(
            "moves per second",
            f"{f.moves_per_s:.1f}",
            ">= 300",
            f.moves_per_s >= TARGET_MOVES_PER_S,
        ),
        _row(f"every move durable in {f.database}", "yes" if f.durable else "NO", "all", f.durable),
        f"  ({durable})",
        _row("bot peak memory (VmHWM)", f"{f.peak_kb / 1024:.1f} MB"),
        _row("bot RSS with no tables", f"{f.baseline_rss_kb / 1024:.1f} MB"),
        _row("bot RSS, tables dealt", f"{f.started_rss_kb / 1024:.1f} MB"),
        _row(f"bot RSS, {f.open_tables} tables open after play", f"{f.open_rss_kb / 1024:.1f} MB"),
        _row(
            "memory per open table (after play)",
            f"{f.kb_per_table:.1f} KB",
            f"< {f.kb_target:.0f} KB",
            f.kb_per_table < f.kb_target,
        ),
        _row(
            "REST calls per move (rate-limited ones)",
            f"{f.counted_calls / max(f.moves, 1):.2f}",
        ),
        _row("memory per open table (dealt only)", f"{dealt_kb:.1f} KB"),
        *_picture_rows(f),
        *_expert_rows(f),
        "",
        "diagnostics:",
        f"  answer → next buttons shown (bot's follow-up work): median "
        f"{statistics.median(f.follow_ups_ms) if f.follow_ups_ms else math.nan:.1f} ms, "
        f"p99 {percentile(f.follow_ups_ms, 99.0):.1f} ms",
        f"  bot CPU while playing: {f.bot_cpu_s:.2f} s = {_ratio(f.bot_cpu_s, f.play_s):.0f}% "
        f"of one core, {1000 * f.bot_cpu_s / max(f.moves, 1):.2f} ms per move; "
        f"benchmark + fake: {f.here_cpu_s:.2f} s",
        "  move latency by kind (median / p99 ms): "
        + ", ".join(
            f"{kind} {statistics.median(ms):.1f} / {percentile(ms, 99.0):.1f}"
            for kind, ms in sorted(f.latencies_by_kind.items())
        ),
        f"  moves over {TARGET_P99_MS:.0f} ms: "
        f"{sum(ms >= TARGET_P99_MS for ms in f.latencies_ms)}, starting in {f.slow_windows} "
        "distinct 100 ms windows (few windows: the bot or the benchmark stalled)",
        "  bot messages per move: "
        + ", ".join(
            f"{label} {f.events[key] / max(f.moves, 1):.2f}"
            for label, key in (
                ("DM edits (incl. the answer)", "MESSAGE_UPDATE dm"),
                ("DM sends", "MESSAGE_CREATE dm"),
                ("channel edits", "MESSAGE_UPDATE channel"),
                ("channel sends", "MESSAGE_CREATE channel"),
            )
        ),
    ]
    busiest = sorted(
        ((n, route) for route, n in f.requests.items() if "/interactions/" not in route),
        reverse=True,
    )[:6]
    lines.append(
        "  REST calls per move by route: "
        + ", ".join(f"{route} {n / max(f.moves, 1):.2f}" for n, route in busiest)
    )
    lines.extend(f"error: {error}" for error in f.errors[:5])
    noise = "voice will NOT be supported"
    logged = [line for line in f.bot_log.splitlines() if noise not in line]
    if logged:
        lines.append(f"bot log: {len(logged)} lines; the last ones:")
        lines.extend("  " + line for line in logged[-5:])
    return "\n".join(lines)


def _picture_rows(f: Figures) -> list[str]:
    if not f.pictures and not f.picture_draw_ms:
        return [_row("showdown pictures attached", "0")]
    draw, wait = f.picture_draw_ms, f.picture_wait_ms
    p99 = percentile(draw, 99.0)
    return [
        _row("showdown pictures attached", f"{f.pictures}"),
        _row(
            "picture drawing, median / p99",
            f"{statistics.median(draw) if draw else math.nan:.1f} / {p99:.1f} ms",
            "p99 < 30 ms",
            p99 < TARGET_PICTURE_P99_MS,
        ),
        _row(
            "bot's wait for a picture, median / p99",
            f"{statistics.median(wait) if wait else math.nan:.1f} / "
            f"{percentile(wait, 99.0):.1f} ms",
        ),
        _row("picture worker process RSS (fixed)", f"{f.worker_rss_kb / 1024:.1f} MB"),
    ]


def _expert_rows(f: Figures) -> list[str]:
    if not f.expert_tables:
        return []
    think, wait = f.expert_think_ms, f.expert_decide_ms
    median = statistics.median(wait) if wait else math.nan
    p99 = percentile(wait, 99.0)
    practice = f.practice_latencies_ms
    return [
        _row(
            f"{f.expert_tables} tables vs expert: decisions",
            f"{len(wait)}",
        ),
        f"  (in {f.practice_s:.1f} s, the bot pausing before each of its moves as it does)",
        _row(
            "expert decision, median (table's wait)",
            f"{median:.1f} ms",
            "<= 100 ms",
            median <= TARGET_EXPERT_MEDIAN_MS,
        ),
        _row("expert decision, p99 (table's wait)", f"{p99:.1f} ms", "<= 1 s", p99 <= 1000.0),
        _row(
            "expert thinking in its worker, med / p99",
            f"{statistics.median(think) if think else math.nan:.1f} / "
            f"{percentile(think, 99.0):.1f} ms",
        ),
        _row(
            "their players' moves, median / p99",
            f"{statistics.median(practice) if practice else math.nan:.1f} / "
            f"{percentile(practice, 99.0):.1f} ms",
        ),
    ]


def _row(label: str, value: str, target: str = "", ok: bool | None = None) -> str:
    verdict = "" if ok is None else ("met" if ok else "NOT MET")
    return f"{label:<{LABEL}}{value:>12}   {target:<10} {verdict}".rstrip()


def _ratio(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.loadbench", description=__doc__)
    parser.add_argument("--tables", type=int, default=100, help="tables playing at once")
    parser.add_argument("--moves-per-table", type=int, default=40, help="moves each table makes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument(
        "--in-process", action="store_true", help="run the bot in this process (no own figures)"
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=None,
        help="offered moves per second over all tables (players pace themselves); "
        "default: as fast as the bot answers",
    )
    parser.add_argument(
        "--mode",
        choices=("classic", "three", "elimination"),
        default="classic",
        help="the way of playing at every table (default: the two-player game)",
    )
    parser.add_argument(
        "--players", type=int, default=None, help="players per table (elimination: 2-14)"
    )
    parser.add_argument(
        "--db", default=None, help="a postgresql:// URL to store to (default: a SQLite file)"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes, one per shard (needs --db)"
    )
    parser.add_argument(
        "--expert-tables",
        type=int,
        default=0,
        help="more tables, each one player practising against the expert meanwhile (0)",
    )
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="the bot traces its allocations (slower: for where the memory goes, not for its "
        "figures) and the report lists them by file and line",
    )
    parser.add_argument(
        "--unchecked",
        action="store_true",
        help="the fake Discord skips its checks against Discord's spec (they share the bot's "
        "cores): to compare with builds whose fake had none",
    )
    args = parser.parse_args(argv)
    if args.processes < 1 or (args.processes > 1 and not args.db):
        parser.error("--processes above 1 needs --db postgresql://…: SQLite serves one process")
    if args.in_process and (args.db or args.processes > 1):
        parser.error("--in-process runs one bot on SQLite")
    if args.tracemalloc and (args.in_process or args.processes > 1):
        parser.error("--tracemalloc traces one bot process of its own")
    if args.tables < 1 or args.moves_per_table < 1:
        parser.error("--tables and --moves-per-table must be at least 1")
    if args.expert_tables < 0:
        parser.error("--expert-tables must be 0 or more")
    players = args.players or {"classic": 2, "three": 3, "elimination": 6}[args.mode]
    fixed = {"classic": 2, "three": 3}.get(args.mode)
    if (fixed is not None and players != fixed) or not 2 <= players <= 14:
        parser.error(f"--players must be {fixed or '2 to 14'} for {args.mode}")
    figures = asyncio.run(
        run_benchmark(
            args.tables,
            args.moves_per_table,
            args.seed,
            in_process=args.in_process,
            rate=args.rate,
            mode=args.mode,
            players=players,
            db=args.db,
            processes=args.processes,
            checked=not args.unchecked,
            expert_tables=args.expert_tables,
            trace=args.tracemalloc,
        )
    )
    print(report(figures))
    if figures.memory_report:
        print(figures.memory_report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
