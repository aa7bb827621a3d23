"""Every test fails on a request the bot sent that Discord would refuse; every test's deals
are the same each run; tests that start a fleet of bot processes take turns for the machine's
cores."""

from __future__ import annotations

import fcntl
import itertools
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

import pytest

from bot.gin import shuffle
from tests.fakediscord import server
from tests.fakediscord.openapi import Violation


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core (at most 16). Many end-to-end tests spend much of their
    time waiting out Discord's rate limits, as the fake enforces them, rather than on a core
    (on two cores: 7.5 min with four workers, 12 min with three)."""
    return min(16, 2 * (os.cpu_count() or 1))


# A fleet test (marked ``fleet``) runs two bot processes (each with its expert and picture
# workers) on PostgreSQL, besides the fake Discord and the test: at start-up, and when a test
# restarts one, each bot process wants a core to itself for seconds, while Discord gives an
# interaction 3 s. Two fleets at once on two cores (``-n 4`` over tests/e2e/test_fleet.py,
# eight bot processes) answered commands after 3 s in every run; one at a time, never. So a
# fleet test waits, before its timeout starts, for one of ``cores // CORES_PER_FLEET`` slots
# (at least one) shared by every test run on the machine; other tests go on meanwhile.
# ``GIN_TEST_FLEETS`` sets the number of slots instead.
CORES_PER_FLEET = 2
FLEET_SLOTS = Path(tempfile.gettempdir()) / "gin-test-fleets"


def fleet_slots() -> int:
    """How many fleet tests may run at once on this machine."""
    configured = os.environ.get("GIN_TEST_FLEETS", "").strip()
    if configured:
        return max(1, int(configured))
    return max(1, (os.cpu_count() or 1) // CORES_PER_FLEET)


@contextmanager
def fleet_slot(poll: float = 0.1) -> Iterator[int]:
    """Hold one of the machine's fleet slots (a file lock, freed even if the process dies)."""
    FLEET_SLOTS.mkdir(exist_ok=True)
    with ExitStack() as files:
        slots: list[IO[str]] = [
            files.enter_context(open(FLEET_SLOTS / f"slot-{n}", "a")) for n in range(fleet_slots())
        ]
        while True:
            for number, slot in enumerate(slots):
                try:
                    fcntl.flock(slot, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                try:
                    yield number
                finally:
                    fcntl.flock(slot, fcntl.LOCK_UN)
                return
            time.sleep(poll)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """A fleet test runs (set-up to teardown) only while it holds a fleet slot; waiting for
    one is outside its timeout, whose hook this one wraps."""
    if item.get_closest_marker("fleet") is None:
        yield
        return
    with fleet_slot():
        yield


SHOWN = 20  # violations listed in a failure; the rest are counted


def violations_report(violations: Sequence[Violation]) -> str | None:
    """What a test that caused these violations fails with (None: there are none)."""
    if not violations:
        return None
    lines = [str(v) for v in violations[:SHOWN]]
    if len(violations) > SHOWN:
        lines.append(f"... and {len(violations) - SHOWN} more")
    return "the bot sent what Discord would refuse:\n  " + "\n  ".join(lines)


@pytest.fixture(autouse=True)
def discord_would_accept(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the test (and its own fixtures' teardown), no fake it made saw a request that
    breaks Discord's spec or its documented limits. A test of the fake itself that sends
    such requests on purpose is marked `refused_on_purpose` and checks the refusals itself."""
    server.CREATED.clear()
    yield
    fakes, server.CREATED[:] = list(server.CREATED), []
    if request.node.get_closest_marker("refused_on_purpose") is not None:
        return
    report = violations_report([v for fake in fakes for v in fake.violations])
    if report is not None:
        pytest.fail(report, pytrace=False)


@pytest.fixture(autouse=True)
def same_deals_every_run(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A match dealt with no seed of its own (as the bot deals them) takes its seeds from a
    stream named after the test: each run of a test plays the same cards, so a deal that
    breaks a test breaks it every time, not once in a hundred runs. (A bot in a process of
    its own deals from a stream of the same name: ``tests.fakediscord.bootstrap``.)"""
    counter = itertools.count()
    name = request.node.nodeid

    def next_seed() -> str:
        return shuffle.derive_seed(name, str(next(counter)))

    real = shuffle.new_seed
    for module in list(sys.modules.values()):
        if getattr(module, "new_seed", None) is real:
            monkeypatch.setattr(module, "new_seed", next_seed)
    monkeypatch.setenv("GIN_TEST_DEALS", name)
    yield
