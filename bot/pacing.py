"""One budget for the REST calls a process makes, spent in order of priority.

Discord lets a bot token make about 50 requests a second in all (interaction answers aside)
and answers one past that with a 429 for the whole bot. discord.py learns that limit only from
the 429, so every request the bot makes through its HTTP client waits here first: at most
``per_second`` are under way or ended within any sliding second (a call counts from when it is
sent until a second after its answer came, so that no delay on the way can bring more than
that to Discord in one of its seconds), and when calls queue, the most urgent goes first.
A player whose turn begins goes before a showdown, a showdown before a spectator's table, and
deleting an old message last (it may wait, or be dropped). Low priorities also leave a share
of every second to the higher ones, so a busy bot updates spectators less often, never players
less promptly. Per-route buckets (5 messages per 5 s in a channel, say) are discord.py's own:
it reads them from the headers of each answer and waits before one runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import aiohttp

DEFAULT_PER_SECOND = 45.0  # Discord's global limit is 50: a margin for clocks and retries
WINDOW = 1.0  # seconds: the global limit counts a sliding second
# A call whose end was never seen (its task was cancelled between its turn and its request)
# stops counting this long after it started.
STUCK = 30.0
WAITS_KEPT = 50_000  # waits kept per priority for the figures' percentiles
# And no more than BURST_SHARE of the second's calls start in any BURST seconds: a second's
# calls are not sent in one burst, so that delays on the way cannot bunch two seconds' bursts
# into one of Discord's.
BURST = 0.2
BURST_SHARE = 0.3
EXEMPT = ("/interactions/", "/webhooks/")  # interaction answers: outside the global limit


class Priority(IntEnum):
    """How urgent a call is; smaller goes first."""

    TURN = 0  # the hand of a player whose turn begins: the hand-off
    PLAYER = 1  # any other private message to a player
    RESULT = 2  # showdowns, results, a new hand's table
    OTHER = 3  # anything not marked: challenges, lobbies, notices, start-up
    SPECTATOR = 4  # edits of the public table
    HOUSEKEEPING = 5  # deleting messages that are no longer needed


# The part of the budget a priority may use: a call starts only while the calls of the last
# second are fewer than this share of it, so the rest is kept for more urgent ones.
SHARE: dict[Priority, float] = {
    Priority.TURN: 1.0,
    Priority.PLAYER: 1.0,
    Priority.RESULT: 0.9,
    Priority.OTHER: 0.9,
    Priority.SPECTATOR: 0.8,
    Priority.HOUSEKEEPING: 0.6,
}

_priority: ContextVar[Priority] = ContextVar("gin_rest_priority", default=Priority.OTHER)
_prepaid: ContextVar[list[Call | None] | None] = ContextVar("gin_rest_prepaid", default=None)


class Dropped(Exception):
    """A call of low priority waited longer than it was worth and was not made."""


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """The REST calls made inside (and in tasks started inside) have this priority."""
    token = _priority.set(level)
    try:
        yield
    finally:
        _priority.reset(token)


def current_priority() -> Priority:
    return _priority.get()


@dataclass(eq=False, slots=True)
class Call:
    """One call's place in the budget: counted from its start until a WINDOW after it
    ended (``Budget.finish``)."""

    started: float
    ended: float | None = None

    def counts(self, now: float) -> bool:
        if self.ended is None:
            return now - self.started < STUCK
        return now - self.ended < WINDOW


@dataclass(order=True)
class _Waiter:
    level: int
    order: int
    future: asyncio.Future[Call] = field(compare=False)


class Budget:
    """At most ``per_second`` calls start in any sliding second; waiting calls start in
    order of priority, then of arrival. ``clock`` is monotonic seconds."""

    def __init__(
        self, per_second: float = DEFAULT_PER_SECOND, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if per_second <= 0:
            raise ValueError("a REST budget needs a positive number of calls per second")
        self.per_second = per_second
        self.clock = clock
        self._calls: deque[Call] = deque()  # the calls that may still count, oldest first
        self._waiting: list[_Waiter] = []
        self._order = itertools.count()
        self._wake: asyncio.TimerHandle | None = None
        self.granted: dict[Priority, int] = dict.fromkeys(Priority, 0)
        self.waited: dict[Priority, float] = dict.fromkeys(Priority, 0.0)  # seconds in all
        self.longest: dict[Priority, float] = dict.fromkeys(Priority, 0.0)
        # the latest waits of each priority, zero waits included, for percentiles
        self.waits: dict[Priority, deque[float]] = {p: deque(maxlen=WAITS_KEPT) for p in Priority}
        self.dropped = 0
        self.stuck = 0
        self.most_waiting = 0
        LAST[0] = self

    def _used(self, now: float) -> int:
        """Calls under way, or ended within the last WINDOW."""
        calls = self._calls
        while calls and not calls[0].counts(now):
            if calls.popleft().ended is None:
                self.stuck += 1  # its end was never seen
        return sum(1 for call in calls if call.counts(now))

    def _room(self, level: Priority, used: int, now: float) -> bool:
        if used >= max(1.0, SHARE[level] * self.per_second):
            return False
        return self._burst(now) < max(1.0, self.per_second * BURST_SHARE)

    def _burst(self, now: float) -> int:
        """Calls started in the last BURST seconds."""
        count = 0
        for call in reversed(self._calls):
            if call.started <= now - BURST:
                break
            count += 1
        return count

    @property
    def under_way(self) -> int:
        """Calls granted whose end was not seen yet."""
        now = self.clock()
        return sum(1 for call in self._calls if call.ended is None and call.counts(now))

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._waiting if not w.future.done())

    async def acquire(
        self, level: Priority | None = None, *, drop_after: float | None = None
    ) -> Call:
        """Wait for this call's turn; ``Dropped`` if it did not come within ``drop_after``
        seconds. The call counts until ``finish`` is told it ended."""
        level = current_priority() if level is None else level
        now = self.clock()
        if not self._waiting and self._room(level, self._used(now), now):
            self.waits[level].append(0.0)
            return self._grant(level, now)
        future: asyncio.Future[Call] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, _Waiter(int(level), next(self._order), future))
        self.most_waiting = max(self.most_waiting, len(self._waiting))
        self._pump()
        try:
            if drop_after is None:
                call = await future
            else:
                call = await asyncio.wait_for(asyncio.shield(future), drop_after)
            waited = self.clock() - now
            self.waited[level] += waited
            self.longest[level] = max(self.longest[level], waited)
            self.waits[level].append(waited)
            return call
        except TimeoutError:
            if future.done() and not future.cancelled():
                return future.result()  # granted just as the wait ran out: the call is made
            future.cancel()
            self.dropped += 1
            raise Dropped(f"waited {drop_after:g} s for a REST call of {level.name}") from None
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.finish(future.result())  # granted, but never made
            future.cancel()
            raise

    def _grant(self, level: Priority, now: float) -> Call:
        call = Call(now)
        self._calls.append(call)
        self.granted[level] += 1
        return call

    def finish(self, call: Call) -> None:
        """The call's answer came (or it failed): it counts for one WINDOW more."""
        if call.ended is None:
            call.ended = self.clock()
            if self._waiting:
                self._pump()  # when room frees up has changed

    def _pump(self) -> None:
        """Start every waiting call that has room now, most urgent first; then sleep until
        the oldest call of the window leaves it."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        now = self.clock()
        waiting = self._waiting
        while waiting:
            head = waiting[0]
            if head.future.done():  # dropped or cancelled while it waited
                heapq.heappop(waiting)
                continue
            level = Priority(head.level)
            if not self._room(level, self._used(now), now):
                break
            heapq.heappop(waiting)
            head.future.set_result(self._grant(level, now))
        frees = self._frees(now)
        if waiting and frees is not None:
            delay = max(0.0, frees - now) + 0.001
            self._wake = asyncio.get_running_loop().call_later(delay, self._pump)

    def _frees(self, now: float) -> float | None:
        """The next moment a call stops counting, or leaves the burst; None while every
        call counting is under way (its end pumps the queue)."""
        moments = [
            call.started + STUCK if call.ended is None else call.ended + WINDOW
            for call in self._calls
            if call.counts(now)
        ]
        moments += [c.started + BURST for c in self._calls if c.started > now - BURST][:1]
        return min(moments, default=None)

    @contextlib.asynccontextmanager
    async def spend(self, level: Priority) -> AsyncIterator[None]:
        """Wait for a call's turn first, then make it inside: what it sends can be worked
        out once its turn has come (the newest state of a table, say). The first request
        inside uses the turn; any more wait for theirs, at the same priority."""
        call = await self.acquire(level)
        prepaid: list[Call | None] = [call]
        token = _prepaid.set(prepaid)
        try:
            with priority(level):
                yield
        finally:
            _prepaid.reset(token)
            if prepaid[0] is not None:
                self.finish(call)  # no request used the turn

    async def before_request(self, path: str) -> Call | None:
        """Called before each request of the HTTP client: wait for its turn. The call it
        returns is to be finished when the request ends (None: it does not count)."""
        if any(part in path for part in EXEMPT):
            return None
        prepaid = _prepaid.get()
        if prepaid and prepaid[0] is not None:
            call, prepaid[0] = prepaid[0], None
            return call
        level = current_priority()
        drop_after = HOUSEKEEPING_PATIENCE if level is Priority.HOUSEKEEPING else None
        return await self.acquire(level, drop_after=drop_after)


HOUSEKEEPING_PATIENCE = 60.0  # seconds a deletion may wait before it is dropped
LAST: list[Budget | None] = [None]  # the budget made last, for a benchmark's report


def figures(budget: Budget) -> dict[str, Any]:
    """What the budget did, per priority: calls, seconds waited in all, the longest wait."""
    return {
        level.name: {
            "calls": budget.granted[level],
            "waited_s": round(budget.waited[level], 3),
            "p99_s": round(_p99(budget.waits[level]), 3),
            "longest_s": round(budget.longest[level], 3),
        }
        for level in Priority
    } | {
        "dropped": budget.dropped,
        "most_waiting": budget.most_waiting,
        "stuck": budget.stuck,
        "under_way": budget.under_way,
    }


def _p99(values: deque[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0


def share_of(per_second: float, shards_here: int, shards_in_all: int) -> float:
    """This process's part of the token's budget: in proportion to the shards it runs, as
    its tables (and so its calls) are the tables of its shards' servers."""
    if shards_in_all <= 0:
        return per_second
    return per_second * shards_here / shards_in_all


def install(client: Any, budget: Budget) -> None:
    """Make every request ``client`` sends wait for its turn in ``budget``.

    The wait is taken at the last moment, as aiohttp is about to send the request (a trace
    hook on the client's session), so that it is counted when Discord will count it: after
    discord.py's own waits for a route's bucket, and once for each try of a request that
    discord.py retries. Interaction answers go through the same session, and pass at once.
    """
    http = client.http
    request = http.request

    async def paced(route: Any, **kwargs: Any) -> Any:
        _pace_session(http, budget)  # the session is made at login, and again on reconnects
        return await request(route, **kwargs)

    http.request = paced


_PACED: weakref.WeakSet[aiohttp.ClientSession] = weakref.WeakSet()


def _pace_session(http: Any, budget: Budget) -> None:
    session = getattr(http, "_HTTPClient__session", None)
    if not isinstance(session, aiohttp.ClientSession) or session in _PACED:
        return

    async def before(
        _session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestStartParams
    ) -> None:
        context.gin_call = await budget.before_request(params.url.path)

    async def after(_session: aiohttp.ClientSession, context: Any, _params: Any) -> None:
        call = getattr(context, "gin_call", None)
        if call is not None:
            budget.finish(call)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(before)
    trace.on_request_end.append(after)
    trace.on_request_exception.append(after)
    trace.freeze()
    session.trace_configs.append(trace)
    _PACED.add(session)
