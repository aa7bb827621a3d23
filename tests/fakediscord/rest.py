"""The REST routes discord.py calls, served by aiohttp."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .commandlimits import command_problems
from .errors import INVALID_FORM_BODY, ApiError, unknown
from .limits import Limiter, Verdict
from .models import Channel, Payload
from .oauth import (
    ENTRY_POINT_KEPT,
    ENTRY_POINT_REFUSAL,
    TOKEN_ROUTE,
    drops_entry_point,
    entry_point_problems,
)
from .openapi import DiscordSpec, Violation
from .snowflake import iso_now
from .store import UploadedFile
from .validation import EMOJI_NAME_TAKEN

if TYPE_CHECKING:
    from .interactions import InteractionRecord
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.rest")

API = "/api/v10"
ARRIVED = web.RequestKey("arrived", float)  # perf_counter when the request came in
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with `Content-Type: application/json` exactly (discord.py reads others as text)."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def no_content() -> web.Response:
    return web.Response(status=204)


FOREVER = -1

# Refusals over what Discord holds rather than the request's shape.
STATE_CONFLICTS = frozenset({EMOJI_NAME_TAKEN})


@dataclass
class FaultRule:
    """A planned error answer for requests whose method matches and whose path contains
    `path_part`: a 429 (with `Via` and `retry_after`) or any other status and error code.

    `count` is how many requests it answers (`FOREVER` until `stop()`); `hits` counts them.
    """

    method: str
    path_part: str
    count: int
    retry_after: float = 0.05
    is_global: bool = False
    status: int = 429
    code: int = 0
    hits: int = 0

    def matches(self, request: web.Request) -> bool:
        return self.count != 0 and request.method == self.method and self.path_part in request.path

    def take(self) -> None:
        self.hits += 1
        if self.count > 0:
            self.count -= 1

    def stop(self) -> None:
        self.count = 0


RateLimitRule = FaultRule  # the name older tests use


@dataclass
class Latency:
    """Requests whose method matches and whose path contains `path_part` are answered
    `seconds` late, as a slow Discord answers (until `stop()`)."""

    method: str
    path_part: str
    seconds: float
    active: bool = True

    def matches(self, request: web.Request) -> bool:
        return self.active and request.method == self.method and self.path_part in request.path

    def stop(self) -> None:
        self.active = False


# The request's parsed body, read once by the middleware.
_BODY = web.RequestKey("fake_body", tuple)


async def read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON bodies and multipart bodies (`payload_json` plus `files[n]`) alike."""
    cached: tuple[Any, list[UploadedFile]] | None = request.get(_BODY)
    if cached is not None:
        return cached
    parsed = await _parse_body(request)
    request[_BODY] = parsed
    return parsed


async def _parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    if request.content_type.startswith("multipart/"):
        body: Any = {}
        files: dict[int, UploadedFile] = {}
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            elif name.startswith("files["):
                data = await part.read(decode=False)  # type: ignore[union-attr]
                content_type = part.headers.get("Content-Type") if part else None
                filename = getattr(part, "filename", None) or f"file{len(files)}"
                files[int(name[6:-1])] = UploadedFile(filename, bytes(data), content_type)
        return body, [files[i] for i in sorted(files)]
    raw = await request.read()
    return (json.loads(raw) if raw else {}), []


class Rest:
    """Route table plus middleware for auth, planned 429s and loud 404s for unknown routes."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.store = fake.store
        self.rate_limits: list[FaultRule] = []
        self.latencies: list[Latency] = []
        # Requests the bot made, by method and route (ids left out): interaction callbacks
        # and webhooks are counted apart, as Discord's global rate limit leaves them out.
        self.requests: Counter[str] = Counter()
        # The same, with " dm" or " channel" after routes of a channel: where the calls go.
        self.requests_by_place: Counter[str] = Counter()
        self.limiter = Limiter(fake.rate_limits)
        self.spec = DiscordSpec.load()

    def build_app(self) -> web.Application:
        app = web.Application(middlewares=[self.middleware], client_max_size=64 * 1024 * 1024)
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("GET", "/applications/{app_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            ("GET", "/applications/{app_id}/emojis", self.list_emojis),
            (
                "GET",
                "/applications/{app_id}/activity-instances/{instance_id}",
                self.activity_instance,
            ),
            ("POST", "/applications/{app_id}/emojis", self.create_emoji),
            ("GET", "/applications/{app_id}/emojis/{emoji_id}", self.get_emoji),
            ("PATCH", "/applications/{app_id}/emojis/{emoji_id}", self.edit_emoji),
            ("DELETE", "/applications/{app_id}/emojis/{emoji_id}", self.delete_emoji),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("PATCH", "/channels/{channel_id}", self.edit_channel),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.thread_of),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_roles),
            ("GET", "/guilds/{guild_id}/members", self.list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app_id}/{token}", self.followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_delete),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, API + path, handler)
        app.router.add_post(API + TOKEN_ROUTE, self.fake.oauth.token)
        app.router.add_get("/gateway", self.fake.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.attachment)
        app.router.add_get("/cdn/emojis/{emoji_file}", self.emoji_image)
        app.router.add_route("*", "/{tail:.*}", self.unknown_route)
        return app

    # -- middleware ----------------------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        # When Discord's clock for an answer stops: as the request comes in, before the
        # fake's own checks (which cost it CPU time Discord would not take).
        request[ARRIVED] = time.perf_counter()
        path = request.path
        route = f"{request.method} {_route_of(path)}"
        self.requests[route] += 1
        self.requests_by_place[f"{route}{self._place(path)}"] += 1
        try:
            # OAuth2's token route is not in Discord's OpenAPI description: it is checked by
            # its own documented rules (``oauth``).
            if path.startswith(API) and path != API + TOKEN_ROUTE:
                await self._check_spec(request)
            for slow in self.latencies:
                if slow.matches(request):
                    await asyncio.sleep(slow.seconds)
            for rule in self.rate_limits:
                if rule.matches(request):
                    rule.take()
                    if rule.status == 429:
                        return self._rate_limited(rule)
                    message = _FAULT_MESSAGES.get(rule.status, "Error")
                    raise ApiError(rule.status, rule.code, message, reported=True)
            needs_auth = path.startswith(API) and not path.startswith(
                (f"{API}/interactions/", f"{API}/webhooks/", API + TOKEN_ROUTE)
            )
            if needs_auth and not self._authorized(request):
                raise ApiError(401, 0, "401: Unauthorized")
            if path == API + TOKEN_ROUTE or self._bearer(request):
                # A user's own token, or the app's OAuth2 client: not the bot token's calls,
                # so not in the bot's global limit.
                return await handler(request)
            verdict = self._limit(request)
            if verdict.retry_after is not None:
                return self._over_limit(verdict)
            response = await handler(request)
            response.headers.update(verdict.headers)
            return response
        except ApiError as exc:
            if exc.code == INVALID_FORM_BODY and not exc.planned:
                # Refused by one of Discord's documented limits the spec does not express
                # (a conflict with what Discord holds, as a name already taken, is no fault
                # of the request's shape).
                found = self.spec.find(request.method, path)
                shown = found[0].route if found else route
                reasons = list(zip(exc.errors, exc.codes, strict=True)) or [(exc.message, "")]
                for reason, code in reasons:
                    if code not in STATE_CONFLICTS:
                        self.fake.record_violation(
                            Violation(shown, "body", "documented limit", reason, code)
                        )
            self.fake.record_error(request.method, path, exc.status, exc.body())
            return json_response(exc.body(), exc.status)

    async def _check_spec(self, request: web.Request) -> None:
        """Refuse, as Discord would, a request its published spec does not allow; each
        way it breaks the spec is recorded for the test that caused it to fail on."""
        if not self.fake.validate_requests:
            return
        body = (await read_body(request))[0] if request.body_exists else None
        violations = self.spec.check(request.method, request.path, request.query, body)
        if not violations:
            return
        for violation in violations:
            self.fake.record_violation(violation)
        self._fail_interaction(request, "; ".join(str(v) for v in violations))
        if violations[0].where == "route":
            if request.match_info.handler == self.unknown_route:
                self.fake.unknown_routes.append(f"{request.method} {request.path_qs}")
            raise ApiError(
                404, 0, f"404: Not Found (no route {violations[0].route} in Discord's API)"
            )
        raise ApiError(
            400,
            INVALID_FORM_BODY,
            "Invalid Form Body",
            [_discord_reason(v) for v in violations],
            reported=True,
            codes=[v.code for v in violations],
        )

    def _fail_interaction(self, request: web.Request, reason: str) -> None:
        """A refused answer to an interaction fails the test call waiting for it."""
        parts = request.path.removeprefix(API).split("/")
        record = None
        if len(parts) > 3 and parts[1] in ("interactions", "webhooks"):
            record = self.fake.interactions_by_token.get(parts[3])
        if record is not None:
            record.fail(f"refused: {reason}")
            self.store.notify()

    def _place(self, path: str) -> str:
        """ " dm" or " channel" for a route of a known channel, else ""."""
        parts = path.removeprefix(API).split("/")
        if len(parts) < 3 or parts[1] != "channels" or not parts[2].isdigit():
            return ""
        channel = self.store.channels.get(int(parts[2]))
        if channel is None:
            return ""
        return " dm" if channel.is_dm else " channel"

    def _bearer(self, request: web.Request) -> bool:
        return str(request.headers.get("Authorization", "")).startswith("Bearer ")

    def _authorized(self, request: web.Request) -> bool:
        # The identify scope's one route: a user's own access token works here too.
        me = request.method == "GET" and request.path == f"{API}/users/@me"
        if me and self.fake.oauth.bearer_user(request.headers.get("Authorization")) is not None:
            return True
        token = self.fake.token
        return token is None or request.headers.get("Authorization") == f"Bot {token}"

    def _limit(self, request: web.Request) -> Verdict:
        """Count the request against the enforced limits (``FakeDiscord.rate_limits``)."""
        path = request.path
        parts = path.removeprefix(API).split("/")
        major = parts[2] if len(parts) > 2 and parts[1] == "channels" else ""
        return self.limiter.check(request.method, path, _route_of(path), major)

    def _over_limit(self, verdict: Verdict) -> web.Response:
        """A 429 as Discord answers one past a limit: global, or a route's bucket."""
        retry_after = round(verdict.retry_after or 0.0, 3)
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": verdict.is_global,
        }
        headers = {
            **verdict.headers,
            "Via": "1.1 google",
            "Retry-After": str(math.ceil(retry_after)),
        }
        if verdict.is_global:
            headers["X-RateLimit-Global"] = "true"
            headers["X-RateLimit-Scope"] = "global"
        return json_response(body, 429, headers)

    def _rate_limited(self, rule: FaultRule) -> web.Response:
        body = {"message": "You are being rate limited.", "retry_after": rule.retry_after}
        body["global"] = rule.is_global
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, round(rule.retry_after))),
            "X-RateLimit-Scope": "global" if rule.is_global else "user",
        }
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        return json_response(body, 429, headers)

    async def unknown_route(self, request: web.Request) -> web.Response:
        self.fake.unknown_routes.append(f"{request.method} {request.path_qs}")
        log.error("fake discord has no route for %s %s", request.method, request.path_qs)
        message = f"404: Not Found (the fake has no route for {request.method} {request.path})"
        raise ApiError(404, 0, message)

    # -- users, application, gateway -----------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        user = self.fake.oauth.bearer_user(request.headers.get("Authorization"))
        if user is not None:  # a user's access token (identify): that user
            return json_response(user.payload() | {"locale": user.locale, "mfa_enabled": False})
        me = self.fake.bot.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}
        return json_response(me)

    async def get_user(self, request: web.Request) -> web.Response:
        return json_response(self.store.user(_int(request, "user_id")).payload())

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(self.fake.application_payload())

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {
                "url": self.fake.gateway_url,
                "shards": self.fake.shard_count,
                "session_start_limit": limit,
            }
        )

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = self.store.user(int(body.get("recipient_id") or 0))
        return json_response(self.store.dm_channel(user).payload())

    # -- application commands ------------------------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        if _int(request, "app_id") != self.fake.app_id:
            raise unknown("Application", 10002)
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        self.store.guild(int(guild_id))
        return int(guild_id)

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await read_body(request)
        problems = command_problems(list(body)) + entry_point_problems(list(body), scope)
        if problems:
            raise ApiError(
                400,
                INVALID_FORM_BODY,
                "Invalid Form Body",
                [f"{where}: {message}" for where, _, message in problems],
                codes=[code for _, code, _ in problems],
            )
        if scope is None and drops_entry_point(list(body), self.fake.commands.list(None)):
            raise ApiError(400, ENTRY_POINT_KEPT, ENTRY_POINT_REFUSAL)
        stored = self.fake.commands.overwrite(
            scope, self.fake.app_id, list(body), self.store.ids.next
        )
        self.store.notify()
        return json_response(stored)

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.fake.commands.list(self._scope(request)))

    async def activity_instance(self, request: web.Request) -> web.Response:
        found = self.fake.oauth.instance(_int(request, "app_id"), request.match_info["instance_id"])
        return json_response(found)

    # -- application emojis --------------------------------------------------------------------

    async def list_emojis(self, request: web.Request) -> web.Response:
        self._scope(request)
        emojis = self.store.application_emojis.values()
        return json_response({"items": [e.payload() for e in emojis]})

    async def create_emoji(self, request: web.Request) -> web.Response:
        self._scope(request)
        body, _ = await read_body(request)
        emoji = self.store.create_application_emoji(body, self.fake.bot)
        return json_response(emoji.payload(), 201)

    async def get_emoji(self, request: web.Request) -> web.Response:
        self._scope(request)
        return json_response(self.store.application_emoji(_int(request, "emoji_id")).payload())

    async def edit_emoji(self, request: web.Request) -> web.Response:
        self._scope(request)
        body, _ = await read_body(request)
        emoji = self.store.edit_application_emoji(_int(request, "emoji_id"), body)
        return json_response(emoji.payload())

    async def delete_emoji(self, request: web.Request) -> web.Response:
        self._scope(request)
        self.store.delete_application_emoji(_int(request, "emoji_id"))
        return no_content()

    async def emoji_image(self, request: web.Request) -> web.Response:
        """The CDN's `/emojis/{id}.png` (discord.py's `Emoji.url` under the patched Asset.BASE)."""
        emoji_id = request.match_info["emoji_file"].split(".", 1)[0]
        emoji = self.store.application_emojis.get(int(emoji_id) if emoji_id.isdigit() else 0)
        if emoji is None:
            raise unknown("Emoji", 10014)
        return web.Response(body=emoji.image, headers={"Content-Type": emoji.content_type})

    # -- channels and messages -----------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self.store.channel(_int(request, "channel_id")).payload())

    async def edit_channel(self, request: web.Request) -> web.Response:
        """The fake edits threads only (their name, archiving and lock)."""
        channel = self.store.channel(_int(request, "channel_id"))
        if not channel.is_thread:
            raise ApiError(400, 0, "the fake edits threads only")
        body, _ = await read_body(request)
        return json_response(self.store.update_thread(channel, self.fake.bot, body).payload())

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self.store.channel(_int(request, "channel_id"))
        body, _ = await read_body(request)
        thread = self.store.create_thread(parent, self.fake.bot, body)
        return json_response(self._created(thread), 201)

    async def thread_of(self, request: web.Request) -> web.Response:
        """A public thread started from a message: the thread takes the message's id."""
        parent = self.store.channel(_int(request, "channel_id"))
        message = self.store.channel_message(parent.id, _int(request, "message_id"))
        body, _ = await read_body(request)
        thread = self.store.create_thread(parent, self.fake.bot, body, message)
        return json_response(self._created(thread), 201)

    def _created(self, thread: Channel) -> Payload:
        """A new thread as its creator gets it: with their own thread member object."""
        return {**thread.payload(), "member": thread.thread_member(self.fake.bot.id, iso_now())}

    async def typing(self, request: web.Request) -> web.Response:
        self.store.channel(_int(request, "channel_id"))
        return no_content()

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self.store.channel(_int(request, "channel_id"))
        messages = self.store.visible_messages(channel.id)
        query = request.query
        limit = min(int(query.get("limit", 50)), 100)
        if "before" in query:
            messages = [m for m in messages if m.id < int(query["before"])]
        if "after" in query:
            messages = [m for m in messages if m.id > int(query["after"])][:limit]
        if "around" in query:
            around = int(query["around"])
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in messages if m.id > around][: limit - len(older)]
            messages = older + newer
        newest_first = list(reversed(messages))[:limit]
        return json_response([m.payload for m in newest_first])

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self.store.channel(_int(request, "channel_id"))
        if channel.recipient is not None and channel.recipient.id in self.store.closed_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        body, files = await read_body(request)
        self.store.check_send(channel, self.fake.bot, files=bool(files))
        message = self.store.create_message(channel, self.fake.bot, body, files)
        return json_response(message.payload)

    async def get_message(self, request: web.Request) -> web.Response:
        message = self.store.channel_message(
            _int(request, "channel_id"), _int(request, "message_id")
        )
        return json_response(message.payload)

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self.store.channel_message(
            _int(request, "channel_id"), _int(request, "message_id")
        )
        if message.author.id != self.fake.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await read_body(request)
        channel = self.store.channel(message.channel_id)
        self.store.check_send(channel, self.fake.bot, files=bool(files), new=False)
        return json_response(self.store.edit_message(message, body, files).payload)

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self.store.channel_message(
            _int(request, "channel_id"), _int(request, "message_id")
        )
        self.store.delete_message(message)
        return no_content()

    async def attachment(self, request: web.Request) -> web.Response:
        """The CDN: an uploaded file under `/attachments/{channel}/{id}/{filename}` (all three
        must match, as on Discord's CDN)."""
        attachment = self.store.attachments.get(_int(request, "attachment_id"))
        if (
            attachment is None
            or attachment.channel_id != _int(request, "channel_id")
            or attachment.filename != request.match_info["filename"]
        ):
            raise ApiError(404, 0, "404: Not Found")
        content_type = attachment.content_type or "application/octet-stream"
        return web.Response(body=attachment.data, headers={"Content-Type": content_type})

    # -- guilds --------------------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.store.guild(_int(request, "guild_id"))
        data = guild.base_payload()
        data["approximate_member_count"] = len(guild.members)
        data["approximate_presence_count"] = 0
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.store.guild(_int(request, "guild_id"))
        return json_response([c.payload() for c in guild.channels.values()])

    async def get_roles(self, request: web.Request) -> web.Response:
        guild = self.store.guild(_int(request, "guild_id"))
        return json_response([r.payload() for r in guild.roles.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        guild = self.store.guild(_int(request, "guild_id"))
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = [m for uid, m in sorted(guild.members.items()) if uid > after][:limit]
        return json_response([m.payload() for m in members])

    async def get_member(self, request: web.Request) -> web.Response:
        member = self.store.member(_int(request, "guild_id"), _int(request, "user_id"))
        return json_response(member.payload())

    # -- interactions and their webhooks --------------------------------------------------------

    def _record_by_id(self, request: web.Request) -> InteractionRecord:
        record = self.fake.interactions.get(_int(request, "interaction_id"))
        if record is None or record.token != request.match_info["token"]:
            raise unknown("interaction", 10062)
        return record

    def _record_by_token(self, request: web.Request) -> InteractionRecord:
        record = self.fake.interactions_by_token.get(request.match_info["token"])
        if record is None or _int(request, "app_id") != self.fake.app_id:
            raise unknown("Webhook", 10015)
        if time.perf_counter() - record.created_at > self.fake.interaction_token_seconds:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return record

    async def callback(self, request: web.Request) -> web.Response:
        record = self._record_by_id(request)
        body, files = await read_body(request)
        answer = self.fake.responder.callback(record, body, files, request[ARRIVED])
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(answer)
        return no_content()

    async def followup(self, request: web.Request) -> web.Response:
        record = self._record_by_token(request)
        body, files = await read_body(request)
        message = self.fake.responder.followup(record, body, files)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message.payload)
        return no_content()

    async def webhook_get(self, request: web.Request) -> web.Response:
        record = self._record_by_token(request)
        message = self.fake.responder.get(record, request.match_info["message_id"])
        return json_response(message.payload)

    async def webhook_edit(self, request: web.Request) -> web.Response:
        record = self._record_by_token(request)
        body, files = await read_body(request)
        message = self.fake.responder.edit(record, request.match_info["message_id"], body, files)
        return json_response(message.payload)

    async def webhook_delete(self, request: web.Request) -> web.Response:
        record = self._record_by_token(request)
        self.fake.responder.delete(record, request.match_info["message_id"])
        return no_content()


_FAULT_MESSAGES = {
    400: "Invalid Form Body",
    404: "Unknown interaction",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}


def _discord_reason(violation: Violation) -> str:
    """A violation as a reason of a 400, its place named as Discord names a field:
    `body.embeds[0].title` is `embeds.0.title`; a query or path parameter keeps its name."""
    reason = f"{violation.rule} (got {violation.value})"
    dotted = violation.where.replace("[", ".").replace("]", "")
    place = dotted.removeprefix("body.").removeprefix("body")
    return f"{place}: {reason}" if place else reason


def _route_of(path: str) -> str:
    """A request's route with its ids and tokens left out: `PATCH /channels/{}/messages/{}`."""
    parts = path.removeprefix(API).split("/")
    shown = []
    for index, part in enumerate(parts):
        after_token = index > 0 and parts[index - 1] in ("interactions", "webhooks")
        hidden = part.isdigit() or (after_token and not part.isdigit()) or len(part) > 40
        shown.append("{}" if hidden and part else part)
    return "/".join(shown)


def _int(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise ApiError(404, 0, f"404: Not Found ({key} is not a snowflake)") from None
