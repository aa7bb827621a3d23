"""Channels that refused the bot for want of a permission, so it stops asking them.

Discord answers a write the bot may not make with 403 (code 50013, Missing Permissions), and
bans a bot for a while at 10,000 invalid requests in 10 minutes. Once a channel (or thread)
refuses a kind of write, the next ones of that kind fail here, without a request, until the
permission may have come back: a change of the channel or of its parent, of a role, or of the
bot's own member, heard from the gateway, or a later check (``RECHECK`` seconds on, one write
tries again).

The kinds are what a permission covers: posting a message (Send Messages, in a thread Send
Messages in Threads), a message with files (Attach Files as well), editing one, and opening a
thread (Create Public Threads). A post with files also counts as a post.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any, cast

import discord

log = logging.getLogger(__name__)

MISSING_PERMISSIONS = 50013
RECHECK = 600.0  # seconds before a refused channel is tried again with no news of a change


class Write(Enum):
    POST = "post"
    FILES = "files"
    EDIT = "edit"
    THREAD = "thread"


class StillRefused(discord.Forbidden):
    """A write not made: the channel refused this kind of write, and nothing says the
    permission came back. Raised as Discord's own 403 would be, so callers handle it alike."""

    def __init__(self, channel_id: int, write: Write) -> None:
        Exception.__init__(self, f"403 Forbidden (error code: {MISSING_PERMISSIONS}): not asked")
        self.response = cast(Any, None)
        self.status = 403
        self.code = MISSING_PERMISSIONS
        self.text = f"channel {channel_id} refused a {write.value} before"
        self.channel_id = channel_id
        self.write = write


def missing_permission(error: BaseException) -> bool:
    """Whether Discord refused a write for want of a permission."""
    return (
        isinstance(error, discord.Forbidden)
        and not isinstance(error, StillRefused)
        and error.code == MISSING_PERMISSIONS
    )


def refused(error: BaseException) -> bool:
    """Whether a write failed for want of a permission, now or before (nothing to retry:
    it is logged once, when first refused)."""
    return isinstance(error, StillRefused) or missing_permission(error)


class Refusals:
    """Which channel refused which kind of write, and since when."""

    def __init__(
        self,
        parent_of: Callable[[int], int | None] = lambda _channel: None,
        clock: Callable[[], float] = time.monotonic,
        recheck: float = RECHECK,
        may_post: Callable[[int], bool | None] = lambda _channel: None,
    ) -> None:
        self.parent_of = parent_of  # a thread's channel, when known
        # Whether the bot may post there, as far as its cache of roles and overwrites says
        # (None: not known): tells a post with files refused for want of Send Messages from
        # one refused for want of Attach Files only.
        self.may_post = may_post
        self.clock = clock
        self.recheck = recheck
        self._refused: dict[tuple[int, Write], float] = {}
        self._parents: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._refused)

    def refused(self, channel_id: int, write: Write) -> bool:
        """Whether this write would be refused (a refusal older than ``recheck`` is
        forgotten: the next write checks again)."""
        kinds = (write, Write.POST) if write is Write.FILES else (write,)
        now = self.clock()
        for kind in kinds:
            since = self._refused.get((channel_id, kind))
            if since is None:
                continue
            if now - since < self.recheck:
                return True
            del self._refused[channel_id, kind]
        return False

    def check(self, channel_id: int, write: Write) -> None:
        """Raise ``StillRefused`` instead of a write the channel would refuse."""
        if self.refused(channel_id, write):
            raise StillRefused(channel_id, write)

    def note(self, error: BaseException, channel_id: int, write: Write) -> None:
        """Remember a refusal for a missing permission (any other error is not one)."""
        if not missing_permission(error):
            return
        if (channel_id, write) not in self._refused:
            log.warning(
                "channel %s refused a %s for a missing permission: not asked again until a "
                "permission changes",
                channel_id,
                write.value,
            )
        self._refused[channel_id, write] = self.clock()
        if write is Write.FILES and self.may_post(channel_id) is False:
            # Not the files: the channel refuses posts (a text post instead would be refused
            # too, and is not asked).
            self._refused[channel_id, Write.POST] = self.clock()
        parent = self.parent_of(channel_id)
        if parent is not None:
            self._parents[channel_id] = parent

    # --- news from the gateway -----------------------------------------------------------

    def channel_changed(self, channel_id: int) -> None:
        """A channel's permissions may have changed: it and its threads are asked again."""
        for key in [k for k in self._refused if k[0] == channel_id]:
            del self._refused[key]
        for thread, parent in list(self._parents.items()):
            if parent == channel_id:
                self._parents.pop(thread, None)
                for key in [k for k in self._refused if k[0] == thread]:
                    del self._refused[key]

    def permissions_changed(self) -> None:
        """A role, or the bot's member, changed: every channel is asked again."""
        self._refused.clear()
        self._parents.clear()

    @contextlib.contextmanager
    def asking(self, channel_id: int, write: Write) -> Iterator[None]:
        """Around a write: not made when the channel refused it before, and remembered when
        it is refused now."""
        self.check(channel_id, write)
        try:
            yield
        except discord.Forbidden as error:
            self.note(error, channel_id, write)
            raise
