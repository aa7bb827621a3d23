from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import SqliteStore


@pytest.fixture
async def store() -> AsyncIterator[SqliteStore]:
    async with SqliteStore(":memory:") as opened:
        yield opened


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A file path in a folder that does not exist yet: open() must create it."""
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def file_store(db_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(db_path) as opened:
        yield opened
