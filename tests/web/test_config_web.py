"""The web side's settings: off unless GIN_WEB_PORT is set, then a client secret is needed,
and neither the secret nor the token shows in the settings' repr or the log."""

from __future__ import annotations

import logging

import pytest

from bot.__main__ import setup_logging
from bot.config import ConfigError, load_config

TOKEN = "aaaa.bbbb.cccc"
NAMES = ("DISCORD_TOKEN", "GIN_WEB_PORT", "GIN_WEB_HOST", "GIN_CLIENT_SECRET", "GIN_DB")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)


def test_without_a_port_there_is_no_web_side(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIN_CLIENT_SECRET", "ignored")
    assert load_config(env_file=None).web is None
    monkeypatch.setenv("GIN_WEB_PORT", "")
    assert load_config(env_file=None).web is None


def test_a_port_needs_the_client_secret_and_a_port_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIN_WEB_PORT", "8080")
    with pytest.raises(ConfigError, match="GIN_CLIENT_SECRET"):
        load_config(env_file=None)
    monkeypatch.setenv("GIN_CLIENT_SECRET", "sekrit-value")
    for bad in ("0", "70000", "http", "-1"):
        monkeypatch.setenv("GIN_WEB_PORT", bad)
        with pytest.raises(ConfigError, match="GIN_WEB_PORT"):
            load_config(env_file=None)
    monkeypatch.setenv("GIN_WEB_PORT", "8080")
    web = load_config(env_file=None).web
    assert web is not None and (web.port, web.host) == (8080, "127.0.0.1")
    monkeypatch.setenv("GIN_WEB_HOST", "0.0.0.0")
    assert load_config(env_file=None).web.host == "0.0.0.0"  # type: ignore[union-attr]


def test_the_secret_is_never_shown(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("GIN_WEB_PORT", "8080")
    monkeypatch.setenv("GIN_CLIENT_SECRET", "sekrit-value")
    config = load_config(env_file=None)
    assert "sekrit-value" not in repr(config) and "127.0.0.1:8080" in repr(config)
    root = logging.getLogger()
    kept, level = root.handlers[:], root.level
    try:
        setup_logging(config)
        handler = root.handlers[0]
        record = logging.LogRecord("x", logging.INFO, "", 0, "secret: %s", ("sekrit-value",), None)
        assert handler.filter(record) and "sekrit-value" not in record.getMessage()
    finally:
        root.handlers[:] = kept
        root.setLevel(level)
