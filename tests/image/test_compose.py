"""docker-compose.yml as `docker-compose config` reads it, with a `.env` made as the README says:
valid, PostgreSQL ready over TCP before the bots start, any password, every setting passed on.

Run with the image test (`python -m pytest -m image`); needs Debian's docker-compose.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import load_config
from tests.image.containers import ROOT

pytestmark = pytest.mark.image

PASSWORD = "p@ss:w/rd?x#y%z 1"  # every character a URL would trip over
TOKEN = "fake.bot.token"


def composed(tmp_path: Path, *files: str, **settings: str) -> dict[str, Any]:
    """`docker-compose config` of the project's compose file (and ``files`` over it) beside
    a `.env` copied from `.env.example` with these settings filled in."""
    if shutil.which("docker-compose") is None:
        raise AssertionError("docker-compose missing: apt-get install -y docker-compose")
    for name in ("docker-compose.yml", *files):
        shutil.copy(ROOT / name, tmp_path)
    lines = []
    for line in (ROOT / ".env.example").read_text().splitlines():
        name = line.split("=", 1)[0]
        lines.append(f"{name}={settings.pop(name)}" if name in settings else line)
    lines += [f"{name}={value}" for name, value in settings.items()]
    (tmp_path / ".env").write_text("\n".join(lines) + "\n")
    chosen = [arg for name in ("docker-compose.yml", *files) for arg in ("-f", name)]
    done = subprocess.run(
        ["docker-compose", *(chosen if files else []), "config"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = yaml.safe_load(done.stdout)
    return config


def test_the_compose_file_is_valid_and_passes_everything_on(tmp_path: Path) -> None:
    config = composed(
        tmp_path,
        DISCORD_TOKEN=TOKEN,
        POSTGRES_PASSWORD=f"'{PASSWORD}'",
        LOG_LEVEL="DEBUG",
        GIN_BOT_DELAY="2.5",
    )
    services = config["services"]
    assert set(services) == {"db", "bot-shard-0", "bot-shard-1"}
    assert services["db"]["environment"]["POSTGRES_PASSWORD"] == PASSWORD
    for shard in (0, 1):
        bot = services[f"bot-shard-{shard}"]
        env = bot["environment"]
        # The password reaches the client whole, apart from the URL it would break.
        assert env["GIN_DB"] == "postgresql://gin@db:5432/gin"
        assert env["PGPASSWORD"] == PASSWORD
        # What people put in .env reaches the bots.
        assert (env["LOG_LEVEL"], env["GIN_BOT_DELAY"]) == ("DEBUG", "2.5")
        assert (env["GIN_SHARD_COUNT"], env["GIN_SHARD_IDS"]) == ("2", str(shard))
        assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
        assert bot["restart"] == "unless-stopped"


def test_the_bots_read_those_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = composed(tmp_path, DISCORD_TOKEN=TOKEN, POSTGRES_PASSWORD=PASSWORD)["services"][
        "bot-shard-1"
    ]["environment"]
    for name, value in env.items():
        monkeypatch.setenv(name, str(value))
    config = load_config(env_file=None)
    assert config.db_url == "postgresql://gin@db:5432/gin"
    assert config.shards is not None and str(config.shards) == "shards 1 of 2"
    assert PASSWORD not in config.database_shown


def test_postgres_is_ready_only_over_tcp_and_with_its_database(tmp_path: Path) -> None:
    check = composed(tmp_path, DISCORD_TOKEN=TOKEN, POSTGRES_PASSWORD=PASSWORD)["services"]["db"][
        "healthcheck"
    ]
    test = " ".join(check["test"])
    assert check["test"][0] == "CMD-SHELL"
    assert "pg_isready -h 127.0.0.1 -p 5432" in test  # TCP, not the socket
    assert "psql -h 127.0.0.1 -p 5432 -U gin -d gin" in test  # the database itself answers


def test_a_missing_password_or_token_is_named(tmp_path: Path) -> None:
    shutil.copy(ROOT / "docker-compose.yml", tmp_path)
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n")
    done = subprocess.run(
        ["docker-compose", "config"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode != 0 and "set POSTGRES_PASSWORD in .env" in done.stderr


def test_the_activity_puts_shard_0_behind_caddy(tmp_path: Path) -> None:
    """docker-compose.activity.yml over the base file: shard 0's process serves the page,
    Caddy proxies HTTPS for the domain to it, the client secret passed on; shard 1 serves
    nothing even when .env names a port (.env reaches every process)."""
    config = composed(
        tmp_path,
        "docker-compose.activity.yml",
        DISCORD_TOKEN=TOKEN,
        POSTGRES_PASSWORD=PASSWORD,
        GIN_WEB_PORT="9000",
        GIN_CLIENT_SECRET="s3cret",
        GIN_WEB_DOMAIN="gin.example.org",
    )
    services = config["services"]
    web = services["bot-shard-0"]["environment"]
    assert (web["GIN_WEB_PORT"], web["GIN_WEB_HOST"]) == ("8080", "0.0.0.0")
    assert web["GIN_CLIENT_SECRET"] == "s3cret"
    assert services["bot-shard-1"]["environment"]["GIN_WEB_PORT"] == ""
    caddy = services["caddy"]
    assert caddy["command"] == [
        "caddy",
        "reverse-proxy",
        "--from",
        "gin.example.org",
        "--to",
        "bot-shard-0:8080",
    ]
    assert sorted((p["published"], p["target"]) for p in caddy["ports"]) == [(80, 80), (443, 443)]
