"""The memory of channels that refused the bot a write for want of a permission: which
writes it stops, and what lets them be tried again."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.gin.screens.refusals import RECHECK, Refusals, StillRefused, Write


class Response:
    status = 403
    reason = "Forbidden"


def forbidden(code: int) -> discord.Forbidden:
    return discord.Forbidden(Response(), {"code": code, "message": "Missing Permissions"})  # type: ignore[arg-type]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def refusals(parents: dict[int, int] | None = None) -> tuple[Refusals, Clock]:
    clock = Clock()
    known = parents or {}
    return Refusals(known.get, clock), clock


def refuse(memory: Refusals, channel: int, write: Write, code: int = 50013) -> None:
    with pytest.raises(discord.Forbidden), memory.asking(channel, write):
        raise forbidden(code)


def test_a_refused_post_stops_posts_and_uploads_there_but_not_edits_or_elsewhere() -> None:
    memory, _clock = refusals()
    refuse(memory, 1, Write.POST)
    with pytest.raises(StillRefused) as caught:
        memory.check(1, Write.POST)
    assert caught.value.status == 403 and caught.value.code == 50013
    assert memory.refused(1, Write.FILES)  # a message with files is a post too
    assert not memory.refused(1, Write.EDIT)
    assert not memory.refused(2, Write.POST)


def test_refused_uploads_still_let_text_through() -> None:
    memory, _clock = refusals()
    refuse(memory, 1, Write.FILES)
    assert memory.refused(1, Write.FILES)
    assert not memory.refused(1, Write.POST)


def test_refused_uploads_where_posts_are_not_allowed_stop_text_too() -> None:
    """A post with files refused where the bot's permissions (as its cache reckons them)
    allow no post at all: the text instead would be refused too, and is not asked."""
    may_post = {1: False, 2: True}
    memory = Refusals(may_post=may_post.get)
    for channel in (1, 2, 3):  # 3: not known here
        refuse(memory, channel, Write.FILES)
    assert memory.refused(1, Write.POST)
    assert not memory.refused(2, Write.POST) and not memory.refused(3, Write.POST)


def test_other_errors_are_not_remembered() -> None:
    memory, _clock = refusals()
    refuse(memory, 1, Write.POST, code=50007)  # a closed DM: not a permission
    assert not memory.refused(1, Write.POST)
    with pytest.raises(ValueError), memory.asking(1, Write.POST):
        raise ValueError("not Discord's")
    assert len(memory) == 0


def test_a_later_check_tries_once_more() -> None:
    memory, clock = refusals()
    refuse(memory, 1, Write.POST)
    clock.now += RECHECK - 1
    assert memory.refused(1, Write.POST)
    clock.now += 2
    assert not memory.refused(1, Write.POST)  # asked again: refused, remembered anew
    refuse(memory, 1, Write.POST)
    assert memory.refused(1, Write.POST)


def test_a_channel_update_frees_it_and_its_threads_a_role_update_frees_all() -> None:
    memory, _clock = refusals({11: 1, 22: 2})
    for channel in (1, 11, 2, 22):
        refuse(memory, channel, Write.POST)
    memory.channel_changed(1)
    assert not memory.refused(1, Write.POST) and not memory.refused(11, Write.POST)
    assert memory.refused(2, Write.POST) and memory.refused(22, Write.POST)
    memory.channel_changed(22)  # a thread of its own
    assert not memory.refused(22, Write.POST) and memory.refused(2, Write.POST)
    memory.permissions_changed()
    assert len(memory) == 0


def test_still_refused_is_handled_as_discords_own_403() -> None:
    error: Any = StillRefused(5, Write.THREAD)
    assert isinstance(error, discord.Forbidden) and isinstance(error, discord.HTTPException)
    assert "5" in error.text
