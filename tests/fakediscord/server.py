"""FakeDiscord: the server, the world it holds, and the API tests use to act as Discord users."""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from .callbacks import Responder
from .commands import CommandRegistry, Resolver, build_command_data
from .errors import CommandError, ComponentError, FakeDiscordError
from .gateway import Gateway
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    InteractionResult,
    describe_wait_failure,
)
from .limits import RateLimits
from .mentions import Notified, notified_by
from .models import (
    ALL_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    PERM_ADMINISTRATOR,
    ApplicationEmoji,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Payload,
    Role,
    User,
    member_joined_at,
    png_bytes,
)
from .oauth import DEFAULT_ENTRY_POINT, ActivityInstance, OAuth
from .openapi import Violation
from .rest import FOREVER, FaultRule, Latency, Rest
from .store import Store
from .validation import data_uri

log = logging.getLogger("fakediscord")
T = TypeVar("T")

# Every fake made in this process, so a test's teardown can fail the test on a request
# Discord would refuse (tests/conftest.py); the teardown empties it.
CREATED: list[FakeDiscord] = []

BUTTON, STRING_SELECT, TEXT_INPUT = 2, 3, 4
SELECT_TYPES = (3, 5, 6, 7, 8)


class FakeDiscord:
    """An in-process Discord (REST + gateway) on 127.0.0.1 for one bot application."""

    def __init__(
        self,
        *,
        app_id: int | None = None,
        bot_name: str = "FakeBot",
        token: str | None = None,
        interaction_deadline: float | None = 3.0,
        heartbeat_interval: float = 41.25,
        shard_count: int = 1,
        rate_limits: RateLimits | None = None,
        interaction_token_seconds: float = 15 * 60,
        validate_requests: bool = True,
        client_secret: str = "fake-client-secret",
        mock_codes: bool = False,
        activities: bool = False,
    ) -> None:
        self.store = Store()
        # Every request is checked against Discord's published spec and documented limits;
        # what Discord would refuse is refused, and kept in `violations` (see `CREATED`).
        self.validate_requests = validate_requests
        self.violations: list[Violation] = []
        CREATED.append(self)
        # What GET /gateway/bot recommends, and how add_guild(shard=...) places guilds.
        self.shard_count = shard_count
        # Discord's rate limits: by default Discord's own figures (50 calls a second in all,
        # 5 new messages per 5 s in a channel), so every test runs under them;
        # RateLimits.off() for a benchmark of CPU alone.
        self.rate_limits = rate_limits if rate_limits is not None else RateLimits()
        self.app_id = app_id or self.store.ids.next()
        self.bot = User(self.app_id, bot_name, None, bot=True)
        self.store.users[self.bot.id] = self.bot
        self.owner = self.store.add_user("app-owner")
        self.token = token
        self.interaction_deadline = interaction_deadline
        # An interaction's token lets its webhook (follow-ups, @original) be used this long.
        self.interaction_token_seconds = interaction_token_seconds
        self.commands = CommandRegistry()
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.errors: list[tuple[str, str, int, Payload]] = []
        self.unknown_routes: list[str] = []
        self.port = 0
        self.gateway = Gateway(
            self.store,
            self.bot,
            self.app_id,
            token,
            lambda: self.gateway_url,
            int(heartbeat_interval * 1000),
        )
        self.store.sinks.append(self.gateway.broadcast)
        self.responder = Responder(self)
        # OAuth2 and Activity instances, for an Activity's server (``oauth``).
        self.oauth = OAuth(self, client_secret=client_secret, mock_codes=mock_codes)
        # Activities turned on in the Developer Portal: LAUNCH_ACTIVITY works, and the app
        # has the Entry Point command the portal makes (a bulk sync must keep it).
        self.activities = activities
        if activities:
            self.commands.overwrite(None, self.app_id, [DEFAULT_ENTRY_POINT], self.store.ids.next)
        self.rest = Rest(self)
        self._runner: web.AppRunner | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        self._runner = web.AppRunner(self.rest.build_app(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.store.cdn_root = self.root_url
        log.info("fake discord listening on %s", self.root_url)
        return self

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def http_base(self) -> str:
        return f"{self.root_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables for a bot subprocess run through `bootstrap`."""
        return {"FAKE_DISCORD_HTTP": self.http_base, "FAKE_DISCORD_GATEWAY": self.gateway_url}

    def application_payload(self) -> Payload:
        return {
            "id": str(self.app_id),
            "name": self.bot.username,
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "summary": "",
            "bot": self.bot.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
        }

    def record_violation(self, violation: Violation) -> None:
        """A request Discord would refuse: kept for the test that caused it to fail on."""
        self.violations.append(violation)
        log.error("the bot sent what Discord refuses: %s", violation)

    def take_violations(self) -> list[Violation]:
        """The violations so far, forgotten: for a test that sends a bad request on purpose."""
        taken, self.violations = self.violations, []
        return taken

    def record_error(self, method: str, path: str, status: int, body: Payload) -> None:
        self.errors.append((method, path, status, body))
        log.warning("fake discord answered %s %s with %s %s", method, path, status, body)

    # -- building the world ---------------------------------------------------------------------

    def add_user(self, name: str, bot: bool = False, *, global_name: str | None = None) -> User:
        return self.store.add_user(name, bot=bot, global_name=global_name)

    def add_guild(self, name: str, owner: User, *, shard: int | None = None) -> Guild:
        """A guild with an @everyone role, its owner and the bot as members; with `shard`,
        its id puts it on that shard of `shard_count` (`(guild_id >> 22) % shard_count`)."""
        if shard is None:
            guild_id = self.store.ids.next()
        else:
            if not 0 <= shard < self.shard_count:
                raise ValueError(f"shard {shard} is not one of the {self.shard_count} shards")
            guild_id = self.store.ids.next_on_shard(shard, self.shard_count)
        guild = Guild(guild_id, name, owner.id)
        guild.roles[guild_id] = Role(guild_id, "@everyone", EVERYONE_PERMISSIONS)
        self.store.guilds[guild_id] = guild
        self._join(guild, owner, ALL_PERMISSIONS)
        self._join(guild, self.bot, ALL_PERMISSIONS)
        self.store.emit("GUILD_CREATE", self.gateway.guild_create(guild_id), guild_id)
        self.store.notify()
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = self.store.add_text_channel(guild, name)
        self.store.emit("CHANNEL_CREATE", channel.payload(), guild.id)
        self.store.notify()
        return channel

    def add_thread(
        self, channel: Channel, name: str, creator: User, *, private: bool = False
    ) -> Channel:
        """A thread a member started under a text channel (as Discord's client does)."""
        body = {"name": name, "type": 12 if private else 11}
        return self.store.create_thread(channel, creator, body)

    def threads(self, channel: Channel | int) -> list[Channel]:
        """The threads started under a text channel, oldest first (archived ones too)."""
        parent = self.store.channel(_id(channel))
        guild = self.store.guild(parent.guild_id or 0)
        return [t for t in guild.threads.values() if t.parent_id == parent.id]

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive a thread as Discord does once it has been idle for its auto-archive
        duration (or as a moderator does, ``locked`` too)."""
        self.store.archive_thread(thread, locked=locked)

    def set_permissions(self, guild: Guild, user: User, permissions: int) -> Member:
        """A member's permissions in the guild from now on (the bot's too: what its invite
        granted)."""
        member = guild.members[user.id]
        member.permissions = permissions
        for role_id in member.role_ids:
            role = guild.roles[role_id]
            role.permissions = permissions
            self.store.emit(
                "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()}, guild.id
            )
        # What @everyone grants and this member may no longer do is denied to the member in
        # each channel, as Discord would need it, so the client's own reckoning of its
        # permissions (roles, then overwrites) agrees with what this fake refuses.
        withheld = guild.everyone.permissions & ~permissions
        for channel in guild.channels.values():
            if channel.is_thread or channel.denied.get(user.id, 0) == withheld:
                continue
            if withheld:
                channel.denied[user.id] = withheld
            else:
                channel.denied.pop(user.id, None)
            self.store.emit("CHANNEL_UPDATE", channel.payload(), guild.id)
        self.store.notify()
        return member

    def add_member(
        self, guild: Guild, user: User, permissions: int | None = None, *, nick: str | None = None
    ) -> Member:
        """Adds `user` to `guild`; `permissions` is what interactions report for them."""
        member = self._join(
            guild, user, EVERYONE_PERMISSIONS if permissions is None else permissions
        )
        member.nick = nick
        self.store.emit(
            "GUILD_MEMBER_ADD", member.payload() | {"guild_id": str(guild.id)}, guild.id
        )
        self.store.notify()
        return member

    def _join(self, guild: Guild, user: User, permissions: int) -> Member:
        roles: list[int] = []
        if permissions != EVERYONE_PERMISSIONS:
            role = Role(self.store.ids.next(), f"perms-{user.username}", permissions, position=1)
            guild.roles[role.id] = role
            roles.append(role.id)
        member = Member(user, guild.id, roles, permissions, member_joined_at(self.store.ids.next()))
        guild.members[user.id] = member
        return member

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and `user` (created on first use, like Discord)."""
        return self.store.dm_channel(user)

    def close_dms(self, user: User | int) -> None:
        """The bot's messages to this user's DMs now fail with 403 / 50007."""
        self.store.closed_dms.add(_id(user))

    def open_dms(self, user: User | int) -> None:
        self.store.closed_dms.discard(_id(user))

    def inject_rate_limit(
        self,
        method: str,
        path_part: str,
        *,
        count: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> FaultRule:
        """The next `count` matching requests get a 429 (with `Via` and `retry_after`)."""
        rule = FaultRule(method.upper(), path_part, count, retry_after, is_global)
        self.rest.rate_limits.append(rule)
        return rule

    def slow_down(self, method: str, path_part: str, seconds: float) -> Latency:
        """Matching requests are answered ``seconds`` late until ``stop()``: a Discord that
        is slow, not failing."""
        latency = Latency(method.upper(), path_part, seconds)
        self.rest.latencies.append(latency)
        return latency

    def inject_fault(
        self, method: str, path_part: str, *, status: int, code: int = 0, count: int = 1
    ) -> FaultRule:
        """The next `count` matching requests (`FOREVER`: until `rule.stop()`) get an error
        answer with this status and Discord error code, as a failing Discord gives: 400, 404
        10062 for a late interaction, 500 or 503."""
        rule = FaultRule(method.upper(), path_part, count, status=status, code=code)
        self.rest.rate_limits.append(rule)
        return rule

    FOREVER = FOREVER

    def set_nick(self, guild: Guild, user: User, nick: str | None) -> Member:
        """The member's server nickname (what discord.py's `display_name` shows first)."""
        member = guild.members[user.id]
        member.nick = nick
        self.store.emit(
            "GUILD_MEMBER_UPDATE",
            member.payload() | {"guild_id": str(guild.id)},
            guild.id,
        )
        self.store.notify()
        return member

    def add_role(self, guild: Guild, name: str) -> Role:
        """A plain role (no permissions), e.g. to check that its mention notifies nobody."""
        role = Role(self.store.ids.next(), name, 0, position=1)
        guild.roles[role.id] = role
        self.store.emit(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}, guild.id
        )
        self.store.notify()
        return role

    def give_role(self, guild: Guild, user: User, role: Role) -> Member:
        """The member has the role from now on (their interactions list it)."""
        member = guild.members[user.id]
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
        self.store.emit(
            "GUILD_MEMBER_UPDATE",
            member.payload() | {"guild_id": str(guild.id)},
            guild.id,
        )
        self.store.notify()
        return member

    def add_application_emoji(self, name: str, image: bytes | None = None) -> ApplicationEmoji:
        """An emoji the application already has, as if uploaded earlier (a 1x1 PNG unless
        `image` is given); Discord's rules apply, so it raises `ApiError` where Discord would."""
        body = {"name": name, "image": data_uri(png_bytes() if image is None else image)}
        return self.store.create_application_emoji(body, self.bot)

    def application_emojis(self) -> list[ApplicationEmoji]:
        """The application's emojis, oldest first (they outlive the bot: restarts keep them)."""
        return list(self.store.application_emojis.values())

    def application_emoji(self, name: str) -> ApplicationEmoji | None:
        return next((e for e in self.store.application_emojis.values() if e.name == name), None)

    def oauth_code(self, user: User) -> str:
        """The code the Embedded App SDK's ``authorize()`` gives ``user`` (good once)."""
        return self.oauth.code_for(user)

    def add_activity_instance(
        self, channel: Channel, users: list[User], instance_id: str | None = None
    ) -> ActivityInstance:
        """An Activity launched in ``channel`` with ``users`` in it (``users`` may grow)."""
        return self.oauth.add_instance(channel, users, instance_id)

    def send_raw_frame(self, text: str) -> int:
        """Sends `text` as one gateway frame to every live session, as it is (a malformed
        frame, say); returns how many connections it went to."""
        sent = 0
        for session in self.gateway.live_sessions():
            assert session.connection is not None
            session.connection.send(text)
            sent += 1
        return sent

    def notified(self, message: Message) -> Notified:
        """Whom the message's first version notified (a creation notifies; edits don't)."""
        return notified_by(message.versions[0], message.mention_rules[0])

    def all_bot_messages(self) -> list[Message]:
        """Every message the bot created, in channels and DMs, ephemeral ones included."""
        return [m for m in self.store.messages.values() if m.author.id == self.bot.id]

    def shard_of(self, guild: Guild | None) -> int:
        """The shard that gets the guild's events: `(guild_id >> 22) % shard_count`, and
        shard 0 for DMs (`None`)."""
        return 0 if guild is None else (guild.id >> 22) % self.shard_count

    def connected_shards(self) -> list[tuple[int, int]]:
        """(shard id, shard count) of every live gateway session, as the bot IDENTIFYed."""
        return sorted(session.shard for session in self.gateway.live_sessions())

    async def disconnect_bot(self, *, resumable: bool = True) -> None:
        """Drops the bot's websockets; it RESUMEs, or re-IDENTIFYs if not `resumable`."""
        await self.gateway.disconnect_all(code=4000, forget_sessions=not resumable)

    # -- reading state --------------------------------------------------------------------------

    def message(self, message_id: int) -> Message:
        """Any message by id, including deleted and ephemeral ones."""
        try:
            return self.store.messages[message_id]
        except KeyError:
            raise FakeDiscordError(f"no message {message_id} in the fake") from None

    def attachment_bytes(self, message: Message | int, filename: str | None = None) -> bytes:
        """The bytes of a message's current attachment `filename` (or of its only one)."""
        return self.message(_id(message)).attachment_bytes(filename)

    def attachment_at(self, url: str) -> Attachment:
        """The uploaded file a served URL points at (an attachment's `url`, or a resolved
        embed image, gallery item, thumbnail or file component)."""
        for attachment in self.store.attachments.values():
            if attachment.url == url:
                return attachment
        raise FakeDiscordError(f"no attachment is served at {url}")

    def channel_messages(self, channel: Channel | int) -> list[Message]:
        """Current non-deleted, non-ephemeral messages of a channel, oldest first."""
        return self.store.visible_messages(_id(channel))

    def last_message(self, channel: Channel | int) -> Message | None:
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    def dm_messages(self, user: User | int) -> list[Message]:
        """Current messages the bot has in its DM with `user` (responses included), oldest first."""
        channel = self.store.dm_by_user.get(_id(user))
        if channel is None:
            return []
        return [
            self.store.messages[i]
            for i in self.store.channel_messages[channel.id]
            if not self.store.messages[i].deleted
            and self.store.messages[i].author.id == self.bot.id
        ]

    def all_channel_payloads(self) -> list[Payload]:
        """Every version of every non-ephemeral message ever shown in a guild channel."""
        return [
            version
            for message in self.store.messages.values()
            if message.guild_id is not None and not message.ephemeral
            for version in message.versions
        ]

    def all_dm_payloads(self, user: User | int) -> list[Payload]:
        """Every version of every message ever shown in the bot's DM with `user`."""
        channel = self.store.dm_by_user.get(_id(user))
        if channel is None:
            return []
        messages = (self.store.messages[i] for i in self.store.channel_messages[channel.id])
        return [version for message in messages for version in message.versions]

    def latencies(self) -> list[float]:
        """Dispatch-to-callback seconds of every answered interaction, in dispatch order."""
        return [r.latency for r in self.interactions.values() if r.latency is not None]

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 15.0,
        what: str | Callable[[], str] = "",
    ) -> T:
        """Waits until `predicate()` is truthy, re-checked on every change; returns its value."""
        return await self.store.wait_for(predicate, timeout, what or repr(predicate))

    async def changed(self, timeout: float = 0.25) -> None:
        """Returns at the fake's next change, or after ``timeout`` seconds: lets a test re-read
        what lies outside the fake (a database) as often as the fake changes, and no oftener."""
        await self.store.next_change(timeout)

    async def wait_until_connected(self, timeout: float = 10.0) -> None:
        """Waits for a bot session that has identified (or resumed) and is still connected."""
        await self.store.wait_for(
            lambda: self.gateway.session_for(None) is not None, timeout, "the bot to connect"
        )

    async def wait_for_command(
        self, name: str, guild: Guild | None = None, timeout: float = 10.0
    ) -> Payload:
        guild_id = guild.id if guild else None
        return await self.store.wait_for(
            lambda: self.commands.find(name, guild_id), timeout, f"command /{name} to be synced"
        )

    # -- acting as users --------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        values: dict[str, Any] | None = None,
        /,
        *,
        timeout: float = 10.0,
        wait: bool = True,
        forge: bool = False,
        **options: Any,
    ) -> InteractionResult:
        """Runs `/command sub ...` as `user` in `channel`; returns once the bot answered
        (with `wait=False`, as soon as it was sent: for answers that are meant to fail).
        `forge` sends a command where Discord would not offer it (a guild-only one in DMs).

        Options go as keywords; an option named like a keyword of this method (`timeout`)
        can be given in the positional `values` dict instead.
        """
        options = {**(values or {}), **options}
        data, label = await self._command_data(
            user, channel, command, options, None, timeout, forge=forge
        )
        record = self._new_record(APPLICATION_COMMAND, user, channel, data, label)
        return await self._dispatch(record, timeout, wait=wait)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        values: dict[str, Any] | None = None,
        /,
        *,
        focused: str,
        value: Any = "",
        timeout: float = 10.0,
        **options: Any,
    ) -> list[Payload]:
        """Types `value` into option `focused`; returns the bot's choices ({name, value} dicts).

        Other options already filled in go as keywords (or in the positional `values` dict).
        """
        options = {**(values or {}), **options, focused: value}
        data, label = await self._command_data(user, channel, command, options, focused, timeout)
        record = self._new_record(
            AUTOCOMPLETE, user, channel, data, f"{label} (autocomplete {focused})"
        )
        return (await self._dispatch(record, timeout)).choices

    async def click(
        self,
        user: User,
        message: Message | int,
        custom_id: str,
        *,
        timeout: float = 10.0,
        wait: bool = True,
    ) -> InteractionResult:
        """Clicks the button `custom_id` on `message` as `user`: in an action row, or in a
        Components V2 layout (a section's accessory, a row inside a container)."""
        msg, component = self._component(user, message, custom_id, (BUTTON,))
        if component.get("style") in (5, 6):
            raise ComponentError(
                f"button {custom_id!r} is a link/premium button: it sends no interaction"
            )
        data: Payload = {"custom_id": custom_id, "component_type": BUTTON}
        if component.get("id") is not None:
            data["id"] = component["id"]  # Discord names the component by its id too
        return await self._component_interaction(
            user, msg, data, f"click {custom_id!r}", timeout, wait=wait
        )

    async def forge_component(
        self,
        user: User,
        message: Message | int,
        custom_id: str,
        *,
        component_type: int = BUTTON,
        values: list[str] | None = None,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """What a modified client can send: a component interaction on `message` with any
        custom id and any values, whether or not the message has such a component."""
        msg = self.store.messages[_id(message)]
        data: Payload = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        component: Payload = {"type": component_type, "custom_id": custom_id}
        if component_type == BUTTON:
            component |= {"style": 2, "label": "?"}
        else:
            options = values or ["0"]
            component |= {"options": [{"label": v[:100] or "?", "value": v} for v in options]}
        channel = self.store.channels[msg.channel_id]
        record = self._new_record(
            MESSAGE_COMPONENT, user, channel, data, f"forged {custom_id!r}", msg
        )
        # The message as the forging client claims it: with the forged component on it.
        shown = dict(msg.payload)
        shown["components"] = [{"type": 1, "components": [component]}]
        record.payload["message"] = shown
        return await self._dispatch(record, timeout)

    async def select(
        self,
        user: User,
        message: Message | int,
        custom_id: str,
        values: list[Any],
        *,
        timeout: float = 10.0,
        wait: bool = True,
    ) -> InteractionResult:
        """Picks `values` in the select menu `custom_id` (strings, or users/channels/roles)."""
        msg, component = self._component(user, message, custom_id, SELECT_TYPES)
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ComponentError(
                f"select {custom_id!r} takes {low}..{high} values, got {len(values)}"
            )
        kind = component["type"]
        data: Payload = {"custom_id": custom_id, "component_type": kind}
        if kind == STRING_SELECT:
            allowed = [o["value"] for o in component.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ComponentError(
                    f"select {custom_id!r} has no options {bad} (options: {allowed})"
                )
            data["values"] = list(values)
        else:
            data.update(self._resolved_select(msg, values))
        return await self._component_interaction(
            user, msg, data, f"select {custom_id!r}", timeout, wait=wait
        )

    async def submit_modal(
        self,
        user: User,
        opened_by: InteractionResult,
        values: dict[str, Any],
        *,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """Fills in and submits the modal that `opened_by` answered with (callback type 9)."""
        modal = opened_by.modal
        if modal is None:
            raise ComponentError(f"{opened_by.record.label} did not open a modal")
        remaining = dict(values)
        components = [_modal_answer(c, remaining) for c in modal.get("components") or []]
        if remaining:
            raise ComponentError(f"modal {modal['custom_id']!r} has no inputs {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": [c for c in components if c]}
        source = opened_by.record.source_message_id
        message = self.store.messages.get(source) if source is not None else None
        channel = opened_by.record.channel
        record = self._new_record(
            MODAL_SUBMIT, user, channel, data, f"modal {modal['custom_id']!r}", message
        )
        return await self._dispatch(record, timeout)

    async def post_message(self, user: User, channel: Channel, content: str) -> Message:
        """A user writes a plain message (dispatched to the bot as MESSAGE_CREATE)."""
        return self.store.create_message(channel, user, {"content": content})

    # -- internals ---------------------------------------------------------------------------------

    async def _command_data(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any],
        focused: str | None,
        timeout: float,
        *,
        forge: bool = False,
    ) -> tuple[Payload, str]:
        name, *path = command.strip().lstrip("/").split()
        label = "/" + " ".join([name, *path])
        guild = self.store.guilds.get(channel.guild_id) if channel.guild_id else None
        guild_id = guild.id if guild else None
        registered = await self.store.wait_for(
            lambda: self.commands.find(name, guild_id, forge=forge),
            timeout,
            f"command /{name} to be synced for {'guild ' + guild.name if guild else 'DMs'}",
        )
        if guild is not None:
            _check_command_visible(label, registered, guild, user)
        resolver = Resolver(guild)
        world = (self.store.users, self.store.channels)
        data = build_command_data(registered, path, options, resolver, world, focused=focused)
        if registered.get("guild_id"):
            data["guild_id"] = registered["guild_id"]
        return data, label

    def _component(
        self, user: User, message: Message | int, custom_id: str, kinds: tuple[int, ...]
    ) -> tuple[Message, Payload]:
        msg = self.store.messages.get(_id(message))
        if msg is None or msg.deleted:
            raise ComponentError(f"message {_id(message)} does not exist (or was deleted)")
        component = msg.find_component(custom_id)
        if component is None:
            raise ComponentError(
                f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids()}"
            )
        if component["type"] not in kinds:
            raise ComponentError(
                f"component {custom_id!r} has type {component['type']}, not {kinds}"
            )
        if component.get("disabled"):
            raise ComponentError(f"component {custom_id!r} on message {msg.id} is disabled")
        self._check_can_see(user, msg)
        return msg, component

    def _check_can_see(self, user: User, message: Message) -> None:
        channel = self.store.channels[message.channel_id]
        if channel.recipient is not None and channel.recipient.id != user.id:
            raise ComponentError(f"{user.username} cannot see a DM of {channel.recipient.username}")
        if message.ephemeral and message.interaction_id is not None:
            owner = self.interactions[message.interaction_id].user
            if owner.id != user.id:
                raise ComponentError(
                    f"{user.username} cannot see an ephemeral message shown to {owner.username}"
                )

    def _resolved_select(self, message: Message, values: list[Any]) -> Payload:
        guild = self.store.guilds.get(message.guild_id) if message.guild_id else None
        resolver = Resolver(guild)
        ids = []
        for value in values:
            if isinstance(value, Channel):
                ids.append(resolver.channel(value, self.store.channels))
            elif isinstance(value, Role):
                ids.append(resolver.role(value))
            else:
                ids.append(resolver.user(value, self.store.users))
        return {"values": ids, "resolved": resolver.data}

    async def _component_interaction(
        self,
        user: User,
        message: Message,
        data: Payload,
        label: str,
        timeout: float,
        *,
        wait: bool = True,
    ) -> InteractionResult:
        channel = self.store.channels[message.channel_id]
        record = self._new_record(MESSAGE_COMPONENT, user, channel, data, label, message)
        return await self._dispatch(record, timeout, wait=wait)

    def _new_record(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: Payload,
        label: str,
        message: Message | None = None,
    ) -> InteractionRecord:
        interaction_id = self.store.ids.next()
        token = secrets.token_urlsafe(48)
        payload: Payload = {
            "id": str(interaction_id),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
        }
        if channel.guild_id is not None:
            guild = self.store.guilds[channel.guild_id]
            member = guild.members.get(user.id)
            if member is None:
                raise FakeDiscordError(f"{user.username} is not a member of guild {guild.name!r}")
            me = guild.members[self.bot.id]
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=member.payload(with_permissions=True),
                app_permissions=str(me.permissions),
                context=0,
                authorizing_integration_owners={"0": str(guild.id)},
                channel=channel.payload() | {"permissions": str(member.permissions)},
            )
        else:
            if channel.recipient is None or channel.recipient.id != user.id:
                raise FakeDiscordError(f"{user.username} cannot use the DM channel {channel.id}")
            payload.update(
                user=user.payload(),
                app_permissions=str(ALL_PERMISSIONS),
                context=1,
                authorizing_integration_owners={"0": "0"},
                channel=channel.payload(),
            )
        if message is not None:
            payload["message"] = message.payload
        record = InteractionRecord(
            interaction_id, token, kind, user, channel, channel.guild_id, label, payload
        )
        record.source_message_id = message.id if message is not None else None
        return record

    async def _dispatch(
        self, record: InteractionRecord, timeout: float, *, wait: bool = True
    ) -> InteractionResult:
        started = time.perf_counter()
        errors_before = len(self.errors)
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        session = await self.store.wait_for(
            lambda: self.gateway.session_for(record.guild_id), timeout, "a connected bot session"
        )

        def sent() -> None:
            record.dispatched_at = time.perf_counter()

        session.dispatch("INTERACTION_CREATE", record.payload, sent)
        if not wait:
            return InteractionResult(record, self.store)
        remaining = timeout - (time.perf_counter() - started)
        try:
            await asyncio.wait_for(record.answered.wait(), max(remaining, 0.0))
        except TimeoutError:
            failure = describe_wait_failure(record, timeout)
            recent = self.errors[errors_before:][-5:]
            if recent:
                failure.args = (f"{failure.args[0]}; meanwhile the fake answered errors: {recent}",)
            raise failure from None
        result = InteractionResult(record, self.store)
        result.raise_errors()
        return result


def _check_command_visible(label: str, command: Payload, guild: Guild, user: User) -> None:
    """Discord hides a command from members lacking its `default_member_permissions`."""
    needed = command.get("default_member_permissions")
    member = guild.members.get(user.id)
    if needed is None or member is None or guild.owner_id == user.id:
        return
    have = member.permissions
    if not have & PERM_ADMINISTRATOR and have & int(needed) != int(needed):
        raise CommandError(f"{label} is hidden from {user.username}: needs permissions {needed}")


def _id(value: Any) -> int:
    return value if isinstance(value, int) else int(value.id)


def _modal_answer(component: Payload, values: dict[str, Any]) -> Payload | None:
    """The submitted shape of one modal component, taking its value out of `values`."""
    kind = component.get("type")
    if kind == 1:
        children = [_modal_answer(c, values) for c in component.get("components") or []]
        return {"type": 1, "components": [c for c in children if c]}
    if kind == 18:
        inner = _modal_answer(component["component"], values)
        return {"type": 18, "component": inner} if inner else None
    custom_id = component.get("custom_id")
    if custom_id is None:
        return None
    if kind == TEXT_INPUT:
        value = str(values.pop(custom_id, component.get("value") or ""))
        if component.get("required", True) and not value:
            raise ComponentError(f"modal input {custom_id!r} is required")
        return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
    if kind in SELECT_TYPES:
        return {"type": kind, "custom_id": custom_id, "values": list(values.pop(custom_id, []))}
    return None
