"""Errors: the JSON errors the fake answers with, and the ones the driving API raises in tests."""

from __future__ import annotations

import re
from typing import Any

# A reason that starts with a field path ("components.0.items: ...") is filed under that path.
_FIELD_PATH = re.compile(r"(?P<path>[A-Za-z_]\w*(?:\.\w+)*): (?P<message>.+)", re.DOTALL)


class ApiError(Exception):
    """An error answer in Discord's JSON shape; raised inside handlers, turned into a response.

    Reasons that start with a field path are nested under it, the way Discord reports them
    (`{"errors": {"components": {"0": {"items": {"_errors": [...]}}}}}`: discord.py shows
    "In components.0.items: ..."); others go in a top-level `_errors`."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: list[str] | None = None,
        *,
        reported: bool = False,
        codes: list[str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" {errors}" if errors else ""))
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors or []
        # Discord's code for each reason (as in BASE_TYPE_MAX_LENGTH); INVALID where unknown.
        self.codes = codes or ["INVALID"] * len(self.errors)
        # A refusal a test planned (an injected fault), or one already recorded as a
        # violation of Discord's spec: not to be recorded again.
        self.planned = reported

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            nested: dict[str, Any] = {}
            for reason, code in zip(self.errors, self.codes, strict=True):
                match = _FIELD_PATH.fullmatch(reason)
                node = nested
                message = reason
                if match is not None:
                    message = match["message"]
                    for part in match["path"].split("."):
                        node = node.setdefault(part, {})
                node.setdefault("_errors", []).append({"code": code, "message": message})
            body["errors"] = nested
        return body


def unknown(kind: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {kind}")


INVALID_FORM_BODY = 50035


def invalid_form(errors: list[str]) -> ApiError:
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


class FakeDiscordError(AssertionError):
    """Base for errors the driving API raises: an AssertionError so pytest shows it plainly."""


class InteractionTimeout(FakeDiscordError):
    """The bot did not answer an interaction (or a wait did not come true) in time."""


class InteractionFailed(FakeDiscordError):
    """The bot answered an interaction in a way Discord would have rejected (or Discord
    refused the answer, as a callback on a message deleted meanwhile)."""

    def __init__(self, text: str, failed: object = None) -> None:
        super().__init__(text)
        self.failed = failed
        """The ``InteractionResult`` that failed, for a test that expects such a refusal."""


class ComponentError(FakeDiscordError):
    """A test tried to use a component a real user could not use (missing, disabled, wrong kind)."""


class CommandError(FakeDiscordError):
    """A slash command or its options do not match what the bot registered."""
