"""Every REST call of the screens: sent as ready-made payloads, edited only when what a
message shows changes, and through an interaction's token where one may be used.

The screens never read the message Discord sends back, so these skip building a
``discord.Message`` from every answer; errors are discord.py's own (``NotFound``,
``Forbidden``, ``HTTPException``), raised by its HTTP client with its rate limiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import aiohttp
import discord
from discord.http import Route
from discord.webhook.async_ import async_context

from bot.pacing import Budget, Dropped, Priority, priority
from cogs.gin.screens.ledger import Ledger, Payload, Pressed, fingerprint
from cogs.gin.screens.refusals import Refusals, Write

log = logging.getLogger(__name__)

NO_MENTIONS: Payload = {"parse": []}
RETRY_FIRST = 0.5  # seconds before a failed call is tried again; doubled each time
PATIENT_ATTEMPTS = 4  # tries of an edit no later sync will make (a table just closed)


def transient(error: BaseException) -> bool:
    """Whether trying again later may succeed: Discord's 5xx and 429s, dropped connections."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, discord.RateLimited | aiohttp.ClientError | OSError | TimeoutError)


def message_payload(embeds: list[discord.Embed], view: discord.ui.View | None) -> Payload:
    """The body of a message with these embeds and components (none when ``view`` is None)."""
    return {
        "embeds": [e.to_dict() for e in embeds],
        "components": view.to_components() if view is not None else [],
    }


def only_users(user_ids: Sequence[str]) -> Payload:
    """``allowed_mentions`` for a raw payload: exactly these users may be notified."""
    return {"parse": [], "users": list(user_ids)}


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to send with a message: its name (what ``attachment://`` refers to) and bytes."""

    filename: str
    data: bytes


class Messenger:
    """Sends, edits and deletes the screens' messages, keeping the ledger of what they show."""

    def __init__(self, client: discord.Client, ledger: Ledger) -> None:
        self.client = client
        self.ledger = ledger
        # The channels that refused a write for want of a permission: not asked again.
        self.refusals = Refusals(self._parent_of, may_post=self._may_post)
        self._background: set[asyncio.Task[None]] = set()

    def _parent_of(self, channel_id: int) -> int | None:
        """A thread's channel (None: not a thread, or not known)."""
        channel = self.client.get_channel(channel_id)
        return channel.parent_id if isinstance(channel, discord.Thread) else None

    def _may_post(self, channel_id: int) -> bool | None:
        """Whether the bot may post in the channel by its cached permissions (None: the
        channel, its server or the bot's member is not known here)."""
        channel = self.client.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return None
        me = channel.guild.me
        if me is None:
            return None
        allowed = channel.permissions_for(me)
        return (
            allowed.send_messages_in_threads
            if isinstance(channel, discord.Thread)
            else (allowed.send_messages)
        )

    # --- plain calls ----------------------------------------------------------------------

    async def send(
        self, channel_id: int, payload: Payload, files: Sequence[Attachment] = ()
    ) -> int:
        """Send a message, with files if any; its id. It notifies nobody unless the payload's
        own ``allowed_mentions`` names who it may notify."""
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        body = {"allowed_mentions": NO_MENTIONS, **payload}
        with self.refusals.asking(channel_id, Write.FILES if files else Write.POST):
            if not files:
                data = await self.client.http.request(route, json=body)
            else:
                data = await self._with_files(route, body, files)
        return int(data["id"])

    async def patch(
        self,
        channel_id: int,
        message_id: int,
        payload: Payload,
        files: Sequence[Attachment] = (),
    ) -> None:
        """Edit a message (its files, when given, replace the ones it had); it notifies nobody."""
        route = Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=channel_id,
            message_id=message_id,
        )
        body = {**payload, "allowed_mentions": NO_MENTIONS}
        with self.refusals.asking(channel_id, Write.FILES if files else Write.EDIT):
            if not files:
                await self.client.http.request(route, json=body)
                return
            await self._with_files(route, body, files)

    async def _with_files(self, route: Route, body: Payload, files: Sequence[Attachment]) -> Any:
        """A request whose body comes with files, as Discord takes them: multipart, the JSON
        in ``payload_json`` and each file in ``files[n]``."""
        body = {
            **body,
            "attachments": [{"id": i, "filename": f.filename} for i, f in enumerate(files)],
        }
        uploads = [discord.File(io.BytesIO(f.data), filename=f.filename) for f in files]
        form: list[dict[str, Any]] = [
            {"name": "payload_json", "value": discord.utils._to_json(body)}
        ]
        for i, upload in enumerate(uploads):
            form.append(
                {
                    "name": f"files[{i}]",
                    "value": upload.fp,
                    "filename": upload.filename,
                    "content_type": "application/octet-stream",
                }
            )
        try:
            return await self.client.http.request(route, form=form, files=uploads)
        finally:
            for upload in uploads:
                upload.close()

    async def recent(self, channel_id: int, after: int) -> list[Payload]:
        """Up to 100 messages of a channel posted after the id ``after``."""
        found: list[Any] = await self.client.http.logs_from(channel_id, 100, after=after)
        return [dict(message) for message in found]

    async def say(
        self,
        channel_id: int,
        text: str,
        allowed: discord.AllowedMentions | None = None,
        *,
        dm: bool = False,
    ) -> int:
        """A line of text in a channel (or a DM channel); its id. ``allowed``: whom it may
        notify (the client's default when left out)."""
        kind = discord.ChannelType.private if dm else None
        channel = self.client.get_partial_messageable(channel_id, type=kind)
        with self.refusals.asking(channel_id, Write.POST):
            if allowed is None:
                message = await channel.send(content=text)
            else:
                message = await channel.send(content=text, allowed_mentions=allowed)
        return message.id

    async def open_dm(self, user_id: str) -> int | None:
        """A DM channel with the user (None: no such user, or none may be opened)."""
        try:
            user = self.client.get_user(int(user_id)) or await self.client.fetch_user(int(user_id))
            dm = await user.create_dm()
        except (discord.NotFound, discord.Forbidden):
            log.warning("could not open a DM channel with user %s", user_id)
            return None
        return dm.id

    @property
    def budget(self) -> Budget | None:
        budget = getattr(self.client, "rest_budget", None)
        return budget if isinstance(budget, Budget) else None

    def spend(self, level: Priority) -> contextlib.AbstractAsyncContextManager[None]:
        """Wait for a turn of the REST budget at ``level`` (at once without a budget)."""
        budget = self.budget
        return budget.spend(level) if budget is not None else contextlib.nullcontext()

    # --- edits that know what a message shows ---------------------------------------------

    async def edit(self, channel_id: int, message_id: int, payload: Payload, shown: bytes) -> bool:
        """Edit a message unless it already shows this; False when the message is gone.
        Other failures are raised (the sync tries again when they may pass)."""
        ledger = self.ledger
        if ledger.shows(message_id, shown):
            return True
        if await self._edit_by_press(message_id, payload):
            ledger.record(message_id, shown, ledger.key_of(message_id))
            return True
        try:
            await self.patch(channel_id, message_id, payload)
        except discord.NotFound:
            log.info("message %s is gone", message_id)
            ledger.unknown(message_id)
            return False
        ledger.record(message_id, shown, ledger.key_of(message_id))
        return True

    def _webhook_session(self, press: Pressed) -> dict[str, Any]:
        """How discord.py's own interaction calls reach Discord: the bot's session, proxy."""
        http = self.client.http
        return {"session": press.session, "proxy": http.proxy, "proxy_auth": http.proxy_auth}

    async def _edit_by_press(self, message_id: int, payload: Payload) -> bool:
        """Edit a DM hand through the token of its latest press (``Pressed``); False when
        there is none to use, and the message is edited as any other. A failure that may
        pass is raised, as for any edit."""
        press = self.ledger.press_of(message_id)
        if press is None:
            return False
        try:
            # The raw call under Interaction.edit_original_response, with the payload as it
            # is: for a press on a message, "@original" is that message.
            await async_context.get().edit_original_interaction_response(
                press.application_id,
                press.token,
                **self._webhook_session(press),
                payload={**payload, "allowed_mentions": NO_MENTIONS},
            )
        except discord.HTTPException as error:
            if transient(error):
                raise
            log.info("the press on message %s can no longer edit it (%s)", message_id, error)
            self.ledger.drop_press(message_id)
            return False
        return True

    async def edit_patiently(
        self, what: str, messages: list[tuple[int, int]], payload: Payload, shown: bytes
    ) -> None:
        """Edits for a table that just closed: no later sync will make them, so each is
        tried a few times while Discord fails for a reason that may pass."""
        for channel_id, message_id in messages:
            delay = RETRY_FIRST
            for attempt in range(PATIENT_ATTEMPTS):
                try:
                    await self.edit(channel_id, message_id, payload, shown)
                    break
                except Exception as error:
                    if not transient(error) or attempt == PATIENT_ATTEMPTS - 1:
                        log.warning("%s: message %s kept its buttons", what, message_id)
                        break
                    await asyncio.sleep(delay)
                    delay *= 2

    # --- posting once ----------------------------------------------------------------------

    async def post_once(
        self,
        channel_id: int,
        nonce: str,
        payload: Payload,
        *,
        recovering: bool,
        after: int = 0,
        since: datetime | None = None,
        files: Sequence[Attachment] = (),
        same: Callable[[Payload, Payload], bool] | None = None,
    ) -> int:
        """Post a message a table needs once (a showdown, the table of a hand, the result, a
        hand by DM); its id. A table loaded after a restart (``recovering``) first looks for
        it in the channel (after the message id ``after``, and never before the table began,
        ``since``): the bot may have stopped after posting it and before saving its id.
        The nonce makes Discord itself answer a repeat made within minutes with the message
        it already made. ``same``: whether a found message's first embed is the one about to
        be posted (by default, the same title and footer)."""
        body = {**payload, "nonce": nonce[:25], "enforce_nonce": True}
        if not recovering:
            return await self.send(channel_id, body, files)
        anchor = max(after, snowflake_at(since))
        found = await self._posted_before(channel_id, anchor, payload, same or _same_heading)
        if found is None:
            found = await self.send(channel_id, body, files)
        else:
            log.info("%s was posted before the restart", nonce)
        if files:
            return found  # a showdown with its picture: what it shows never changes
        # Posted before the restart (found, or handed back by Discord for its nonce), it
        # may show an older state of the table: it is brought up to date now.
        self.ledger.unknown(found)
        await self.edit(channel_id, found, payload, fingerprint(payload))
        return found

    async def posted_since(
        self, channel_id: int, after: int, since: datetime | None, payload: Payload
    ) -> int | None:
        """A message of the bot's in the channel, after the id ``after`` and not before
        ``since``, headed as ``payload`` is (None: none)."""
        anchor = max(after, snowflake_at(since))
        return await self._posted_before(channel_id, anchor, payload, _same_heading)

    async def _posted_before(
        self,
        channel_id: int,
        anchor: int,
        payload: Payload,
        same: Callable[[Payload, Payload], bool],
    ) -> int | None:
        """A message of the bot's in the channel, after ``anchor``, whose embed is ``same``
        as the one about to be posted."""
        me = self.client.user
        first = (payload.get("embeds") or [{}])[0]
        if me is None or not first.get("title"):
            return None
        for message in await self.recent(channel_id, anchor):
            if str(message.get("author", {}).get("id")) != str(me.id):
                continue
            embeds = message.get("embeds") or [{}]
            if same(embeds[0], first):
                return int(message["id"])
        return None

    # --- deleting --------------------------------------------------------------------------

    def delete_later(self, channel_id: int, message_id: int) -> None:
        """Housekeeping, in the background at the lowest priority: nothing waits for it."""
        if self.client.is_closed():
            return
        task = asyncio.create_task(self._delete(channel_id, message_id), name="gin-delete")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _delete(self, channel_id: int, message_id: int) -> None:
        """A message that could not be deleted (or waited too long) is left as it is."""
        if await self._delete_by_press(message_id):
            return
        channel = self.client.get_partial_messageable(channel_id)
        with priority(Priority.HOUSEKEEPING), contextlib.suppress(discord.HTTPException, Dropped):
            await channel.get_partial_message(message_id).delete()

    async def _delete_by_press(self, message_id: int) -> bool:
        """Delete a DM hand through the token of its latest press; False when there is none
        to use (or it failed), and the message is deleted as any other."""
        press = self.ledger.drop_press(message_id)
        if press is None:
            return False
        try:
            await async_context.get().delete_original_interaction_response(
                press.application_id, press.token, **self._webhook_session(press)
            )
        except discord.NotFound:
            return True  # gone already
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.info("the press on message %s could not delete it (%r)", message_id, error)
            return False
        return True

    def background(self) -> list[asyncio.Task[None]]:
        """Deletions still running (shutdown waits for them a little)."""
        return list(self._background)


def snowflake_at(moment: datetime | None) -> int:
    """The smallest Discord id of a message made a little before this moment (0: unknown)."""
    if moment is None:
        return 0
    return discord.utils.time_snowflake(moment - timedelta(seconds=5))


def _same_heading(shown: Payload, wanted: Payload) -> bool:
    """Two embeds with the same title and footer: the same message of the same table."""
    footer = (shown.get("footer") or {}).get("text")
    return bool(
        shown.get("title") == wanted.get("title")
        and footer == (wanted.get("footer") or {}).get("text")
    )
