"""The store fixtures of tests/store (each test on SQLite and on PostgreSQL), and a clock a
test moves by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.store.conftest import backend, database, db_path, store

__all__ = ["Clock", "backend", "clock", "database", "db_path", "store"]


class Clock:
    """``now()`` stands still until a test moves it."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **amount: float) -> datetime:
        self.now += timedelta(**amount)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2025, 3, 10, 12, 0, tzinfo=UTC))
