"""Waiting for an event or a time, whichever comes first, without losing a cancellation."""

from __future__ import annotations

import asyncio


async def woken(event: asyncio.Event, seconds: float) -> bool:
    """Wait until ``event`` is set or ``seconds`` have passed; True if it was set.

    A cancellation always goes through. Python 3.11's ``asyncio.wait_for`` returns the
    event's result instead when the event is set just as the waiting task is cancelled, and
    a loop that stops by being cancelled then went on for ever (a shutdown waited on it).
    """
    try:
        async with asyncio.timeout(max(0.0, seconds)):
            await event.wait()
    except TimeoutError:
        return False
    return True
