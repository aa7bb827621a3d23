"""Start-up settings: clear one-line errors, defaults, and the token kept out of logs."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, RedactToken, load_config

TOKEN = "MTIz.abc.def"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "GIN_DB", "GIN_DEV_GUILD", "LOG_LEVEL", "GIN_CARD_EMOJIS"):
        monkeypatch.delenv(name, raising=False)


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    config = load_config(env_file=None)
    assert str(config.db_path) == "data/gin.sqlite3"
    assert config.db_url is None and config.database == Path("data/gin.sqlite3")
    assert config.dev_guild is None and config.log_level == "INFO"
    assert config.card_emojis
    assert TOKEN not in repr(config)


def test_card_emojis_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("GIN_CARD_EMOJIS", "OFF")
    assert not load_config(env_file=None).card_emojis


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_a_postgres_url_chooses_postgres_and_hides_its_password(
    scheme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"{scheme}://gin:s3cret@db.internal:5432/gin?search_path=bot"
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("GIN_DB", url)
    config = load_config(env_file=None)
    assert config.db_url == url and config.database == url
    assert config.database_shown == f"{scheme}://gin:***@db.internal:5432/gin?search_path=bot"
    assert "s3cret" not in repr(config)


def test_a_file_path_stays_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("GIN_DB", "/var/lib/gin/bot.sqlite3")
    config = load_config(env_file=None)
    assert config.db_url is None and config.database == Path("/var/lib/gin/bot.sqlite3")


def test_dotenv_file_is_read_and_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN={TOKEN}\nGIN_DEV_GUILD=123\nLOG_LEVEL=debug\n")
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    config = load_config(env_file=str(env))
    assert config.token == TOKEN and config.dev_guild == 123 and config.log_level == "WARNING"


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "nodots"}, "does not look like a bot token"),
        ({"DISCORD_TOKEN": TOKEN, "GIN_DEV_GUILD": "my-server"}, "GIN_DEV_GUILD must be"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": TOKEN, "GIN_CARD_EMOJIS": "maybe"}, "GIN_CARD_EMOJIS must be"),
        ({"DISCORD_TOKEN": TOKEN, "GIN_DB": "mysql://gin@db/gin"}, "GIN_DB must be a SQLite"),
    ],
)
def test_bad_settings_say_what_to_set(
    env: dict[str, str], says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=says):
        load_config(env_file=None)


def refused_start(env: dict[str, str], folder: Path) -> list[str]:
    """Start ``python -m bot`` in ``folder`` with ``env``: it must stop with exit code 2;
    the lines it wrote to stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=folder,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    return done.stderr.strip().splitlines()


def test_missing_token_stops_start_up_with_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "GIN_DEV_GUILD")}
    lines = refused_start(env, tmp_path)
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0]
    assert not any("Traceback" in line for line in lines)


def test_token_is_redacted_from_logs(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("redact-test")
    logger.addFilter(RedactToken(TOKEN))
    with caplog.at_level(logging.INFO, logger="redact-test"):
        logger.info("connecting with %s", TOKEN)
    assert TOKEN not in caplog.text and "<token>" in caplog.text
