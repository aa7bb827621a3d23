"""How the fake answers interaction callbacks and interaction webhooks (followups, @original)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from .errors import ApiError, invalid_form, unknown
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_LAUNCH_ACTIVITY,
    CB_MESSAGE,
    CB_MODAL,
    CB_PONG,
    CB_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PING,
    InteractionRecord,
)
from .models import FLAG_EPHEMERAL, FLAG_LOADING, Message, Payload
from .store import UploadedFile
from .validation import choices_errors, modal_components_errors

if TYPE_CHECKING:
    from .server import FakeDiscord

T = TypeVar("T")

ALLOWED_CALLBACKS = {
    PING: {CB_PONG},
    APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL, CB_LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {
        CB_MESSAGE,
        CB_DEFERRED_MESSAGE,
        CB_DEFERRED_UPDATE,
        CB_UPDATE_MESSAGE,
        CB_MODAL,
        CB_LAUNCH_ACTIVITY,
    },
    AUTOCOMPLETE: {CB_AUTOCOMPLETE},
    MODAL_SUBMIT: {
        CB_MESSAGE,
        CB_DEFERRED_MESSAGE,
        CB_DEFERRED_UPDATE,
        CB_UPDATE_MESSAGE,
        CB_LAUNCH_ACTIVITY,
    },
}


class Responder:
    """Applies callbacks and webhook calls to the store, enforcing Discord's rules for them."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.store = fake.store

    # -- POST /interactions/{id}/{token}/callback ----------------------------------------------

    def callback(
        self,
        record: InteractionRecord,
        body: Payload,
        files: list[UploadedFile],
        arrived: float | None = None,
    ) -> Payload:
        """The answer, refused as Discord refuses one that ``arrived`` (by default now) more
        than the deadline after the interaction was sent."""
        arrived = time.perf_counter() if arrived is None else arrived
        try:
            return self._callback(record, body, files, arrived)
        except ApiError as exc:
            record.fail(f"callback rejected: {exc}")
            raise

    def _callback(
        self, record: InteractionRecord, body: Payload, files: list[UploadedFile], arrived: float
    ) -> Payload:
        if record.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        deadline = self.fake.interaction_deadline
        if deadline is not None and record.dispatched_at is not None:
            waited = arrived - record.dispatched_at
            if waited > deadline:
                raise ApiError(
                    404,
                    10062,
                    f"Unknown interaction (answered after {waited:.2f} s > {deadline} s)",
                )
        kind = int(body.get("type") or 0)
        data: Payload = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS.get(record.type, set()):
            raise invalid_form(
                [f"callback type {kind} is not valid for interaction type {record.type}"]
            )
        if kind in (CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE) and record.source_message_id is None:
            raise invalid_form([f"callback type {kind} needs a message to update"])
        message: Message | None = None
        if kind == CB_MESSAGE:
            message = self._create_response(record, data, files, 0)
        elif kind == CB_DEFERRED_MESSAGE:
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._create_response(record, {}, [], flags)
        elif kind == CB_UPDATE_MESSAGE:
            message = self.store.edit_message(self._source(record), data, files)
        elif kind == CB_DEFERRED_UPDATE:
            message = self._source(record)
        elif kind == CB_AUTOCOMPLETE:
            errors = choices_errors(list(data.get("choices") or []))
            if errors:
                raise invalid_form(errors)
        elif kind == CB_MODAL:
            _check_modal(data)
        elif kind == CB_LAUNCH_ACTIVITY:
            # Discord opens the app's Activity for the user, in the interaction's channel.
            if not self.fake.activities:
                raise ApiError(400, 50035, "Invalid Form Body", ["type: this app has no Activity"])
            record.launched = self.fake.oauth.launch(record.channel, record.user).instance_id
        record.callback_type = kind
        record.callback_data = data
        record.answered_at = arrived
        if message is not None:
            record.response_message_id = message.id
        record.answered.set()
        self.store.notify()
        return self._callback_answer(record, kind, message)

    def _callback_answer(
        self, record: InteractionRecord, kind: int, message: Message | None
    ) -> Payload:
        interaction: Payload = {"id": str(record.id), "type": record.type}
        resource: Payload = {"type": kind}
        if record.launched is not None:
            interaction["activity_instance_id"] = record.launched
            resource["activity_instance"] = {"id": record.launched}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = message.loading
            interaction["response_message_ephemeral"] = message.ephemeral
            resource["message"] = message.payload
        return {"interaction": interaction, "resource": resource}

    def _create_response(
        self, record: InteractionRecord, data: Payload, files: list[UploadedFile], flags: int
    ) -> Message:
        message_type = 20 if record.type == APPLICATION_COMMAND else 0
        return self.store.create_message(
            record.channel,
            self.fake.bot,
            data,
            files,
            message_type=message_type,
            extra=self._webhook_fields(record),
            interaction_id=record.id,
            extra_flags=flags,
        )

    def _webhook_fields(self, record: InteractionRecord) -> Payload:
        app = str(self.fake.app_id)
        metadata: Payload = {
            "id": str(record.id),
            "type": record.type,
            "user": record.user.payload(),
            "authorizing_integration_owners": record.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if record.source_message_id is not None:
            metadata["interacted_message_id"] = str(record.source_message_id)
        fields: Payload = {
            "webhook_id": app,
            "application_id": app,
            "interaction_metadata": metadata,
        }
        if record.type == APPLICATION_COMMAND:
            fields["interaction"] = {
                "id": str(record.id),
                "type": record.type,
                "name": record.label.removeprefix("/"),
                "user": record.user.payload(),
            }
        return fields

    def _source(self, record: InteractionRecord) -> Message:
        assert record.source_message_id is not None
        return self.store.message(record.source_message_id)

    # -- /webhooks/{app}/{token} ---------------------------------------------------------------

    def followup(
        self, record: InteractionRecord, body: Payload, files: list[UploadedFile]
    ) -> Message:
        return self._guard(record, lambda: self._followup(record, body, files))

    def _followup(
        self, record: InteractionRecord, body: Payload, files: list[UploadedFile]
    ) -> Message:
        if record.callback_type is None:
            raise unknown("Webhook", 10015)
        original = self._original_or_none(record)
        if (
            record.callback_type == CB_DEFERRED_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # The first followup after a "thinking" defer replaces the loading message (and
            # keeps its privacy); once that message is deleted, a followup is a new message.
            return self.store.edit_message(original, body, files)
        message = self.store.create_message(
            record.channel,
            self.fake.bot,
            body,
            files,
            extra=self._webhook_fields(record),
            interaction_id=record.id,
        )
        record.followup_ids.append(message.id)
        return message

    def get(self, record: InteractionRecord, message_ref: str) -> Message:
        return self._guard(record, lambda: self._target(record, message_ref))

    def edit(
        self, record: InteractionRecord, message_ref: str, body: Payload, files: list[UploadedFile]
    ) -> Message:
        return self._guard(
            record, lambda: self.store.edit_message(self._target(record, message_ref), body, files)
        )

    def delete(self, record: InteractionRecord, message_ref: str) -> None:
        self._guard(record, lambda: self.store.delete_message(self._target(record, message_ref)))

    def _guard(self, record: InteractionRecord, action: Callable[[], T]) -> T:
        try:
            return action()
        except ApiError as exc:
            record.errors.append(f"webhook call rejected: {exc}")
            self.store.notify()
            raise

    def _original_or_none(self, record: InteractionRecord) -> Message | None:
        if record.response_message_id is None:
            return None
        return self.store.messages.get(record.response_message_id)

    def _target(self, record: InteractionRecord, message_ref: str) -> Message:
        if message_ref == "@original":
            if record.response_message_id is None:
                raise unknown("Message", 10008)
            return self.store.message(record.response_message_id)
        message_id = int(message_ref)
        allowed = {record.response_message_id, record.source_message_id, *record.followup_ids}
        if message_id not in allowed:
            raise unknown("Message", 10008)
        return self.store.message(message_id)


def _check_modal(data: Payload) -> None:
    errors = []
    if not data.get("custom_id"):
        errors.append("modal: custom_id is required")
    if not 1 <= len(str(data.get("title") or "")) <= 45:
        errors.append("modal: title must be 1 to 45 characters")
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.append(f"modal: needs 1 to 5 top-level components (got {len(components)})")
    errors.extend(modal_components_errors(components))
    if errors:
        raise invalid_form(errors)
