"""The Activity's websocket protocol: every frame's JSON schema, and the check of each frame a
client sends against them.

``docs/activity-protocol.md`` shows these same schemas (a test keeps the two equal). A frame
that is not JSON, is larger than ``MAX_FRAME``, or breaks its schema is refused with an error
frame and changes nothing. The checker understands the small part of JSON Schema the frames
use: ``type``, ``properties``, ``required``, ``additionalProperties: false``, ``const``,
``enum``, ``pattern``, ``minLength``/``maxLength``, ``minimum``/``maximum``, ``items`` and
``maxItems``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson

VERSION = 1
MAX_FRAME = 2048  # bytes: the largest frame a client may send (a hello with its token)

Schema = Mapping[str, Any]

SNOWFLAKE: Schema = {"type": "string", "pattern": r"^[0-9]{1,20}$"}
CARD_PATTERN = r"^(A|[2-9]|10|J|Q|K)[SHDC]$"
CARD: Schema = {"type": "string", "pattern": CARD_PATTERN}
REF: Schema = {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}
MOVE_KINDS = ("draw_stock", "draw_discard", "pass", "discard", "knock", "big_gin")


def _frame(kind: str, properties: Mapping[str, Schema], required: tuple[str, ...]) -> Schema:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **properties},
        "required": ["type", *required],
        "additionalProperties": False,
    }


# --- what a client sends ----------------------------------------------------------------

CLIENT_FRAMES: Mapping[str, Schema] = {
    # The first frame of a socket: who (Discord's access token the first time, the session
    # the welcome gave after that) and where (the Activity's instance and its channel).
    "hello": _frame(
        "hello",
        {
            "v": {"const": VERSION},
            "instance": {"type": "string", "pattern": r"^[A-Za-z0-9_:.\-]{1,100}$"},
            "channel": SNOWFLAKE,
            "token": {"type": "string", "minLength": 1, "maxLength": 200},
            "session": {"type": "string", "minLength": 1, "maxLength": 600},
            "locale": {"type": "string", "maxLength": 16},
        },
        ("v", "instance", "channel"),
    ),
    # A move of the player's own seat. ``token``: the decision point it was chosen at (the
    # last table frame's ``token``): a move chosen on an older table is refused as stale.
    "move": _frame(
        "move",
        {
            "kind": {"enum": list(MOVE_KINDS)},
            "card": CARD,
            "token": {"type": "integer", "minimum": 0, "maximum": 2**53 - 1},
            "ref": REF,
        },
        ("kind", "token", "ref"),
    ),
    # The answer to a challenge in this channel, by the player it names.
    "answer": _frame("answer", {"accept": {"type": "boolean"}, "ref": REF}, ("accept", "ref")),
    # After a two-player match: the same players again, the same settings.
    "rematch": _frame("rematch", {"ref": REF}, ("ref",)),
}

# --- what the server sends ------------------------------------------------------------------

TEXT: Schema = {"type": "string", "maxLength": 6000}
PANEL: Schema = {
    "type": "object",
    "properties": {"title": TEXT, "body": TEXT, "footer": TEXT},
    "required": ["title", "body", "footer"],
    "additionalProperties": False,
}
CARDS: Schema = {"type": "array", "items": CARD, "maxItems": 60}
MELDS: Schema = {"type": "array", "items": CARDS, "maxItems": 11}
SEAT: Schema = {
    "type": "object",
    "properties": {
        "seat": {"type": "integer", "minimum": 0, "maximum": 13},
        "name": {"type": "string", "maxLength": 100},
        "bot": {"type": "boolean"},
        "team": {"type": ["integer", "null"]},
        "cards": {"type": "integer", "minimum": 0, "maximum": 11},
        "turn": {"type": "boolean"},
        "state": {"enum": ["playing", "sitting_out", "out", "left", "waiting"]},
        "score": {"type": ["string", "null"], "maxLength": 100},
        "board": {"type": ["integer", "null"]},
    },
    "required": ["seat", "name", "bot", "team", "cards", "turn", "state", "score", "board"],
    "additionalProperties": False,
}
BOARD: Schema = {
    "type": "object",
    "properties": {
        "index": {"type": "integer", "minimum": 0},
        "seats": {"type": "array", "items": {"type": "integer"}, "maxItems": 14},
        "turn": {"type": ["integer", "null"]},
        "phase": {"enum": ["upcard", "draw", "discard", "over"]},
        "stock": {"type": "integer", "minimum": 0},
        "pile": CARDS,
        "pile_size": {"type": "integer", "minimum": 0},
        "to_do": TEXT,
    },
    "required": ["index", "seats", "turn", "phase", "stock", "pile", "pile_size", "to_do"],
    "additionalProperties": False,
}
MOVE: Schema = {
    "type": "object",
    "properties": {
        "kind": {"enum": list(MOVE_KINDS)},
        "card": {"type": ["string", "null"], "pattern": CARD_PATTERN},
        "left": {"type": ["integer", "null"]},
        "best": {"type": "boolean"},
        "label": TEXT,
    },
    "required": ["kind", "card", "left", "best", "label"],
    "additionalProperties": False,
}
MINE: Schema = {
    "type": "object",
    "properties": {
        "board": {"type": "integer", "minimum": 0},
        "melds": MELDS,
        "deadwood": CARDS,
        "deadwood_value": {"type": "integer", "minimum": 0},
        "drawn": {"type": ["string", "null"], "pattern": CARD_PATTERN},
        "taken": {"type": ["string", "null"], "pattern": CARD_PATTERN},
        "token": {"type": "integer", "minimum": 0},
        "moves": {"type": "array", "items": MOVE, "maxItems": 40},
        "meter": {"type": ["string", "null"], "maxLength": 300},
    },
    "required": [
        "board",
        "melds",
        "deadwood",
        "deadwood_value",
        "drawn",
        "taken",
        "token",
        "moves",
        "meter",
    ],
    "additionalProperties": False,
}
SHOWN_HAND: Schema = {
    "type": "object",
    "properties": {
        "seat": {"type": "integer"},
        "melds": MELDS,
        "deadwood": CARDS,
        "deadwood_value": {"type": "integer"},
        "laid_off": CARDS,
    },
    "required": ["seat", "melds", "deadwood", "deadwood_value", "laid_off"],
    "additionalProperties": False,
}
SHOWDOWN: Schema = {
    "type": "object",
    "properties": {
        "hand": {"type": "integer", "minimum": 1},
        "board": {"type": "integer", "minimum": 0},
        "hands": {"type": "array", "items": SHOWN_HAND, "maxItems": 2},
        "panel": PANEL,
    },
    "required": ["hand", "board", "hands", "panel"],
    "additionalProperties": False,
}
TABLE: Schema = {
    "type": "object",
    "properties": {
        "id": {"type": ["integer", "null"]},
        "status": {"enum": ["none", "challenge", "lobby", "playing", "finished", "closed"]},
        "mode": {"type": "string", "maxLength": 20},
        "title": TEXT,
        "hand": {"type": "integer", "minimum": 0},
        "you": {"type": ["integer", "null"]},
        "seats": {"type": "array", "items": SEAT, "maxItems": 14},
        "boards": {"type": "array", "items": BOARD, "maxItems": 2},
        "scores": TEXT,
        "status_text": TEXT,
        "rules_text": TEXT,
        "log": {"type": "array", "items": TEXT, "maxItems": 12},
        "ends_at": {"type": ["number", "null"]},
        "mine": {"type": ["object", "null"], **{k: v for k, v in MINE.items() if k != "type"}},
        "showdown": {
            "type": ["object", "null"],
            **{k: v for k, v in SHOWDOWN.items() if k != "type"},
        },
        "result": {"type": ["object", "null"], **{k: v for k, v in PANEL.items() if k != "type"}},
        "can_answer": {"type": "boolean"},
        "can_rematch": {"type": "boolean"},
    },
    "required": [
        "id",
        "status",
        "mode",
        "title",
        "hand",
        "you",
        "seats",
        "boards",
        "scores",
        "status_text",
        "rules_text",
        "log",
        "ends_at",
        "mine",
        "showdown",
        "result",
        "can_answer",
        "can_rematch",
    ],
    "additionalProperties": False,
}

SERVER_FRAMES: Mapping[str, Schema] = {
    # The answer to a hello: the session for the next hello (reconnects need no Discord
    # call), who the socket belongs to, and the words of the page in their language.
    "welcome": _frame(
        "welcome",
        {
            "session": {"type": "string", "maxLength": 600},
            "user": {
                "type": "object",
                "properties": {"id": SNOWFLAKE, "name": {"type": "string", "maxLength": 100}},
                "required": ["id", "name"],
                "additionalProperties": False,
            },
            "language": {"enum": ["en", "es", "fr", "de", "pt_BR"]},
            "strings": {"type": "object", "additionalProperties": TEXT},
        },
        ("session", "user", "language", "strings"),
    ),
    # The channel's table as this socket may see it: sent after the welcome and after
    # every change. Only a seat's own socket gets ``mine``.
    "table": _frame("table", {"table": TABLE}, ("table",)),
    # A frame refused, or a move the rules or the table refused: nothing changed.
    "error": _frame(
        "error",
        {
            "code": {
                "enum": [
                    "bad_frame",
                    "too_large",
                    "too_fast",
                    "not_authenticated",
                    "auth_failed",
                    "not_seated",
                    "stale",
                    "refused",
                    "no_table",
                    "unavailable",
                ]
            },
            "message": TEXT,
            "ref": {"type": ["integer", "null"]},
        },
        ("code", "message", "ref"),
    ),
}


# --- checking -----------------------------------------------------------------------------


class FrameError(Exception):
    """A frame that is not what the protocol allows; ``code`` names why for the client."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Frame:
    """A client's frame that passed its schema."""

    type: str
    data: Mapping[str, Any]

    @property
    def ref(self) -> int | None:
        ref = self.data.get("ref")
        return ref if isinstance(ref, int) else None


def parse_client_frame(raw: str | bytes) -> Frame:
    """The frame a client sent, checked; ``FrameError`` if it is too large, not JSON, or
    breaks its schema."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_FRAME:
        raise FrameError("too_large", f"a frame may be {MAX_FRAME} bytes at most, not {size}")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise FrameError("bad_frame", "a frame must be one JSON object") from None
    if not isinstance(data, dict):
        raise FrameError("bad_frame", "a frame must be one JSON object")
    kind = data.get("type")
    schema = CLIENT_FRAMES.get(kind) if isinstance(kind, str) else None
    if schema is None or not isinstance(kind, str):
        raise FrameError("bad_frame", f"unknown frame type {str(kind)[:30]!r}")
    problems = check(data, schema)
    if problems:
        raise FrameError("bad_frame", problems[0])
    return Frame(kind, data)


_TYPES: Mapping[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def _is(value: Any, name: str) -> bool:
    if isinstance(value, bool) and name in ("integer", "number"):
        return False
    return isinstance(value, _TYPES[name])


@cache
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


def check(value: Any, schema: Schema, where: str = "frame") -> list[str]:
    """Every way ``value`` breaks ``schema`` (empty: it holds)."""
    problems: list[str] = []
    if "const" in schema and value != schema["const"]:
        return [f"{where} must be {schema['const']!r}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where} must be one of {', '.join(map(str, schema['enum']))}"]
    kinds = schema.get("type")
    if kinds is not None:
        names = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_is(value, name) for name in names):
            return [f"{where} must be of type {' or '.join(names)}"]
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            problems.append(f"{where} is longer than {schema['maxLength']} characters")
        if len(value) < schema.get("minLength", 0):
            problems.append(f"{where} is shorter than {schema['minLength']} characters")
        if "pattern" in schema and not _pattern(schema["pattern"]).search(value):
            problems.append(f"{where} is not of the form {schema['pattern']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{where} is below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(f"{where} is above {schema['maximum']}")
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            problems.append(f"{where} has more than {schema['maxItems']} items")
        items = schema.get("items")
        if items is not None:
            for index, item in enumerate(value):
                problems.extend(check(item, items, f"{where}[{index}]"))
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                problems.append(f"{where} lacks {name!r}")
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in properties:
                problems.extend(check(item, properties[name], f"{where}.{name}"))
            elif extra is False:
                problems.append(f"{where} has an unknown field {str(name)[:30]!r}")
            elif isinstance(extra, Mapping):
                problems.extend(check(item, extra, f"{where}.{name}"))
    return problems


def check_server_frame(frame: Mapping[str, Any]) -> list[str]:
    """How a frame the server sends breaks its schema (tests check every frame with it)."""
    schema = SERVER_FRAMES.get(str(frame.get("type")))
    if schema is None:
        return [f"unknown server frame {frame.get('type')!r}"]
    return check(frame, schema)
