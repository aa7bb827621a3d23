"""What each message shows, and the latest press on each DM hand: the screens' memory of
Discord, so that nothing is sent twice and a message that shows the right thing is left alone.

A message is named by its id, or a private reply by a reference of its own (``reply_ref``),
since an ephemeral reply has no id the bot can edit it by.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import orjson

Payload = dict[str, Any]
Ref = int | str  # a message id, or a private reply's reference
Key = tuple[Any, ...]  # everything a private hand depends on (``PrivateScreens.key``)

# Discord lets a reply be edited through its interaction for 15 minutes; keep a margin.
REPLY_EDIT_SECONDS = 14 * 60


def fingerprint(payload: Payload) -> bytes:
    """What a message shows, to compare with what it showed: a digest of its payload."""
    return hashlib.blake2b(orjson.dumps(payload), digest_size=16).digest()


def reply_ref(table_id: int, seat: int) -> str:
    """The name of a seat's private reply in the ledger."""
    return f"reply:{table_id}:{seat}"


@dataclass
class Pressed:
    """The latest press on a DM hand message whose answer edited that message: for 15
    minutes its interaction's token edits or deletes the message (``@original``) outside the
    global rate limit, so a hand-off or a showdown on a hand its player was using costs no
    call of the budget. Only what the call needs is kept, not the interaction itself."""

    application_id: int
    token: str
    session: aiohttp.ClientSession  # the bot's own HTTP session, which interactions use
    since: float

    @classmethod
    def of(cls, interaction: discord.Interaction[Any], now: float) -> Pressed:
        # discord.py's own interaction calls use this session (Interaction._session).
        return cls(interaction.application_id, interaction.token, interaction._session, now)


class Ledger:
    """Fingerprints of what messages show, the private hand key each shows, and presses."""

    def __init__(self) -> None:
        self._shown: dict[Ref, bytes] = {}
        self._keys: dict[Ref, Key] = {}
        self._pressed: dict[int, Pressed] = {}  # oldest first

    def shows(self, ref: Ref, shown: bytes) -> bool:
        """Whether the message is known to show exactly this."""
        return self._shown.get(ref) == shown

    def key_of(self, ref: Ref) -> Key | None:
        """The private hand key the message shows, when it shows a rendered hand."""
        return self._keys.get(ref)

    def record(self, ref: Ref, shown: bytes, key: Key | None = None) -> None:
        """The message now shows ``shown`` (a rendered hand of ``key``, or something else)."""
        self._shown[ref] = shown
        if key is None:
            self._keys.pop(ref, None)
        else:
            self._keys[ref] = key

    def record_key(self, ref: Ref, key: Key) -> None:
        self._keys[ref] = key

    def knows(self, ref: Ref) -> bool:
        return ref in self._shown

    def unknown(self, ref: Ref) -> None:
        """What the message shows is not known (an edit failed or landed late)."""
        self._shown.pop(ref, None)
        self._keys.pop(ref, None)

    def forget(self, refs: Iterable[Ref]) -> None:
        """Messages no longer kept up to date: their entries and presses go."""
        for ref in refs:
            self.unknown(ref)
            if isinstance(ref, int):
                self._pressed.pop(ref, None)

    def press(self, message: int, interaction: discord.Interaction[Any]) -> None:
        """The answer to a press on this DM hand message edited it (``Pressed``)."""
        now = time.monotonic()
        pressed = self._pressed
        pressed.pop(message, None)  # oldest first: expired ones are dropped from the front
        pressed[message] = Pressed.of(interaction, now)
        while True:
            oldest, press = next(iter(pressed.items()))
            if now - press.since <= REPLY_EDIT_SECONDS:
                break
            del pressed[oldest]

    def press_of(self, message: int) -> Pressed | None:
        """The message's latest press, while its token may still be used."""
        press = self._pressed.get(message)
        if press is not None and time.monotonic() - press.since > REPLY_EDIT_SECONDS:
            del self._pressed[message]
            return None
        return press

    def drop_press(self, message: int) -> Pressed | None:
        """The message's latest press, taken out of the ledger (its token used up)."""
        press = self.press_of(message)
        self._pressed.pop(message, None)
        return press
