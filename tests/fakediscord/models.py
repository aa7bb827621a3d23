"""The fake's world: users, guilds, channels, members, messages with their history, emojis."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

from .snowflake import iso_time

Payload = dict[str, Any]

# Permission bits used by the fake's defaults (the values Discord documents).
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_MESSAGE_HISTORY = 1 << 16
PERM_ADD_REACTIONS = 1 << 6
PERM_USE_EXTERNAL_EMOJIS = 1 << 18
PERM_USE_APPLICATION_COMMANDS = 1 << 31
PERM_ADMINISTRATOR = 1 << 3
PERM_MANAGE_THREADS = 1 << 34
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_CREATE_PRIVATE_THREADS = 1 << 36
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = (
    PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_EMBED_LINKS
    | PERM_ATTACH_FILES
    | PERM_READ_MESSAGE_HISTORY
    | PERM_ADD_REACTIONS
    | PERM_USE_EXTERNAL_EMOJIS
    | PERM_USE_APPLICATION_COMMANDS
)

CHANNEL_TEXT = 0
CHANNEL_DM = 1
CHANNEL_PUBLIC_THREAD = 11
CHANNEL_PRIVATE_THREAD = 12
THREAD_TYPES = (10, CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD)
# How long a thread may be idle before Discord archives it, in minutes.
AUTO_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_COMPONENTS_V2 = 1 << 15


@dataclass(eq=False)
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"  # the language of their Discord, sent with their interactions

    def payload(self) -> Payload:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> Payload:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Channel:
    """A text channel, a DM, or a thread (a channel of its own under a text channel, with
    ``parent_id``, its creator ``owner_id`` and its archiving state)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    recipient: User | None = None
    position: int = 0
    last_message_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str | None = None
    created_at: str | None = None
    message_count: int = 0  # messages sent in a thread (the starter message not counted)
    member_ids: list[int] = field(default_factory=list)  # who joined a thread
    # Member overwrites (user id -> permissions denied here): how ``set_permissions`` takes
    # away what @everyone grants, as a server's admin would on Discord.
    denied: dict[int, int] = field(default_factory=dict)

    @property
    def is_dm(self) -> bool:
        return self.type == CHANNEL_DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self, me: User | None = None) -> Payload:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": CHANNEL_DM,
                "last_message_id": _opt_str(self.last_message_id),
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        if self.is_thread:
            return self.thread_payload()
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [
                {"id": str(user), "type": 1, "allow": "0", "deny": str(bits)}
                for user, bits in self.denied.items()
            ],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": _opt_str(self.last_message_id),
            "default_auto_archive_duration": 1440,
            "flags": 0,
        }

    def thread_payload(self) -> Payload:
        """A thread as Discord's channel object has it (``ThreadResponse``)."""
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "parent_id": _opt_str(self.parent_id),
            "owner_id": _opt_str(self.owner_id),
            "name": self.name,
            "last_message_id": _opt_str(self.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
            "message_count": self.message_count,
            "total_message_sent": self.message_count,
            "member_count": min(len(self.member_ids), 50),
            "thread_metadata": {
                "archived": self.archived,
                "archive_timestamp": self.archive_timestamp or self.created_at,
                "auto_archive_duration": self.auto_archive_duration,
                "locked": self.locked,
                "create_timestamp": self.created_at,
                **({"invitable": True} if self.type == CHANNEL_PRIVATE_THREAD else {}),
            },
        }

    def thread_member(self, user_id: int, joined_at: str) -> Payload:
        """The thread member object of a user in this thread."""
        return {
            "id": str(self.id),
            "user_id": str(user_id),
            "join_timestamp": joined_at,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    role_ids: list[int]
    permissions: int
    joined_at: str
    nick: str | None = None

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> Payload:
        data: Payload = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    threads: dict[int, Channel] = field(default_factory=dict)
    locale: str = "en-US"  # the server's preferred language

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def base_payload(self) -> Payload:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def create_payload(self, joined_at: str) -> Payload:
        """The GUILD_CREATE shape: everything the client caches about a guild."""
        data = self.base_payload()
        data.update(
            {
                "joined_at": joined_at,
                "large": False,
                "unavailable": False,
                "member_count": len(self.members),
                "members": [m.payload() for m in self.members.values()],
                "channels": [c.payload() for c in self.channels.values()],
                # The active threads (archived ones are fetched, not sent at connect).
                "threads": [t.payload() for t in self.threads.values() if not t.archived],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    channel_id: int = 0
    # Pixel size of an image (PNG, GIF, JPEG), as Discord reports it; None for other files.
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> Payload:
        data: Payload = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.width is not None:
            data["width"], data["height"] = self.width, self.height
        if self.description:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class Message:
    """One message and every version of it, oldest first; `payload` is what clients see now."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    versions: list[Payload]
    interaction_id: int | None = None
    attachments: list[Attachment] = field(default_factory=list)
    # The attachments of each version, parallel to `versions`.
    attachment_history: list[list[Attachment]] = field(default_factory=list)
    deleted: bool = False
    # The `allowed_mentions` each version was sent with (None: the field was left out).
    mention_rules: list[Payload | None] = field(default_factory=list)
    nonce: str | None = None
    created_at: float = 0.0  # time.monotonic() at creation, for nonce deduplication

    @property
    def payload(self) -> Payload:
        return self.versions[-1]

    @property
    def content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def embeds(self) -> list[Payload]:
        return list(self.payload.get("embeds") or [])

    @property
    def components(self) -> list[Payload]:
        return list(self.payload.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def edited(self) -> bool:
        return len(self.versions) > 1

    @property
    def text(self) -> str:
        return payload_text(self.payload)

    @property
    def components_v2(self) -> bool:
        return bool(self.flags & FLAG_COMPONENTS_V2)

    @property
    def components_text(self) -> str:
        """The text displays of a Components V2 message (sections' included), in order."""
        return components_text(self.components)

    @property
    def history(self) -> list[Payload]:
        return list(self.versions)

    @property
    def files(self) -> dict[str, bytes]:
        """The current attachments' bytes by filename."""
        return {a.filename: a.data for a in self.attachments}

    def attachment(self, filename: str) -> Attachment:
        """The current attachment with this filename (KeyError naming the others if none)."""
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        raise KeyError(f"message {self.id} has no attachment {filename!r}; it has {self.files}")

    def attachment_bytes(self, filename: str | None = None) -> bytes:
        """The bytes of the attachment `filename` (or of the only attachment)."""
        if filename is None:
            if len(self.attachments) != 1:
                names = [a.filename for a in self.attachments]
                raise KeyError(f"message {self.id} has {len(names)} attachments: {names}")
            return self.attachments[0].data
        return self.attachment(filename).data

    def media_urls(self) -> list[str]:
        """URLs shown by the V2 media components (thumbnails, gallery items, files), in order."""
        return component_media_urls(self.components)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def find_component(self, custom_id: str) -> Payload | None:
        for component in iter_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        return None

    def __repr__(self) -> str:
        return (
            f"<Message id={self.id} channel={self.channel_id} author={self.author.username!r}"
            f" versions={len(self.versions)} text={self.text[:60]!r}>"
        )


def iter_components(components: list[Payload]) -> list[Payload]:
    """Flattens rows, containers, sections and labels into a list of leaf and inner components."""
    found: list[Payload] = []
    stack = list(reversed(components))
    while stack:
        component = stack.pop()
        found.append(component)
        children: list[Payload] = list(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            children.append(component["component"])
        if isinstance(component.get("accessory"), dict):
            children.append(component["accessory"])
        stack.extend(reversed(children))
    return found


def embed_text(embed: Payload) -> list[str]:
    parts: list[str] = []
    author = embed.get("author") or {}
    for value in (author.get("name"), embed.get("title"), embed.get("description")):
        if value:
            parts.append(str(value))
    for fld in embed.get("fields") or []:
        parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
    footer = embed.get("footer") or {}
    if footer.get("text"):
        parts.append(str(footer["text"]))
    return parts


def text_displays(components: list[Payload]) -> list[str]:
    """The contents of every text display, top-level or inside containers and sections."""
    return [
        str(c["content"])
        for c in iter_components(components)
        if c.get("type") == 10 and c.get("content")
    ]


def components_text(components: list[Payload]) -> str:
    return "\n".join(text_displays(components))


def component_media_urls(components: list[Payload]) -> list[str]:
    urls: list[str] = []
    for component in iter_components(components):
        kind = component.get("type")
        if kind == 11:
            urls.append(str((component.get("media") or {}).get("url")))
        elif kind == 12:
            urls.extend(
                str((i.get("media") or {}).get("url")) for i in component.get("items") or []
            )
        elif kind == 13:
            urls.append(str((component.get("file") or {}).get("url")))
    return urls


def payload_text(payload: Payload) -> str:
    """Readable text of a message: content, embeds and Components V2 text displays (also those
    in containers and sections), so V2 messages read like embed messages."""
    parts: list[str] = []
    if payload.get("content"):
        parts.append(str(payload["content"]))
    for embed in payload.get("embeds") or []:
        parts.extend(embed_text(embed))
    parts.extend(text_displays(list(payload.get("components") or [])))
    return "\n".join(parts)


def member_joined_at(snowflake: int) -> str:
    return iso_time(snowflake)


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)


@dataclass(eq=False)
class ApplicationEmoji:
    """An emoji the application owns (usable in every server), with its image as uploaded."""

    id: int
    name: str
    image: bytes
    content_type: str
    user: User

    @property
    def animated(self) -> bool:
        return self.content_type == "image/gif"

    @property
    def mention(self) -> str:
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"

    def payload(self) -> Payload:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
            "user": self.user.payload(),
        }


def png_bytes(width: int = 1, height: int = 1, rgb: tuple[int, int, int] = (0, 0, 0)) -> bytes:
    """A valid PNG of one colour, made without an imaging library (for emoji uploads)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    row = b"\x00" + bytes(rgb) * width  # filter type 0, then the pixels
    pixels = zlib.compress(row * height)
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
