"""Every test fails on a request the bot sent that Discord would refuse."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

import pytest

from tests.fakediscord import server
from tests.fakediscord.openapi import Violation


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core (at most 16). Many end-to-end tests spend much of their
    time waiting out Discord's rate limits, as the fake enforces them, rather than on a core
    (on two cores: 7.5 min with four workers, 12 min with three)."""
    return min(16, 2 * (os.cpu_count() or 1))


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
