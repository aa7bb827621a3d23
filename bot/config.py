"""Settings read from the environment (and `.env`), checked once at start-up."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.store.postgres import SCHEMES, is_postgres_url, redact

DEFAULT_DB = "data/gin.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A missing or malformed setting; the message says what to set and where."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    db_path: Path
    dev_guild: int | None
    log_level: str
    bot_delay: float = 1.0  # seconds the computer opponent waits before each move
    card_emojis: bool = True  # upload and show the cards as application emojis
    # GIN_DB as a postgresql:// URL: the tables live in PostgreSQL, and db_path is unused.
    db_url: str | None = None

    @property
    def database(self) -> str | Path:
        """What the store opens: the PostgreSQL URL if there is one, else the SQLite file."""
        return self.db_url or self.db_path

    @property
    def database_shown(self) -> str:
        """The database for logs and messages, without a password."""
        return redact(self.db_url) if self.db_url else str(self.db_path)

    def __repr__(self) -> str:  # never show the token, even in a traceback or a debug log
        return (
            f"Config(token=<hidden>, database={self.database_shown!r}, "
            f"dev_guild={self.dev_guild!r}, log_level={self.log_level!r}, "
            f"bot_delay={self.bot_delay!r}, card_emojis={self.card_emojis!r})"
        )


def load_config(env_file: str | None = ".env") -> Config:
    """Read DISCORD_TOKEN, GIN_DB, GIN_DEV_GUILD, LOG_LEVEL, GIN_BOT_DELAY and
    GIN_CARD_EMOJIS (the real environment wins over .env)."""
    if env_file:
        load_dotenv(env_file, override=False)
    where = "in the environment or in .env (see .env.example)"
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(f"DISCORD_TOKEN is not set: put your bot token {where}.")
    if any(ch.isspace() for ch in token) or token.count(".") != 2:
        raise ConfigError(
            "DISCORD_TOKEN does not look like a bot token (three parts separated by dots): "
            f"copy it again from the Developer Portal's Bot page and set it {where}."
        )
    db_text = os.environ.get("GIN_DB", "").strip() or DEFAULT_DB
    db_url = db_text if is_postgres_url(db_text) else None
    if db_url is None and "://" in db_text:
        raise ConfigError(
            f"GIN_DB must be a SQLite file path or a {' or '.join(SCHEMES)} URL, not "
            f"{redact(db_text)!r}."
        )
    guild_text = os.environ.get("GIN_DEV_GUILD", "").strip()
    dev_guild: int | None = None
    if guild_text:
        if not guild_text.isdigit():
            raise ConfigError(
                f"GIN_DEV_GUILD must be a server id (digits only), not {guild_text!r}: with "
                "Developer Mode on, right-click the server, Copy Server ID, and set it "
                f"{where}."
            )
        dev_guild = int(guild_text)
    level = os.environ.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
    delay_text = os.environ.get("GIN_BOT_DELAY", "").strip() or "1.0"
    try:
        bot_delay = float(delay_text)
    except ValueError:
        bot_delay = -1.0
    if not 0 <= bot_delay <= 30:
        raise ConfigError(
            f"GIN_BOT_DELAY must be a number of seconds from 0 to 30, not {delay_text!r}."
        )
    emojis_text = os.environ.get("GIN_CARD_EMOJIS", "").strip().lower() or "on"
    if emojis_text not in ("on", "off"):
        raise ConfigError(f"GIN_CARD_EMOJIS must be on or off, not {emojis_text!r}.")
    return Config(
        token=token,
        db_path=Path(DEFAULT_DB if db_url else db_text),
        db_url=db_url,
        dev_guild=dev_guild,
        log_level=level,
        bot_delay=bot_delay,
        card_emojis=emojis_text == "on",
    )


class RedactToken(logging.Filter):
    """Blanks the bot token out of any log record, whoever logs it."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token and self.token in record.getMessage():
            record.msg = record.getMessage().replace(self.token, "<token>")
            record.args = ()
        return True
