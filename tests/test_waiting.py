"""``woken``: an event or a time, and a cancellation never lost on the way."""

from __future__ import annotations

import asyncio

import pytest

from bot.waiting import woken


async def test_the_event_or_the_time_whichever_first() -> None:
    event = asyncio.Event()
    assert not await woken(event, 0.01)
    event.set()
    assert await woken(event, 60)
    assert not await woken(asyncio.Event(), -1)  # a time already past: no wait


async def test_a_cancellation_as_the_event_is_set_is_not_lost() -> None:
    """The event set and the waiter cancelled in the same turn of the loop: the waiter ends
    cancelled (``asyncio.wait_for`` of Python 3.11 returned the event's result instead, and
    a loop stopped that way went on for ever)."""
    event = asyncio.Event()
    rounds = 0

    async def loop() -> None:
        nonlocal rounds
        while True:
            rounds += 1
            event.clear()
            await woken(event, 60)

    task = asyncio.create_task(loop())
    await asyncio.sleep(0)  # the loop waits on the event
    event.set()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
    assert rounds == 1
