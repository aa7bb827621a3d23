"""What an Activity's server asks of Discord: OAuth2's code exchange, the user behind a Bearer
token, and the Activity instances (who is in which, where).

Discord's OAuth2 token route is described in its OAuth2 documentation, not in its OpenAPI
description, so it is checked here by the documented rules: a form body with
``grant_type=authorization_code``, the code, and the application's ``client_id`` and
``client_secret``; a code is good once, for the application it was issued to. Refusals are
OAuth2's own JSON (``{"error": "invalid_grant", ...}``), 400 or 401, as Discord answers them.

The Embedded App SDK's ``DiscordSDKMock`` (what the page runs outside Discord) has no Discord
client to sign anyone in; a fake made with ``mock_codes=True`` grants the code
``mock:<user id>`` to that user, standing in for the client that would have.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from .errors import ApiError
from .models import Channel, Payload, User

if TYPE_CHECKING:
    from .server import FakeDiscord

TOKEN_ROUTE = "/oauth2/token"
PRIMARY_ENTRY_POINT = 4
# The Entry Point command the Developer Portal makes when Activities are turned on.
DEFAULT_ENTRY_POINT: Payload = {
    "name": "launch",
    "description": "",
    "type": PRIMARY_ENTRY_POINT,
    "handler": 2,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}
MOCK_PREFIX = "mock:"


@dataclass
class ActivityInstance:
    """One running Activity: where it was launched, and who is in it."""

    instance_id: str
    launch_id: str
    channel: Channel
    users: list[int] = field(default_factory=list)

    def payload(self, app_id: int) -> Payload:
        return {
            "application_id": str(app_id),
            "instance_id": self.instance_id,
            "launch_id": self.launch_id,
            "location": {
                "id": f"gc-{self.channel.guild_id}-{self.channel.id}",
                "kind": "gc",
                "channel_id": str(self.channel.id),
                "guild_id": str(self.channel.guild_id),
            },
            "users": [str(u) for u in self.users],
        }


class OAuth:
    """Codes, access tokens and Activity instances of the fake's one application."""

    def __init__(self, fake: FakeDiscord, *, client_secret: str, mock_codes: bool) -> None:
        self.fake = fake
        self.client_secret = client_secret
        self.mock_codes = mock_codes
        self.codes: dict[str, int] = {}  # code -> user, until used
        self.tokens: dict[str, int] = {}  # access token -> user
        self.instances: dict[str, ActivityInstance] = {}
        self.exchanges = 0  # token exchanges answered (granted or refused)

    def code_for(self, user: User) -> str:
        """The code ``authorize()`` gives this user in the Discord client."""
        code = secrets.token_urlsafe(24)
        self.codes[code] = user.id
        return code

    def add_instance(
        self, channel: Channel, users: list[User], instance_id: str | None = None
    ) -> ActivityInstance:
        instance_id = instance_id or f"i-{self.fake.store.ids.next()}"
        instance = ActivityInstance(
            instance_id, str(self.fake.store.ids.next()), channel, [u.id for u in users]
        )
        self.instances[instance_id] = instance
        return instance

    def launch(self, channel: Channel, user: User) -> ActivityInstance:
        """The Activity opened for ``user`` in ``channel``: its running instance there (one a
        channel), which the user joins, or a new one."""
        for instance in self.instances.values():
            if instance.channel.id == channel.id:
                if user.id not in instance.users:
                    instance.users.append(user.id)
                return instance
        return self.add_instance(channel, [user])

    def bearer_user(self, authorization: str | None) -> User | None:
        """The user a ``Bearer`` header's token belongs to (None: not a token we gave)."""
        if not authorization or not authorization.startswith("Bearer "):
            return None
        user_id = self.tokens.get(authorization.removeprefix("Bearer "))
        return None if user_id is None else self.fake.store.users.get(user_id)

    async def token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token``: an authorization code for an access token."""
        self.exchanges += 1
        if not request.content_type.startswith("application/x-www-form-urlencoded"):
            return _oauth_error(400, "invalid_request", "the body must be form-encoded")
        form = await request.post()
        client_id = str(form.get("client_id", ""))
        secret = str(form.get("client_secret", ""))
        if client_id != str(self.fake.app_id) or secret != self.client_secret:
            return _oauth_error(401, "invalid_client", "Invalid client")
        if form.get("grant_type") != "authorization_code":
            return _oauth_error(400, "unsupported_grant_type", "Unsupported grant type")
        code = str(form.get("code", ""))
        user_id = self.codes.pop(code, None)
        if user_id is None and self.mock_codes and code.startswith(MOCK_PREFIX):
            wanted = code.removeprefix(MOCK_PREFIX)
            user_id = int(wanted) if wanted.isdigit() else None
        if user_id is None or user_id not in self.fake.store.users:
            return _oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        access = secrets.token_urlsafe(30)
        self.tokens[access] = user_id
        return _json(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(30),
                "scope": "identify",
            }
        )

    def instance(self, app_id: int, instance_id: str) -> Payload:
        """``GET /applications/{app}/activity-instances/{id}`` (bot token)."""
        if app_id != self.fake.app_id:
            raise ApiError(404, 10002, "Unknown Application")
        found = self.instances.get(instance_id)
        if found is None:
            raise ApiError(404, 0, "404: Not Found")
        return found.payload(self.fake.app_id)


def _json(body: Payload, status: int = 200) -> web.Response:
    headers = {"Content-Type": "application/json"}
    return web.Response(body=json.dumps(body).encode(), status=status, headers=headers)


def _oauth_error(status: int, error: str, description: str) -> web.Response:
    return _json({"error": error, "error_description": description}, status)


ENTRY_POINT_KEPT = 50240  # Discord's code: a bulk sync may not drop the Entry Point command
ENTRY_POINT_REFUSAL = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please "
    "include the Entry Point command in your update request or delete it separately."
)


def _entry_points(commands: list[Payload]) -> list[int]:
    return [i for i, c in enumerate(commands) if int(c.get("type") or 1) == PRIMARY_ENTRY_POINT]


def entry_point_problems(commands: list[Payload], scope: int | None) -> list[tuple[str, str, str]]:
    """Why Discord would refuse a bulk sync's Entry Point command (type 4): at most one,
    global only, no options, handled by the app (1) or by Discord (2)."""
    problems: list[tuple[str, str, str]] = []
    points = _entry_points(commands)
    for index in points:
        command = commands[index]
        if scope is not None:
            problems.append((f"{index}.type", "INVALID", "Entry Point commands are global only"))
        if command.get("options"):
            problems.append((f"{index}.options", "INVALID", "an Entry Point command has none"))
        if command.get("handler") not in (1, 2):
            problems.append(
                (f"{index}.handler", "INVALID", "must be 1 (the app) or 2 (Discord launches)")
            )
    if len(points) > 1:
        problems.append(("type", "INVALID", "an application has one Entry Point command"))
    return problems


def drops_entry_point(commands: list[Payload], current: list[Payload]) -> bool:
    """A global sync that leaves out the Entry Point command the app has (the portal makes
    one when Activities are turned on): Discord refuses it (50240)."""
    return bool(_entry_points(current)) and not _entry_points(commands)
