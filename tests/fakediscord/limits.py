"""Discord's rate limits as the fake enforces them: the global limit and per-route buckets.

The global limit counts every request of the bot token in a sliding second, except
interaction callbacks and interaction webhooks (follow-ups, editing the original answer),
which Discord leaves out. Past it the request gets 429 with ``global: true``. Per-route
buckets are fixed windows that start with their first request, as Discord's are: creating
messages in one channel allows 5 per 5 s. A request in a bucket is answered with the headers
discord.py reads (``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After``,
``-Bucket``), so it waits before the bucket runs out; one past it gets 429 with
``X-RateLimit-Scope: user``.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

EXEMPT = ("/interactions/", "/webhooks/")  # Discord's global limit leaves these out


@dataclass(frozen=True)
class RouteLimit:
    """A per-route bucket: ``limit`` requests per ``per`` seconds for each major id."""

    method: str
    route: str  # as ``Rest.requests`` names it: ``POST /channels/{}/messages``
    limit: int
    per: float

    @property
    def bucket_hash(self) -> str:
        return hashlib.blake2b(f"{self.method} {self.route}".encode(), digest_size=8).hexdigest()


MESSAGE_CREATE = RouteLimit("POST", "/channels/{}/messages", 5, 5.0)


@dataclass
class RateLimits:
    """What the fake enforces. ``global_per_second`` None: no global limit; ``routes``
    empty: no per-route buckets. ``RateLimits.off()`` turns both off."""

    global_per_second: int | None = 50
    routes: tuple[RouteLimit, ...] = (MESSAGE_CREATE,)

    @classmethod
    def off(cls) -> RateLimits:
        return cls(global_per_second=None, routes=())


@dataclass
class Window:
    """One bucket's current window."""

    resets_at: float
    used: int = 0


@dataclass
class Verdict:
    """What the limiter says about one request: headers to add, and a 429 if refused."""

    headers: dict[str, str] = field(default_factory=dict)
    retry_after: float | None = None  # set: refused
    is_global: bool = False


class Limiter:
    """Counts the bot's requests against ``RateLimits``; ``clock`` is monotonic seconds."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._recent: deque[float] = deque()  # when each counted request of the last second came
        self._windows: dict[tuple[str, str], Window] = {}
        self.global_429s = 0
        self.route_429s: Counter[str] = Counter()
        self.peak_per_second = 0  # the most counted requests seen in one sliding second

    def check(self, method: str, path: str, route: str, major: str) -> Verdict:
        """Count a request (``route`` without ids; ``major``: its channel id or '')."""
        now = self.clock()
        if any(part in path for part in EXEMPT):
            return Verdict()
        per_second = self.limits.global_per_second
        recent = self._recent
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        if per_second is not None and len(recent) >= per_second:
            self.global_429s += 1
            return Verdict(retry_after=max(0.001, recent[0] + 1.0 - now), is_global=True)
        recent.append(now)
        self.peak_per_second = max(self.peak_per_second, len(recent))
        for limit in self.limits.routes:
            if limit.method == method and limit.route == route:
                return self._in_bucket(limit, major, now)
        return Verdict()

    def _in_bucket(self, limit: RouteLimit, major: str, now: float) -> Verdict:
        key = (limit.bucket_hash, major)
        window = self._windows.get(key)
        if window is None or now >= window.resets_at:
            window = self._windows[key] = Window(now + limit.per)
            if len(self._windows) > 4096:  # forget windows long over
                for old in [k for k, w in self._windows.items() if now >= w.resets_at]:
                    del self._windows[old]
        reset_after = window.resets_at - now
        refused = window.used >= limit.limit
        if not refused:
            window.used += 1
        headers = {
            "X-RateLimit-Limit": str(limit.limit),
            "X-RateLimit-Remaining": str(max(0, limit.limit - window.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": limit.bucket_hash,
        }
        if not refused:
            return Verdict(headers)
        self.route_429s[f"{limit.method} {limit.route}"] += 1
        headers["X-RateLimit-Scope"] = "user"
        return Verdict(headers, retry_after=reset_after)
