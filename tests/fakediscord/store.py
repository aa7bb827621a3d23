"""State of the fake and the rules for creating, editing and deleting messages and emojis."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .errors import ApiError, InteractionTimeout, invalid_form, unknown
from .media import attachment_refs, content_type_of, image_size, resolve_references
from .models import (
    AUTO_ARCHIVE_MINUTES,
    CHANNEL_DM,
    CHANNEL_PRIVATE_THREAD,
    CHANNEL_PUBLIC_THREAD,
    CHANNEL_TEXT,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    PERM_ADMINISTRATOR,
    PERM_ATTACH_FILES,
    PERM_CREATE_PRIVATE_THREADS,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_MANAGE_THREADS,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    ApplicationEmoji,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Payload,
    User,
)
from .snowflake import SnowflakeFactory, iso_now, iso_time
from .validation import (
    APPLICATION_EMOJI_LIMIT,
    ENTITY_TOO_LARGE,
    MAX_ATTACHMENTS,
    MAX_EMOJIS,
    UPLOAD_LIMIT,
    FieldProblems,
    FormError,
    assign_component_ids,
    decode_emoji_image,
    emoji_name_problems,
    message_errors,
)

T = TypeVar("T")
EventSink = Callable[[str, Payload, int | None], None]

_MENTION = re.compile(r"<@!?(\d+)>")
NONCE_SECONDS = 300.0  # how long Discord remembers an enforced nonce
# Flags a bot may set when it creates a message (ephemeral, suppress embeds/notifications, V2).
_CREATE_FLAGS = FLAG_EPHEMERAL | FLAG_SUPPRESS_EMBEDS | (1 << 12) | FLAG_COMPONENTS_V2
FLAG_HAS_THREAD = 1 << 5  # a message a thread was started from
THREAD_CREATED = 18  # the system message in the parent when a thread starts without one
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083  # "Operation cannot be performed on an archived thread"
WRONG_CHANNEL_TYPE = 50024  # "Cannot execute action on this channel type"


@dataclass
class UploadedFile:
    filename: str
    data: bytes
    content_type: str | None = None


class Store:
    """Everything the fake knows; every change wakes `wait_for` waiters."""

    def __init__(self) -> None:
        self.ids = SnowflakeFactory()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.dm_by_user: dict[int, Channel] = {}
        self.closed_dms: set[int] = set()
        self.attachments: dict[int, Attachment] = {}
        # The application's own emojis, by id in creation order; they outlive bot processes.
        self.application_emojis: dict[int, ApplicationEmoji] = {}
        self.cdn_root = "http://127.0.0.1"
        self.sinks: list[EventSink] = []
        # Every message created or edited, in order: lets a test read only what changed.
        self.changed: list[int] = []
        self._changed = asyncio.Event()

    # -- change notification -------------------------------------------------------------

    def notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float, describe: Callable[[], str] | str
    ) -> T:
        """Waits until `predicate()` is truthy, re-checking on every change; returns its value."""
        deadline = time.perf_counter() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                text = describe if isinstance(describe, str) else describe()
                raise InteractionTimeout(f"timed out after {timeout:.1f} s waiting for {text}")
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, 0.25))

    async def next_change(self, timeout: float) -> None:
        """Returns at the next change, or after ``timeout`` seconds."""
        changed = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)

    def emit(self, event: str, data: Payload, guild_id: int | None) -> None:
        for sink in self.sinks:
            sink(event, data, guild_id)

    # -- lookups ---------------------------------------------------------------------------

    def user(self, user_id: int) -> User:
        try:
            return self.users[user_id]
        except KeyError:
            raise unknown("User", 10013) from None

    def guild(self, guild_id: int) -> Guild:
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise unknown("Guild", 10004) from None

    def channel(self, channel_id: int) -> Channel:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise unknown("Channel", 10003) from None

    def member(self, guild_id: int, user_id: int) -> Member:
        try:
            return self.guild(guild_id).members[user_id]
        except KeyError:
            raise unknown("Member", 10007) from None

    def message(self, message_id: int) -> Message:
        message = self.messages.get(message_id)
        if message is None or message.deleted:
            raise unknown("Message", 10008)
        return message

    def channel_message(self, channel_id: int, message_id: int) -> Message:
        """A message as the channel routes see it: ephemeral ones are not reachable there."""
        message = self.message(message_id)
        if message.channel_id != channel_id or message.ephemeral:
            raise unknown("Message", 10008)
        return message

    # -- world building --------------------------------------------------------------------

    def add_user(self, username: str, *, bot: bool = False, global_name: str | None = None) -> User:
        user = User(self.ids.next(), username, global_name, bot)
        self.users[user.id] = user
        return user

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            self.ids.next(), CHANNEL_TEXT, name, guild.id, position=len(guild.channels)
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        return channel

    def dm_channel(self, user: User) -> Channel:
        channel = self.dm_by_user.get(user.id)
        if channel is None:
            channel = Channel(self.ids.next(), CHANNEL_DM, recipient=user)
            self.dm_by_user[user.id] = channel
            self.channels[channel.id] = channel
            self.channel_messages[channel.id] = []
        return channel

    # -- messages --------------------------------------------------------------------------

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: Payload,
        files: list[UploadedFile] | None = None,
        *,
        message_type: int = 0,
        extra: Payload | None = None,
        interaction_id: int | None = None,
        extra_flags: int = 0,
    ) -> Message:
        if channel.is_thread:
            self._reopen(channel)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            repeat = self._by_nonce(channel, author, str(nonce))
            if repeat is not None:
                return repeat  # Discord answers with the message it already made
        message_id = self.ids.next()
        payload: Payload = {
            "id": str(message_id),
            "type": message_type,
            "channel_id": str(channel.id),
            "author": author.payload(),
            "content": "",
            "timestamp": iso_time(message_id),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "flags": 0,
            "components": [],
        }
        if channel.guild_id is not None:
            payload["guild_id"] = str(channel.guild_id)
        if extra:
            payload.update(extra)
        attachments = self._merge_attachments(channel, [], body, files or [])
        self._apply_body(payload, body, attachments)
        payload["flags"] = (int(body.get("flags") or 0) & _CREATE_FLAGS) | extra_flags
        reference = body.get("message_reference")
        if reference and message_type == 0:
            payload["type"] = 19
            payload["message_reference"] = {
                "type": 0,
                "message_id": str(reference.get("message_id")),
                "channel_id": str(reference.get("channel_id") or channel.id),
                **({"guild_id": str(channel.guild_id)} if channel.guild_id else {}),
            }
        self._check(payload, attachments)
        self._finish(payload, attachments)
        message = Message(
            message_id,
            channel.id,
            channel.guild_id,
            author,
            [payload],
            interaction_id=interaction_id,
            attachments=attachments,
            attachment_history=[attachments],
            mention_rules=[body.get("allowed_mentions")],
            nonce=None if nonce is None else str(nonce),
            created_at=time.monotonic(),
        )
        self.messages[message_id] = message
        self.changed.append(message_id)
        self.channel_messages.setdefault(channel.id, []).append(message_id)
        channel.last_message_id = message_id
        if channel.is_thread and not message.ephemeral:
            channel.message_count += 1
            self._join_thread(channel, author.id)
            for user in payload["mentions"]:
                self._join_thread(channel, int(user["id"]))
        if not message.ephemeral:
            self.emit("MESSAGE_CREATE", self._event_payload(message), channel.guild_id)
        self.notify()
        return message

    def edit_message(
        self, message: Message, body: Payload, files: list[UploadedFile] | None = None
    ) -> Message:
        payload = dict(message.payload)
        channel = self.channel(message.channel_id)
        if channel.is_thread and channel.archived:
            raise _archived()
        attachments = self._merge_attachments(channel, message.attachments, body, files or [])
        self._apply_body(payload, body, attachments)
        if "flags" in body and body["flags"] is not None:
            wanted = int(body["flags"])
            if payload["flags"] & FLAG_COMPONENTS_V2 and not wanted & FLAG_COMPONENTS_V2:
                raise invalid_form(
                    ["flags: the IS_COMPONENTS_V2 flag (1 << 15) cannot be removed from a message"]
                )
            flags = (payload["flags"] & ~FLAG_SUPPRESS_EMBEDS) | (wanted & FLAG_SUPPRESS_EMBEDS)
            payload["flags"] = flags | (wanted & FLAG_COMPONENTS_V2)
        payload["flags"] &= ~FLAG_LOADING
        payload["edited_timestamp"] = iso_now()
        self._check(payload, attachments)
        self._finish(payload, attachments)
        message.versions.append(payload)
        message.mention_rules.append(body.get("allowed_mentions"))
        self.changed.append(message.id)
        message.attachments = attachments
        message.attachment_history.append(attachments)
        if not message.ephemeral:
            self.emit("MESSAGE_UPDATE", self._event_payload(message), message.guild_id)
        self.notify()
        return message

    def _by_nonce(self, channel: Channel, author: User, nonce: str) -> Message | None:
        """A message this author made in this channel with this nonce in the last minutes."""
        since = time.monotonic() - NONCE_SECONDS
        for message_id in reversed(self.channel_messages.get(channel.id, [])):
            message = self.messages[message_id]
            if message.created_at < since:
                return None
            if message.nonce == nonce and message.author.id == author.id:
                return message
        return None

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            data: Payload = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            self.emit("MESSAGE_DELETE", data, message.guild_id)
        self.notify()

    def visible_messages(self, channel_id: int) -> list[Message]:
        """Current non-deleted, non-ephemeral messages of a channel, oldest first."""
        found = []
        for message_id in self.channel_messages.get(channel_id, []):
            message = self.messages[message_id]
            if not message.deleted and not message.ephemeral:
                found.append(message)
        return found

    def _event_payload(self, message: Message) -> Payload:
        data = dict(message.payload)
        if message.guild_id is not None:
            member = self.guilds[message.guild_id].members.get(message.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
        return data

    def _check(self, payload: Payload, attachments: list[Attachment]) -> None:
        if len(attachments) > MAX_ATTACHMENTS:
            too_many = f"Must be {MAX_ATTACHMENTS} or fewer in length."
            raise FormError({"attachments": [("BASE_TYPE_MAX_LENGTH", too_many)]})
        errors = message_errors(payload, attachment_refs(attachments))
        shown = ("content", "embeds", "components", "attachments")
        if not any(payload.get(key) for key in shown) and not payload["flags"] & FLAG_LOADING:
            errors.append("Cannot send an empty message")
        if errors:
            raise invalid_form(errors)

    def _finish(self, payload: Payload, attachments: list[Attachment]) -> None:
        """What Discord adds to a message it accepted: `attachment://` references resolved to
        the uploaded files, ids for V2 components; the new files become downloadable."""
        resolve_references(payload, attachments)
        if payload["flags"] & FLAG_COMPONENTS_V2 and payload.get("components"):
            components = copy.deepcopy(payload["components"])
            assign_component_ids(components)
            payload["components"] = components
        for attachment in attachments:
            self.attachments[attachment.id] = attachment

    def _apply_body(self, payload: Payload, body: Payload, attachments: list[Attachment]) -> None:
        if "content" in body:
            payload["content"] = "" if body["content"] is None else str(body["content"])
        if "embeds" in body:
            payload["embeds"] = [dict(e, type=e.get("type", "rich")) for e in body["embeds"] or []]
        if "components" in body:
            payload["components"] = body["components"] or []
        if "tts" in body:
            payload["tts"] = bool(body["tts"])
        if body.get("poll"):
            payload["poll"] = body["poll"]
        payload["attachments"] = [a.payload() for a in attachments]
        payload["mentions"] = [
            self.users[int(uid)].payload()
            for uid in dict.fromkeys(_MENTION.findall(payload["content"]))
            if int(uid) in self.users
        ]

    def _merge_attachments(
        self, channel: Channel, existing: list[Attachment], body: Payload, files: list[UploadedFile]
    ) -> list[Attachment]:
        """The message's files after this request: without an `attachments` list, the current
        ones plus the new uploads; with one, the listed current ones (by id) and uploads (by
        `files[n]` index), then any upload left unlisted."""
        for upload in files:
            if len(upload.data) > UPLOAD_LIMIT:
                raise ApiError(413, ENTITY_TOO_LARGE, "Request entity too large")
        if "attachments" not in body or body["attachments"] is None:
            return [*existing, *(self._upload(channel, f) for f in files)]
        by_id = {a.id: a for a in existing}
        result: list[Attachment] = []
        used: set[int] = set()
        for item in body["attachments"]:
            ref = int(item["id"])
            if ref in by_id:
                result.append(by_id[ref])
            elif 0 <= ref < len(files):
                upload = files[ref]
                used.add(ref)
                filename = item.get("filename") or upload.filename
                attachment = self._upload(
                    channel, UploadedFile(filename, upload.data, upload.content_type)
                )
                attachment.description = item.get("description")
                result.append(attachment)
            else:
                raise ApiError(400, 50035, f"Invalid Form Body: unknown attachment id {ref}")
        result.extend(self._upload(channel, f) for i, f in enumerate(files) if i not in used)
        return result

    def _upload(self, channel: Channel, upload: UploadedFile) -> Attachment:
        """An attachment for an uploaded file (downloadable once its message is accepted)."""
        attachment_id = self.ids.next()
        path = urllib.parse.quote(upload.filename)
        url = f"{self.cdn_root}/attachments/{channel.id}/{attachment_id}/{path}"
        content_type = content_type_of(upload.filename, upload.content_type)
        size = image_size(upload.data)
        width, height = size if size is not None else (None, None)
        return Attachment(
            attachment_id,
            upload.filename,
            upload.data,
            url,
            content_type,
            channel_id=channel.id,
            width=width,
            height=height,
        )

    # -- threads ------------------------------------------------------------------------------

    def may(self, guild_id: int | None, user_id: int, permission: int) -> bool:
        """Whether a member holds a permission in the guild (administrators hold them all)."""
        if guild_id is None:
            return True
        member = self.guild(guild_id).members.get(user_id)
        if member is None:
            return False
        held = member.permissions
        return bool(held & PERM_ADMINISTRATOR) or held & permission == permission

    def create_thread(
        self, parent: Channel, creator: User, body: Payload, message: Message | None = None
    ) -> Channel:
        """A thread under a text channel, as ``POST /channels/{id}/threads`` starts one (or
        ``.../messages/{id}/threads`` from a message, whose id the thread takes). A public
        thread started without a message leaves a system message in the parent."""
        if parent.type != CHANNEL_TEXT or parent.guild_id is None:
            raise ApiError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
        kind = CHANNEL_PUBLIC_THREAD if message is not None else int(body.get("type") or 12)
        if kind not in (CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD):
            raise invalid_form([f"type: a text channel's thread is 11 or 12, not {kind}"])
        needed = PERM_CREATE_PUBLIC_THREADS
        if kind == CHANNEL_PRIVATE_THREAD:
            needed = PERM_CREATE_PRIVATE_THREADS
        if not self.may(parent.guild_id, creator.id, needed):
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
        if message is not None and message.payload.get("thread"):
            raise ApiError(400, 160004, "A thread has already been created for this message")
        minutes = body.get("auto_archive_duration") or 1440
        if minutes not in AUTO_ARCHIVE_MINUTES:
            raise invalid_form([f"auto_archive_duration: one of {AUTO_ARCHIVE_MINUTES}"])
        thread_id = message.id if message is not None else self.ids.next()
        thread = Channel(
            thread_id,
            kind,
            str(body.get("name") or ""),
            parent.guild_id,
            parent_id=parent.id,
            owner_id=creator.id,
            auto_archive_duration=int(minutes),
            created_at=iso_time(self.ids.next()),
        )
        self.guild(parent.guild_id).threads[thread.id] = thread
        self.channels[thread.id] = thread
        self.channel_messages[thread.id] = []
        self._join_thread(thread, creator.id)
        self.emit("THREAD_CREATE", {**thread.payload(), "newly_created": True}, parent.guild_id)
        if message is not None:
            payload = dict(message.payload)
            payload["flags"] = int(payload.get("flags") or 0) | FLAG_HAS_THREAD
            payload["thread"] = thread.payload()
            message.versions.append(payload)
            message.mention_rules.append(None)
            self.emit("MESSAGE_UPDATE", self._event_payload(message), parent.guild_id)
        elif kind == CHANNEL_PUBLIC_THREAD:
            self.create_message(
                parent,
                creator,
                {"content": thread.name},
                message_type=THREAD_CREATED,
                extra={
                    "message_reference": {
                        "type": 0,
                        "channel_id": str(thread.id),
                        "guild_id": str(parent.guild_id),
                    }
                },
            )
        self.notify()
        return thread

    def update_thread(self, thread: Channel, user: User, body: Payload) -> Channel:
        """``PATCH /channels/{thread}``: its name, archiving and lock. Archiving needs Manage
        Threads, or to be the thread's creator; locking (or unarchiving a locked thread)
        needs Manage Threads."""
        manages = self.may(thread.guild_id, user.id, PERM_MANAGE_THREADS)
        archiving = body.get("archived")
        locking = body.get("locked")
        if locking is not None and bool(locking) != thread.locked and not manages:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
        if thread.archived and archiving is not False:
            raise _archived()
        if thread.archived and thread.locked and not manages:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
        if archiving and not (manages or user.id == thread.owner_id):
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
        if body.get("name") is not None:
            thread.name = str(body["name"])
        if body.get("auto_archive_duration") is not None:
            thread.auto_archive_duration = int(body["auto_archive_duration"])
        if locking is not None:
            thread.locked = bool(locking)
        if archiving is not None and bool(archiving) != thread.archived:
            thread.archived = bool(archiving)
            thread.archive_timestamp = iso_now()
        self.emit("THREAD_UPDATE", thread.payload(), thread.guild_id)
        self.notify()
        return thread

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """What Discord does to a thread idle for its auto-archive duration (or a moderator's
        archiving): it is archived, and leaves the guild's list of active threads."""
        thread.archived = True
        thread.locked = thread.locked or locked
        thread.archive_timestamp = iso_now()
        self.emit("THREAD_UPDATE", thread.payload(), thread.guild_id)
        self.notify()

    def check_send(self, channel: Channel, user: User, *, files: bool, new: bool = True) -> None:
        """What Discord asks of a message in a server's channel: Send Messages (in a thread,
        Send Messages in Threads) for a new one, and Attach Files for any upload, new or by
        an edit. DMs ask for none of them."""
        if channel.guild_id is None:
            return
        needed = PERM_ATTACH_FILES if files else 0
        if new:
            needed |= PERM_SEND_MESSAGES_IN_THREADS if channel.is_thread else PERM_SEND_MESSAGES
        if needed and not self.may(channel.guild_id, user.id, needed):
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")

    def _reopen(self, thread: Channel) -> None:
        """A message sent in an archived thread unarchives it, unless it is locked."""
        if not thread.archived:
            return
        if thread.locked:
            raise _archived()
        thread.archived = False
        thread.archive_timestamp = iso_now()
        self.emit("THREAD_UPDATE", thread.payload(), thread.guild_id)

    def _join_thread(self, thread: Channel, user_id: int) -> None:
        if user_id not in thread.member_ids and user_id in self.users:
            thread.member_ids.append(user_id)

    # -- application emojis -------------------------------------------------------------------

    def application_emoji(self, emoji_id: int) -> ApplicationEmoji:
        try:
            return self.application_emojis[emoji_id]
        except KeyError:
            raise unknown("Emoji", 10014) from None

    def create_application_emoji(self, body: Payload, user: User) -> ApplicationEmoji:
        """A new emoji from `{"name", "image"}` (a data URI), within Discord's limits."""
        name = body.get("name")
        problems: FieldProblems = {}
        name_problems = emoji_name_problems(name, self._emoji_names())
        if name_problems:
            problems["name"] = name_problems
        image, content_type, image_problems = decode_emoji_image(body.get("image"))
        if image_problems:
            problems["image"] = image_problems
        if problems:
            raise FormError(problems)
        if len(self.application_emojis) >= APPLICATION_EMOJI_LIMIT:
            limit = f"Maximum number of emojis reached ({APPLICATION_EMOJI_LIMIT})"
            raise ApiError(400, MAX_EMOJIS, limit)
        emoji = ApplicationEmoji(self.ids.next(), str(name), image, content_type, user)
        self.application_emojis[emoji.id] = emoji
        self.notify()
        return emoji

    def edit_application_emoji(self, emoji_id: int, body: Payload) -> ApplicationEmoji:
        """Renames an emoji (the only thing an application emoji's PATCH changes)."""
        emoji = self.application_emoji(emoji_id)
        if "name" in body:
            problems = emoji_name_problems(body["name"], self._emoji_names() - {emoji.name})
            if problems:
                raise FormError({"name": problems})
            emoji.name = str(body["name"])
            self.notify()
        return emoji

    def delete_application_emoji(self, emoji_id: int) -> None:
        del self.application_emojis[self.application_emoji(emoji_id).id]
        self.notify()

    def _emoji_names(self) -> set[str]:
        return {emoji.name for emoji in self.application_emojis.values()}


def _archived() -> ApiError:
    return ApiError(400, THREAD_ARCHIVED, "Thread is archived")
