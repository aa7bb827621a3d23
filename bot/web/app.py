"""The bot's web server for the Activity: the page, the OAuth2 code exchange, and one
websocket per open page (``docs/activity-protocol.md``).

Runs in the bot's process, on the bot's event loop, beside the Discord client, and plays the
same tables through the same table service: a move made here is committed, published and
shown on Discord like a button's. Only started when the web side is configured
(``GIN_WEB_PORT``).
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from bot.gin import GinError, parse_card
from bot.gin.hand import ActionKind
from bot.i18n import language_for, speaking, tr, translate
from bot.tables import StaleButton, Table, TableError, TableService
from bot.tables.model import Status
from bot.tables.presence import Presence
from bot.web.auth import AuthError, DiscordAuth, Identity
from bot.web.hub import STRIKES, Hub, Viewer
from bot.web.protocol import Frame, FrameError, parse_client_frame
from bot.web.strings import strings

log = logging.getLogger(__name__)

WEB = "web"
"""The origin of the Activity's changes (``bot.tables.events``): the Discord screens show them
as news, as they show any other front end's."""

STATIC = Path(__file__).with_name("static")
HELLO_SECONDS = 10.0  # a socket that says nothing this long after opening is closed
LARGEST_MESSAGE = 64 * 1024  # past this aiohttp closes the socket (1009); under it, refused
CODE = re.compile(r"^[A-Za-z0-9_\-.:]{1,200}$")

# Only Discord may frame the page: its clients (discord.com and its test builds) and the
# Activity's own proxy domain.
FRAME_ANCESTORS = "https://discord.com https://*.discord.com https://*.discordsays.com"
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; "
        f"frame-ancestors {FRAME_ANCESTORS}"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _error(code: str, message: str, ref: int | None = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "ref": ref}


class WebServer:
    """The aiohttp application and its lifetime."""

    def __init__(
        self,
        service: TableService,
        presence: Presence,
        auth: DiscordAuth,
        *,
        host: str,
        port: int,
        static: Path = STATIC,
    ) -> None:
        self.service = service
        self.auth = auth
        self.hub = Hub(service, presence)
        self.host = host
        self.port = port
        self.static = static
        self._runner: web.AppRunner | None = None
        self._index: bytes | None = None
        self._sockets: set[asyncio.Task[Any]] = set()

    # --- lifetime ----------------------------------------------------------------------------

    def build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers], client_max_size=8 * 1024)
        app.router.add_get("/", self.index)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/api/ws", self.socket)
        assets = self.static / "assets"
        if assets.is_dir():
            app.router.add_static("/assets", assets)
        return app

    async def start(self) -> None:
        self.hub.start()
        self._runner = web.AppRunner(self.build_app(), access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # a free port was asked for (tests): which one it got
            for bound in self._runner.addresses:
                self.port = int(bound[1])
        log.info("the Activity's web server listens on %s:%s", self.host, self.port)

    async def stop(self) -> None:
        await self.hub.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.auth.close()

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    # --- the page ----------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        if self._index is None:
            path = self.static / "index.html"
            if not path.exists():
                return web.Response(status=503, text="The Activity's page is not built.")
            page = path.read_text(encoding="utf-8")
            # The page learns the application's id here, not from its build.
            page = page.replace(
                'name="gin-client-id" content=""',
                f'name="gin-client-id" content="{self.auth.client_id}"',
            )
            self._index = page.encode()
        return web.Response(
            body=self._index,
            content_type="text/html",
            headers={"Cache-Control": "no-cache"},
        )

    async def token(self, request: web.Request) -> web.Response:
        """The Embedded App SDK's code for an access token (the secret stays here)."""
        try:
            body = await request.json()
        except (ValueError, aiohttp.ContentTypeError):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not CODE.match(code):
            return web.json_response({"error": 'Send {"code": ...} from authorize().'}, status=400)
        try:
            access_token = await self.auth.exchange(code)
        except AuthError as error:
            return web.json_response({"error": str(error)}, status=401)
        except (ConnectionError, aiohttp.ClientError, TimeoutError):
            log.warning("Discord's token route failed for an Activity sign-in")
            return web.json_response({"error": "Discord did not answer; try again."}, status=502)
        return web.json_response({"access_token": access_token})

    # --- the sockets -------------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=LARGEST_MESSAGE)
        await ws.prepare(request)
        viewer: Viewer | None = None
        try:
            viewer = await self._greet(ws)
            if viewer is None:
                return ws
            async for message in ws:
                if not await self._take(viewer, message):
                    break
        finally:
            if viewer is not None:
                self.hub.leave(viewer)
            if not ws.closed:
                await ws.close()
        return ws

    async def _greet(self, ws: web.WebSocketResponse) -> Viewer | None:
        """The first frame must be a hello that Discord (or our session) vouches for."""
        try:
            message = await ws.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            await ws.close(code=4000, message=b"no hello")
            return None
        if message.type is not WSMsgType.TEXT:
            return None
        try:
            frame = parse_client_frame(message.data)
            if frame.type != "hello":
                raise FrameError("not_authenticated", "the first frame must be a hello")
        except FrameError as error:
            await ws.send_json(_error(error.code, error.reason))
            await ws.close(code=4002, message=b"bad hello")
            return None
        language = language_for(frame.data.get("locale"))
        try:
            who = await self._identify(frame)
        except AuthError as error:
            with speaking(language):
                said = tr(
                    "Discord did not let me sign you in. Close the Activity and open it again."
                )
            await ws.send_json(_error("auth_failed", f"{said} ({error})"))
            await ws.close(code=4001, message=b"not signed in")
            return None
        except (ConnectionError, aiohttp.ClientError, TimeoutError):
            log.warning("Discord did not answer while signing in an Activity socket")
            await ws.send_json(_error("unavailable", "Discord did not answer; try again."))
            await ws.close(code=1011, message=b"discord unavailable")
            return None
        await self.hub.locate(who.channel_id)
        viewer = Viewer(ws, who, language, rate=self.hub.rate)
        self.hub.join(viewer)
        with speaking(language):
            welcome = {
                "type": "welcome",
                "session": self.auth.session_for(who),
                "user": {"id": who.user_id, "name": who.name},
                "language": language,
                "strings": strings(),
            }
        await ws.send_json(welcome)
        self.hub.send_table(viewer)
        return viewer

    async def _identify(self, frame: Frame) -> Identity:
        data = frame.data
        instance, channel = str(data["instance"]), str(data["channel"])
        session = data.get("session")
        if isinstance(session, str):
            try:
                return self.auth.resume(session, instance, channel)
            except AuthError:
                if "token" not in data:
                    raise
        token = data.get("token")
        if not isinstance(token, str):
            raise AuthError("a hello carries an access token or a session")
        return await self.auth.identify(token, instance, channel)

    async def _take(self, viewer: Viewer, message: aiohttp.WSMessage) -> bool:
        """One frame of an open socket; False when the socket is to close."""
        if message.type is WSMsgType.ERROR:
            return False
        if message.type is not WSMsgType.TEXT:
            return await self._refuse(viewer, FrameError("bad_frame", "frames are JSON text"))
        if not viewer.take_frame():
            return await self._refuse(viewer, FrameError("too_fast", "too many frames: slow down"))
        try:
            frame = parse_client_frame(message.data)
        except FrameError as error:
            return await self._refuse(viewer, error)
        try:
            await self._act(viewer, frame)
        except FrameError as error:
            return await self._refuse(viewer, error, frame.ref)
        return True

    async def _refuse(self, viewer: Viewer, error: FrameError, ref: int | None = None) -> bool:
        viewer.strikes += 1
        await viewer.ws.send_json(_error(error.code, error.reason, ref))
        if viewer.strikes >= STRIKES:
            await viewer.ws.close(code=1008, message=b"too many refused frames")
            return False
        return True

    async def _act(self, viewer: Viewer, frame: Frame) -> None:
        if frame.type == "hello":
            raise FrameError("bad_frame", "this socket has said hello already")
        table = self.service.in_channel(viewer.who.channel_id)
        with speaking(viewer.language):
            try:
                if frame.type == "move":
                    await self._move(viewer, table, frame)
                elif frame.type == "answer":
                    await self._answer(viewer, table, frame)
                elif frame.type == "rematch":
                    await self._rematch(viewer, frame)
            except StaleButton:
                said = tr("That move was chosen on an earlier table: this is the table now.")
                await viewer.ws.send_json(_error("stale", said, frame.ref))
                self.hub.send_table(viewer)
            except (TableError, GinError) as error:
                await viewer.ws.send_json(_error("refused", translate(error), frame.ref))

    async def _move(self, viewer: Viewer, table: Table | None, frame: Frame) -> None:
        data = frame.data
        if table is None:
            raise TableError(
                "There is no game in this channel. Start one with `/gin challenge`, "
                "`/gin open` or `/gin practice`."
            )
        card_code = data.get("card")
        card = parse_card(card_code) if isinstance(card_code, str) else None
        kind = ActionKind(data["kind"])
        await self.service.play(
            table,
            viewer.who.user_id,
            kind,
            card,
            expected_move=int(data["token"]),
            language=viewer.language,
            origin=WEB,
        )

    async def _answer(self, viewer: Viewer, table: Table | None, frame: Frame) -> None:
        if table is None or table.status is not Status.CHALLENGE:
            raise TableError(
                "That challenge is no longer open. Start a new one with `/gin challenge`."
            )
        if frame.data["accept"]:
            await self.service.opening.accept(table, viewer.who.user_id, origin=WEB)
        else:
            await self.service.opening.decline(table, viewer.who.user_id, origin=WEB)

    async def _rematch(self, viewer: Viewer, frame: Frame) -> None:
        channel = viewer.who.channel_id
        last = self.hub.table_in(channel)
        user = viewer.who.user_id
        if last is None or last.is_open or last.match is None or not last.match.is_over:
            raise TableError("That match can't be replayed: start one with `/gin challenge`.")
        if not last.mode.rematch_allowed or last.bot_seats:
            raise TableError("That match can't be replayed: start one with `/gin challenge`.")
        seat = last.seat_of(user)
        if seat is None:
            raise TableError(
                "Only the two players of that match can ask for a rematch. Start your own "
                "with `/gin challenge`."
            )
        players = last.players
        await self.service.opening.challenge(
            last.guild_id,
            channel,
            players[seat],
            players[1 - seat],
            last.server,
            origin=WEB,
        )
