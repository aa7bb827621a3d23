"""Settings read from the environment (and `.env`), checked once at start-up."""

from __future__ import annotations

import logging
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

from bot.store.postgres import SCHEMES, is_postgres_url, redact

DEFAULT_DB = "data/gin.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A missing or malformed setting; the message says what to set and where."""


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards of the whole bot (``count``) that this process runs (``ids``)."""

    count: int
    ids: tuple[int, ...]

    @property
    def partial(self) -> bool:
        """Whether other processes run the rest: this one has only some of the shards."""
        return len(self.ids) < self.count

    def of_guild(self, guild_id: int) -> int:
        """The shard Discord sends a guild's events to."""
        return (guild_id >> 22) % self.count

    def covers(self, guild_id: int | None) -> bool:
        """Whether this process receives the guild's events (DMs arrive on shard 0)."""
        shard = 0 if guild_id is None else self.of_guild(guild_id)
        return shard in self.ids

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


MAX_SHARDS = 65536
MAX_EXPERT_WORKERS = 64


def parse_shards(count_text: str, ids_text: str) -> Shards | None:
    """``GIN_SHARD_COUNT`` and ``GIN_SHARD_IDS`` (``0-3``, ``0,2`` or ``0-1,4``); both
    empty: None (one process runs every shard, as many as Discord says)."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text and not ids_text:
        return None
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
        raise ConfigError(
            f"GIN_SHARD_COUNT must be the number of shards of the whole bot (1 to "
            f"{MAX_SHARDS}), not {count_text!r}; set it with GIN_SHARD_IDS, or neither."
        )
    count = int(count_text)
    if not ids_text:
        return Shards(count, tuple(range(count)))
    ids: set[int] = set()
    for part in ids_text.split(","):
        bounds = part.strip().split("-")
        if len(bounds) > 2 or not all(b.strip().isdigit() for b in bounds):
            raise ConfigError(
                f"GIN_SHARD_IDS must list shard numbers and ranges such as 0-3 or 0,2, not "
                f"{ids_text!r}."
            )
        first, last = int(bounds[0]), int(bounds[-1])
        if first > last:
            raise ConfigError(f"GIN_SHARD_IDS has the range {part.strip()!r} backwards.")
        if last >= count:
            raise ConfigError(
                f"GIN_SHARD_IDS names shard {last}, but GIN_SHARD_COUNT={count} numbers the "
                f"shards 0 to {count - 1}."
            )
        ids.update(range(first, last + 1))
    return Shards(count, tuple(sorted(ids)))


@dataclass(frozen=True, slots=True)
class WebSettings:
    """The Activity's web server (GIN_WEB_PORT, GIN_WEB_HOST, GIN_CLIENT_SECRET)."""

    port: int
    host: str
    client_secret: str = field(repr=False)


def parse_web(port_text: str, host_text: str, secret: str) -> WebSettings | None:
    """The web side's settings; None (no web server) when GIN_WEB_PORT is unset."""
    port_text, host_text, secret = port_text.strip(), host_text.strip(), secret.strip()
    if not port_text:
        return None
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(
            f"GIN_WEB_PORT must be the port of the Activity's web server (1 to 65535), not "
            f"{port_text!r}; leave it unset to run without the Activity."
        )
    if not secret:
        raise ConfigError(
            "GIN_WEB_PORT is set, so GIN_CLIENT_SECRET must be too: copy the client secret "
            "from the Developer Portal's OAuth2 page (the Activity signs players in with it)."
        )
    if any(ch.isspace() for ch in host_text):
        raise ConfigError(f"GIN_WEB_HOST must be an address to listen on, not {host_text!r}.")
    return WebSettings(int(port_text), host_text or "127.0.0.1", secret)


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
    shards: Shards | None = None  # GIN_SHARD_COUNT / GIN_SHARD_IDS; None: one process, all
    # GIN_REST_PER_SECOND: REST calls a second for the whole bot token (Discord allows 50
    # unless it raised the bot's limit); each process takes its shards' share.
    rest_per_second: float = 45.0
    # GIN_EXPERT_WORKERS: processes that think out the expert opponent's moves, off the loop.
    expert_workers: int = 1
    # GIN_WEB_PORT / GIN_WEB_HOST / GIN_CLIENT_SECRET: the Activity's web server (None: off).
    web: WebSettings | None = None

    @property
    def rest_share(self) -> float:
        """The REST calls a second this process may make: its shards' part of the token's."""
        if self.shards is None:
            return self.rest_per_second
        return self.rest_per_second * len(self.shards.ids) / self.shards.count

    @property
    def fleet(self) -> bool:
        """Whether other processes run the bot's other shards on the same database."""
        return self.shards is not None and self.shards.partial

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
            f"bot_delay={self.bot_delay!r}, card_emojis={self.card_emojis!r}, "
            f"shards={self.shards!r}, rest_per_second={self.rest_per_second!r}, "
            f"expert_workers={self.expert_workers!r}, "
            f"web={'off' if self.web is None else f'{self.web.host}:{self.web.port}'})"
        )


def load_config(env_file: str | None = ".env") -> Config:
    """Read DISCORD_TOKEN, GIN_DB, GIN_DEV_GUILD, LOG_LEVEL, GIN_BOT_DELAY,
    GIN_CARD_EMOJIS, GIN_SHARD_COUNT, GIN_SHARD_IDS, GIN_REST_PER_SECOND,
    GIN_EXPERT_WORKERS and GIN_WEB_PORT, GIN_WEB_HOST, GIN_CLIENT_SECRET (the real
    environment wins over .env)."""
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
    bot_delay, delay_text = _number("GIN_BOT_DELAY", "1.0")
    if not 0 <= bot_delay <= 30:
        raise ConfigError(
            f"GIN_BOT_DELAY must be a number of seconds from 0 to 30, not {delay_text!r}."
        )
    emojis_text = os.environ.get("GIN_CARD_EMOJIS", "").strip().lower() or "on"
    if emojis_text not in ("on", "off"):
        raise ConfigError(f"GIN_CARD_EMOJIS must be on or off, not {emojis_text!r}.")
    rest_per_second, rest_text = _number("GIN_REST_PER_SECOND", "45")
    if not 1.0 <= rest_per_second <= 10_000.0:
        raise ConfigError(
            f"GIN_REST_PER_SECOND must be the REST calls a second Discord allows the bot "
            f"token, a number from 1 to 10000 (45 leaves a margin under the usual 50), not "
            f"{rest_text!r}."
        )
    workers_text = os.environ.get("GIN_EXPERT_WORKERS", "").strip() or "1"
    if not workers_text.isdigit() or not 1 <= int(workers_text) <= MAX_EXPERT_WORKERS:
        raise ConfigError(
            f"GIN_EXPERT_WORKERS must be the number of processes that think out the expert "
            f"opponent's moves, from 1 to {MAX_EXPERT_WORKERS}, not {workers_text!r}."
        )
    shards = parse_shards(
        os.environ.get("GIN_SHARD_COUNT", ""), os.environ.get("GIN_SHARD_IDS", "")
    )
    if shards is not None and shards.partial and db_url is None:
        raise ConfigError(
            f"GIN_SHARD_IDS runs {shards} in this process, so other processes run the rest: "
            "they must share a PostgreSQL database (set GIN_DB to a postgresql:// URL), not "
            "SQLite."
        )
    return Config(
        token=token,
        db_path=Path(DEFAULT_DB if db_url else db_text),
        db_url=db_url,
        dev_guild=dev_guild,
        log_level=level,
        bot_delay=bot_delay,
        card_emojis=emojis_text == "on",
        shards=shards,
        rest_per_second=rest_per_second,
        expert_workers=int(workers_text),
        web=parse_web(
            os.environ.get("GIN_WEB_PORT", ""),
            os.environ.get("GIN_WEB_HOST", ""),
            os.environ.get("GIN_CLIENT_SECRET", ""),
        ),
    )


def _number(name: str, default: str) -> tuple[float, str]:
    """A setting read as a number, and its text; NaN (outside every range) if it is none."""
    text = os.environ.get(name, "").strip() or default
    try:
        return float(text), text
    except ValueError:
        return math.nan, text


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
