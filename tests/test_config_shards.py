"""GIN_SHARD_COUNT and GIN_SHARD_IDS: which shards this process runs, checked at start-up."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.config import ConfigError, Shards, load_config, parse_shards
from tests.test_config import refused_start

TOKEN = "MTIz.abc.def"
ROOT = Path(__file__).resolve().parents[1]
PG = "postgresql://gin@db:5432/gin"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GIN_DB", "GIN_SHARD_COUNT", "GIN_SHARD_IDS", "GIN_DEV_GUILD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("", "", None),
        ("4", "", (0, 1, 2, 3)),
        ("4", "0-3", (0, 1, 2, 3)),
        ("4", "0,2", (0, 2)),
        ("8", "0-1, 4,6-7", (0, 1, 4, 6, 7)),
        ("2", "1", (1,)),
        ("3", "2,0,2", (0, 2)),
    ],
)
def test_shard_ids_and_ranges(count: str, ids: str, expected: tuple[int, ...] | None) -> None:
    shards = parse_shards(count, ids)
    assert (None if shards is None else shards.ids) == expected


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        ("", "0-1", "GIN_SHARD_COUNT must be"),
        ("0", "0", "GIN_SHARD_COUNT must be"),
        ("two", "0", "GIN_SHARD_COUNT must be"),
        ("2", "0-2", "names shard 2, but GIN_SHARD_COUNT=2"),
        ("4", "3-1", "backwards"),
        ("4", "a,b", "GIN_SHARD_IDS must list"),
        ("4", "0-1-2", "GIN_SHARD_IDS must list"),
        ("4", "1,", "GIN_SHARD_IDS must list"),
        ("4", "-1", "GIN_SHARD_IDS must list"),
    ],
)
def test_bad_shard_settings_say_what_to_set(count: str, ids: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        parse_shards(count, ids)


def test_guilds_go_to_their_shard_and_dms_to_shard_zero() -> None:
    first, second = Shards(2, (0,)), Shards(2, (1,))
    on_one = (12345 << 22) | 99  # (id >> 22) % 2 == 1
    assert first.of_guild(on_one) == 1 and second.covers(on_one) and not first.covers(on_one)
    assert first.covers(None) and not second.covers(None)
    assert first.partial and not Shards(2, (0, 1)).partial


def test_some_shards_with_postgres(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIN_DB", PG)
    monkeypatch.setenv("GIN_SHARD_COUNT", "2")
    monkeypatch.setenv("GIN_SHARD_IDS", "1")
    config = load_config(env_file=None)
    assert config.shards == Shards(2, (1,)) and config.fleet
    assert "shards=" in repr(config)


def test_unset_is_one_process_as_before() -> None:
    config = load_config(env_file=None)
    assert config.shards is None and not config.fleet


def test_every_shard_in_one_process_may_keep_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIN_SHARD_COUNT", "2")
    config = load_config(env_file=None)
    assert config.shards == Shards(2, (0, 1)) and not config.fleet


def test_several_processes_refuse_sqlite_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIN_")}
    env |= {"DISCORD_TOKEN": TOKEN, "GIN_SHARD_COUNT": "2", "GIN_SHARD_IDS": "0"}
    lines = refused_start(env, tmp_path)
    assert len(lines) == 1 and "must share a PostgreSQL database" in lines[0], lines
