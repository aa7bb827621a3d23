"""A fake Discord (REST + gateway) that the real discord.py stack can run against in tests."""

from .errors import (
    ApiError,
    CommandError,
    ComponentError,
    FakeDiscordError,
    InteractionFailed,
    InteractionTimeout,
)
from .interactions import InteractionRecord, InteractionResult
from .limits import RateLimits, RouteLimit
from .models import Attachment, Channel, Guild, Member, Message, Role, User, payload_text
from .patching import patch_discord
from .server import FakeDiscord

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "CommandError",
    "ComponentError",
    "FakeDiscord",
    "FakeDiscordError",
    "Guild",
    "InteractionFailed",
    "InteractionRecord",
    "InteractionResult",
    "InteractionTimeout",
    "Member",
    "Message",
    "RateLimits",
    "Role",
    "RouteLimit",
    "User",
    "patch_discord",
    "payload_text",
]
