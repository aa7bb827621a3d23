"""Who is at the other end of a socket: Discord's OAuth2 code exchange, the user behind an
access token, the Activity instance they are in, and the bot's own signed sessions after that.

The client secret is used only here, sent only to Discord's token route, and never logged.
A socket is trusted with a user once Discord said who the access token belongs to and that
the user is in the Activity instance they name (checked with the bot token, as Discord
advises against spoofed clients); from then on the bot's own session (signed with a key made
from the client secret) says the same on a reconnect, to any process of the bot, with no call
to Discord.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
import discord
import orjson
from discord.http import Route

log = logging.getLogger(__name__)

SESSION_SECONDS = 12 * 3600  # a session outlives a long match, not a day
DISCORD_TIMEOUT = aiohttp.ClientTimeout(total=10)


class AuthError(Exception):
    """Discord did not vouch for the socket (a refused code or token, no such instance, a
    user not in it); the message says so without any secret."""


@dataclass(frozen=True, slots=True)
class Identity:
    """A user the bot has verified, and where their Activity runs."""

    user_id: str
    name: str
    channel_id: str
    guild_id: str
    instance: str


class Instances(Protocol):
    """The bot's view of Activity instances (with the bot token)."""

    async def instance(self, instance_id: str) -> dict[str, Any] | None: ...


class BotInstances:
    """Asks Discord about an instance through the bot's own HTTP client (its rate limits and
    REST budget apply)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def instance(self, instance_id: str) -> dict[str, Any] | None:
        route = Route(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self.client.application_id,
            instance_id=instance_id,
        )
        try:
            found: Any = await self.client.http.request(route)
        except discord.NotFound:
            return None
        return found if isinstance(found, dict) else None


class DiscordAuth:
    """The OAuth2 calls of an Activity's server, and the bot's sessions."""

    def __init__(self, client_id: str, client_secret: str, instances: Instances) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._key = hmac.new(client_secret.encode(), b"gin-activity-session", "sha256").digest()
        self.instances = instances
        self._http: aiohttp.ClientSession | None = None

    def __repr__(self) -> str:  # never the secret
        return f"DiscordAuth(client_id={self.client_id!r})"

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=DISCORD_TIMEOUT)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def exchange(self, code: str) -> str:
        """An authorization code for an access token (``AuthError`` if Discord refuses)."""
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self._session().post(f"{Route.BASE}/oauth2/token", data=form) as response:
            body = await _json(response)
            if response.status >= 500 or response.status == 429:
                raise ConnectionError(f"Discord answered {response.status}")
            token = body.get("access_token") if response.status == 200 else None
            if not isinstance(token, str) or not token:
                reason = str(body.get("error") or response.status)
                raise AuthError(f"Discord refused the code ({reason[:60]})")
            return token

    async def user(self, access_token: str) -> tuple[str, str]:
        """The user an access token belongs to: their id and the name they go by."""
        headers = {"Authorization": f"Bearer {access_token}"}
        async with self._session().get(f"{Route.BASE}/users/@me", headers=headers) as response:
            body = await _json(response)
            if response.status >= 500 or response.status == 429:
                raise ConnectionError(f"Discord answered {response.status}")
            user_id = body.get("id") if response.status == 200 else None
            if not isinstance(user_id, str) or not user_id.isdigit():
                raise AuthError("Discord did not accept the access token")
            name = body.get("global_name") or body.get("username") or user_id
            return user_id, str(name)[:100]

    async def identify(self, access_token: str, instance_id: str, channel_id: str) -> Identity:
        """Who the token's user is, checked to be in the instance, which runs in the
        channel they name."""
        user_id, name = await self.user(access_token)
        instance = await self.instances.instance(instance_id)
        if instance is None:
            raise AuthError("Discord knows no such Activity instance")
        location = instance.get("location") or {}
        if str(location.get("channel_id")) != channel_id:
            raise AuthError("That Activity instance runs in another channel")
        users = {str(u) for u in instance.get("users") or ()}
        if user_id not in users:
            raise AuthError("You are not in that Activity instance")
        guild = str(location.get("guild_id") or "")
        return Identity(user_id, name, channel_id, guild, instance_id)

    # --- the bot's own sessions -----------------------------------------------------------

    def session_for(self, who: Identity, now: float | None = None) -> str:
        """A session naming this identity, valid for ``SESSION_SECONDS``."""
        expires = int((time.time() if now is None else now) + SESSION_SECONDS)
        body = orjson.dumps(
            {
                "u": who.user_id,
                "n": who.name,
                "c": who.channel_id,
                "g": who.guild_id,
                "i": who.instance,
                "e": expires,
            }
        )
        signature = hmac.new(self._key, body, hashlib.sha256).digest()
        return f"{_b64(body)}.{_b64(signature)}"

    def resume(self, session: str, instance_id: str, channel_id: str) -> Identity:
        """The identity a session names (``AuthError`` if forged, expired, or for another
        instance or channel)."""
        try:
            body_text, signature_text = session.split(".")
            body, signature = _unb64(body_text), _unb64(signature_text)
        except ValueError:
            raise AuthError("That session is not one of ours") from None
        expected = hmac.new(self._key, body, hashlib.sha256).digest()
        if not hmac.compare_digest(expected, signature):
            raise AuthError("That session is not one of ours")
        data = orjson.loads(body)
        if int(data["e"]) < time.time():
            raise AuthError("That session has expired")
        if data["i"] != instance_id or data["c"] != channel_id:
            raise AuthError("That session is for another Activity")
        return Identity(str(data["u"]), str(data["n"]), str(data["c"]), str(data["g"]), data["i"])


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError):
        raise ValueError("not base64") from None


async def _json(response: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        body = await response.json(content_type=None)
    except (aiohttp.ContentTypeError, ValueError):
        return {}
    return body if isinstance(body, dict) else {}
