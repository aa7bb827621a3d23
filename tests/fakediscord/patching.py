"""Points the unmodified discord.py at a fake Discord for the current process."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import discord
import discord.asset
import discord.gateway
import discord.http
import yarl


def _targets() -> tuple[Any, Any, Any]:
    return discord.http.Route, discord.gateway.DiscordWebSocket, discord.asset.Asset


def apply_patch(http_base: str, gateway_url: str) -> tuple[str, yarl.URL, str]:
    """Sets discord.py's REST base, default gateway and CDN base; returns the old values.

    `http_base` is like `http://127.0.0.1:PORT/api/v10`, `gateway_url` like
    `ws://127.0.0.1:PORT/gateway`. A plain Client connects to DEFAULT_GATEWAY directly
    (only AutoShardedClient asks GET /gateway/bot); after READY it resumes at the
    `resume_gateway_url` the fake hands out, which points back at the fake.
    """
    route, socket, asset = _targets()
    saved = (route.BASE, socket.DEFAULT_GATEWAY, asset.BASE)
    root = http_base.split("/api/", 1)[0]
    route.BASE = http_base.rstrip("/")
    socket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    asset.BASE = f"{root}/cdn"
    return saved


def restore_patch(saved: tuple[str, yarl.URL, str]) -> None:
    route, socket, asset = _targets()
    route.BASE, socket.DEFAULT_GATEWAY, asset.BASE = saved


@contextlib.contextmanager
def patch_discord(http_base: str, gateway_url: str) -> Iterator[None]:
    """`apply_patch` for the duration of a `with` block (an in-process bot's lifetime)."""
    saved = apply_patch(http_base, gateway_url)
    try:
        yield
    finally:
        restore_patch(saved)
