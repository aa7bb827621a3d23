"""The websocket gateway: HELLO, IDENTIFY/READY, RESUME, heartbeats and event dispatch."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .models import Payload, User

if TYPE_CHECKING:
    from .store import Store

log = logging.getLogger("fakediscord.gateway")

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE = 0, 1, 2, 3
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION = 6, 7, 8, 9
OP_HELLO, OP_HEARTBEAT_ACK = 10, 11

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

BACKLOG = 10_000
OnSent = Callable[[], None] | None


def _compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    """One stream compressor per connection, flushed per frame as discord.py expects."""
    if kind is None:
        return None
    if kind == "zlib-stream":
        zobj = zlib.compressobj()
        return lambda raw: zobj.compress(raw) + zobj.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        return _zstd_compressor()
    raise ValueError(f"unsupported gateway compression {kind!r}")


def _zstd_compressor() -> Callable[[bytes], bytes]:
    """discord.py asks for zstd-stream when `zstandard` (or 3.14's compression.zstd) imports."""
    try:
        import zstandard as zstd_lib  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        from compression import zstd  # type: ignore[import-not-found, unused-ignore]

        std = zstd.ZstdCompressor()
        return lambda raw: bytes(std.compress(raw, mode=zstd.ZstdCompressor.FLUSH_BLOCK))
    stream = zstd_lib.ZstdCompressor().compressobj()
    return lambda raw: bytes(stream.compress(raw) + stream.flush(zstd_lib.COMPRESSOBJ_FLUSH_BLOCK))


class Connection:
    """One websocket; frames go through a queue so compression and order stay consistent."""

    def __init__(
        self, ws: web.WebSocketResponse, compress: Callable[[bytes], bytes] | None
    ) -> None:
        self.ws = ws
        self._compress = compress
        self._queue: asyncio.Queue[tuple[str, OnSent]] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop())
        self.session: Session | None = None

    def send(self, frame: Payload | str, on_sent: OnSent = None) -> None:
        text = frame if isinstance(frame, str) else json.dumps(frame, separators=(",", ":"))
        self._queue.put_nowait((text, on_sent))

    async def _write_loop(self) -> None:
        try:
            while True:
                text, on_sent = await self._queue.get()
                if on_sent is not None:
                    on_sent()
                if self._compress is None:
                    await self.ws.send_str(text)
                else:
                    await self.ws.send_bytes(self._compress(text.encode()))
        except (ConnectionError, RuntimeError) as exc:
            log.debug("gateway writer stopped: %r", exc)

    async def close(self, code: int) -> None:
        self._writer.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close(code=code)

    def stop_writer(self) -> None:
        self._writer.cancel()


class Session:
    """A gateway session: survives its websocket so the client can RESUME it."""

    _order = itertools.count(1)

    def __init__(self, intents: int, shard: tuple[int, int]) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.backlog: deque[tuple[int, str, OnSent]] = deque(maxlen=BACKLOG)
        self.connection: Connection | None = None
        self.attached = next(self._order)

    @property
    def live(self) -> bool:
        return self.connection is not None and not self.connection.ws.closed

    def covers(self, guild_id: int | None) -> bool:
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    def dispatch(self, event: str, data: Payload, on_sent: OnSent = None) -> None:
        self.seq += 1
        frame = json.dumps(
            {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}, separators=(",", ":")
        )
        self.backlog.append((self.seq, frame, on_sent))
        if self.connection is not None:
            self.connection.send(frame, on_sent)


class Gateway:
    """Serves the websocket route and routes events to the bot's live sessions."""

    def __init__(
        self,
        store: Store,
        bot: User,
        app_id: int,
        token: str | None,
        url: Callable[[], str],
        heartbeat_interval_ms: int,
    ) -> None:
        self.store = store
        self.bot = bot
        self.app_id = app_id
        self.token = token
        self.url = url
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.identify_count = 0
        self.resume_count = 0

    # -- routing -----------------------------------------------------------------------------

    def live_sessions(self) -> list[Session]:
        return sorted((s for s in self.sessions.values() if s.live), key=lambda s: s.attached)

    def session_for(self, guild_id: int | None) -> Session | None:
        """The newest live session that receives events of this guild (or DMs)."""
        candidates = [s for s in self.live_sessions() if s.covers(guild_id)]
        return candidates[-1] if candidates else None

    def broadcast(self, event: str, data: Payload, guild_id: int | None) -> None:
        intent = _intent_for(event, guild_id)
        for session in self.live_sessions():
            if session.covers(guild_id) and (intent is None or session.intents & intent):
                session.dispatch(event, data)

    # -- websocket ---------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, compress=False, autoping=True)
        await ws.prepare(request)
        encoding = request.query.get("encoding", "json")
        if encoding != "json":
            log.error("gateway: unsupported encoding %r (only json)", encoding)
            await ws.close(code=4002, message=b"only json encoding is supported")
            return ws
        try:
            compress = _compressor(request.query.get("compress"))
        except (ValueError, ImportError) as exc:
            log.error("gateway: %s", exc)
            await ws.close(code=4002, message=str(exc).encode())
            return ws
        connection = Connection(ws, compress)
        self.connections.add(connection)
        connection.send({"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._on_frame(connection, json.loads(msg.data))
        finally:
            self._detach(connection)
        return ws

    def _detach(self, connection: Connection) -> None:
        connection.stop_writer()
        self.connections.discard(connection)
        session = connection.session
        if session is not None and session.connection is connection:
            session.connection = None
            log.info("gateway: session %s disconnected", session.id[:8])
        self.store.notify()

    async def _on_frame(self, connection: Connection, frame: Payload) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == OP_HEARTBEAT:
            connection.send({"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            await self._identify(connection, data or {})
        elif op == OP_RESUME:
            await self._resume(connection, data or {})
        elif op == OP_REQUEST_MEMBERS:
            self._members_chunk(connection, data or {})
        elif op == OP_PRESENCE:
            pass
        else:
            log.warning("gateway: ignoring op %s", op)

    def _token_ok(self, token: str | None) -> bool:
        return self.token is None or (token or "").removeprefix("Bot ") == self.token

    async def _identify(self, connection: Connection, data: Payload) -> None:
        if not self._token_ok(data.get("token")):
            log.error("gateway: IDENTIFY with a wrong token")
            await connection.close(4004)
            return
        shard = tuple(data.get("shard") or (0, 1))
        session = Session(int(data.get("intents") or 0), (int(shard[0]), int(shard[1])))
        self.sessions[session.id] = session
        self._attach(session, connection)
        self.identify_count += 1
        guilds = [g for g in self.store.guilds.values() if session.covers(g.id)]
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.bot.payload() | {"verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.url(),
                "shard": list(session.shard),
                "application": {"id": str(self.app_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "auth": {},
            },
        )
        for guild in guilds:
            session.dispatch("GUILD_CREATE", self.guild_create(guild.id))
        log.info("gateway: session %s identified (shard %s)", session.id[:8], session.shard)
        self.store.notify()

    def guild_create(self, guild_id: int) -> Payload:
        guild = self.store.guilds[guild_id]
        me = guild.members.get(self.bot.id)
        joined = me.joined_at if me else ""
        return guild.create_payload(joined)

    async def _resume(self, connection: Connection, data: Payload) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = int(data.get("seq") or 0)
        oldest = session.backlog[0][0] if session and session.backlog else 0
        if (
            session is None
            or not self._token_ok(data.get("token"))
            or (oldest and seq < oldest - 1)
        ):
            connection.send({"op": OP_INVALID_SESSION, "d": False})
            return
        previous = session.connection
        self._attach(session, connection)
        if previous is not None and previous is not connection:
            previous.session = None
            await previous.close(4000)
        for event_seq, frame, on_sent in session.backlog:
            if event_seq > seq:
                connection.send(frame, on_sent)
        session.dispatch("RESUMED", {})
        self.resume_count += 1
        log.info("gateway: session %s resumed from seq %s", session.id[:8], seq)
        self.store.notify()

    def _attach(self, session: Session, connection: Connection) -> None:
        session.connection = connection
        session.attached = next(Session._order)
        connection.session = session

    def _members_chunk(self, connection: Connection, data: Payload) -> None:
        session = connection.session
        guild = self.store.guilds.get(int(data.get("guild_id") or 0))
        if session is None or guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [
            m.payload()
            for m in guild.members.values()
            if (not wanted or m.user.id in wanted) and m.user.username.lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members[:limit] if limit else members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def disconnect_all(self, *, code: int = 4000, forget_sessions: bool = False) -> None:
        """Drops every websocket; with `forget_sessions` the client's RESUME is refused."""
        if forget_sessions:
            self.sessions.clear()
        for connection in list(self.connections):
            await connection.close(code)

    async def close(self) -> None:
        await self.disconnect_all(code=1001)


def _intent_for(event: str, guild_id: int | None) -> int | None:
    if event.startswith("MESSAGE_"):
        return INTENT_GUILD_MESSAGES if guild_id is not None else INTENT_DIRECT_MESSAGES
    if event.startswith("GUILD_MEMBER") or event == "THREAD_MEMBERS_UPDATE":
        return INTENT_GUILD_MEMBERS
    if event.startswith(("GUILD_", "CHANNEL_", "THREAD_")):
        return INTENT_GUILDS
    return None
