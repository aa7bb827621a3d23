"""Interactions the fake dispatched, and the result object tests assert on."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from .errors import InteractionFailed, InteractionTimeout
from .models import Attachment, Channel, Message, Payload, User, payload_text

if TYPE_CHECKING:
    from .store import Store

T = TypeVar("T")

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

CB_PONG, CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE = 1, 4, 5, 6
CB_UPDATE_MESSAGE, CB_AUTOCOMPLETE, CB_MODAL = 7, 8, 9
CB_LAUNCH_ACTIVITY = 12


@dataclass(eq=False)
class InteractionRecord:
    """What happened to one interaction, with perf_counter timings for latency measurements."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild_id: int | None
    label: str
    payload: Payload
    source_message_id: int | None = None
    created_at: float = field(default_factory=time.perf_counter)
    dispatched_at: float | None = None
    answered_at: float | None = None
    callback_type: int | None = None
    callback_data: Payload | None = None
    response_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    launched: str | None = None  # LAUNCH_ACTIVITY: the Activity instance it opened

    @property
    def latency(self) -> float | None:
        """Seconds from the INTERACTION_CREATE frame leaving the fake to the callback arriving."""
        if self.dispatched_at is None or self.answered_at is None:
            return None
        return self.answered_at - self.dispatched_at

    def fail(self, reason: str) -> None:
        self.errors.append(reason)
        self.answered.set()


class InteractionResult:
    """A live view of an interaction's outcome: accessors read the fake's current state."""

    def __init__(self, record: InteractionRecord, store: Store) -> None:
        self.record = record
        self._store = store

    def __repr__(self) -> str:
        return f"<InteractionResult {self.record.label} type={self.type} text={self.text[:80]!r}>"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def type(self) -> int | None:
        """The callback type the bot answered with (4, 5, 6, 7, 8, 9 or 12)."""
        return self.record.callback_type

    @property
    def deferred(self) -> bool:
        return self.type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE)

    @property
    def message(self) -> Message | None:
        """The response message (types 4/5), or the component's message (types 6/7), as now."""
        message_id = self.record.response_message_id
        return None if message_id is None else self._store.messages.get(message_id)

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[Payload]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[Payload]:
        return self.message.components if self.message else []

    @property
    def flags(self) -> int:
        return self.message.flags if self.message else 0

    @property
    def attachments(self) -> list[Attachment]:
        """The response message's files as now (read `.data` for the bytes)."""
        return list(self.message.attachments) if self.message else []

    @property
    def components_text(self) -> str:
        """The V2 text displays of the response message (in containers and sections too)."""
        return self.message.components_text if self.message else ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def followups(self) -> list[Message]:
        return [self._store.messages[i] for i in self.record.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """The response message followed by the followups."""
        first = [self.message] if self.message is not None else []
        return first + self.followups

    @property
    def text(self) -> str:
        """Content, embed text and text displays of the response and every followup."""
        return "\n".join(payload_text(m.payload) for m in self.messages if not m.deleted)

    @property
    def choices(self) -> list[Payload]:
        """Autocomplete choices (type 8 answers)."""
        return list((self.record.callback_data or {}).get("choices") or [])

    @property
    def modal(self) -> Payload | None:
        """The modal the bot opened (type 9 answers)."""
        return self.record.callback_data if self.type == CB_MODAL else None

    @property
    def custom_ids(self) -> list[str]:
        return [cid for m in self.messages if not m.deleted for cid in m.custom_ids()]

    @property
    def latency(self) -> float | None:
        return self.record.latency

    def raise_errors(self) -> None:
        if self.record.errors:
            text = f"{self.record.label}: " + "; ".join(self.record.errors)
            raise InteractionFailed(text, self)

    async def wait_for(
        self, predicate: Callable[[InteractionResult], T | None], timeout: float = 15.0
    ) -> T:
        """Waits until `predicate(result)` is truthy (e.g. after a defer and a later edit)."""

        def check() -> T | None:
            self.raise_errors()
            return predicate(self)

        return await self._store.wait_for(
            check, timeout, lambda: f"{self.record.label}; text now: {self.text!r}"
        )

    async def wait_for_text(self, needle: str, timeout: float = 15.0) -> str:
        """Waits until `needle` appears in `.text`; returns the whole text."""
        return await self.wait_for(lambda r: r.text if needle in r.text else "", timeout)

    async def wait_for_followups(self, count: int = 1, timeout: float = 15.0) -> list[Message]:
        await self.wait_for(lambda r: len(r.followups) >= count, timeout)
        return self.followups


def describe_wait_failure(record: InteractionRecord, timeout: float) -> InteractionTimeout:
    state = "was never sent (no live bot session)"
    if record.dispatched_at is not None:
        state = f"was sent {time.perf_counter() - record.dispatched_at:.2f} s ago"
    what = f"{record.label} (interaction {record.id})"
    return InteractionTimeout(f"{what} got no callback within {timeout:.1f} s; it {state}")
