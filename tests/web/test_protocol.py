"""The protocol as written down is the protocol checked: docs/activity-protocol.md holds the
very schemas of bot/web/protocol.py, and the checker agrees with a full JSON Schema validator."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from bot.web.protocol import CLIENT_FRAMES, SERVER_FRAMES, FrameError, check, parse_client_frame

DOC = Path(__file__).resolve().parents[2] / "docs" / "activity-protocol.md"
BLOCK = re.compile(r"#### `(?P<name>\w+)`\n\n```json\n(?P<schema>.*?)\n```", re.DOTALL)


def documented() -> dict[str, Any]:
    return {m["name"]: json.loads(m["schema"]) for m in BLOCK.finditer(DOC.read_text())}


def test_the_document_holds_every_frame_as_the_code_checks_it() -> None:
    frames = {**CLIENT_FRAMES, **SERVER_FRAMES}
    assert documented() == json.loads(json.dumps(frames))


GOOD = [
    {"type": "hello", "v": 1, "instance": "i-1", "channel": "123", "token": "abc"},
    {
        "type": "hello",
        "v": 1,
        "instance": "i-1",
        "channel": "123",
        "session": "a.b",
        "locale": "fr",
    },
    {"type": "move", "kind": "draw_stock", "token": 100001, "ref": 1},
    {"type": "move", "kind": "discard", "card": "10H", "token": 5, "ref": 2},
    {"type": "answer", "accept": False, "ref": 3},
    {"type": "rematch", "ref": 4},
]
BAD = [
    {"type": "hello", "v": 2, "instance": "i-1", "channel": "123"},
    {"type": "hello", "v": 1, "instance": "i 1", "channel": "123"},
    {"type": "hello", "v": 1, "instance": "i-1", "channel": "12a"},
    {"type": "move", "kind": "discard", "card": "1H", "token": 5, "ref": 2},
    {"type": "move", "kind": "discard", "card": "10H", "token": -1, "ref": 2},
    {"type": "move", "kind": "discard", "card": "10H", "token": True, "ref": 2},
    {"type": "move", "kind": "discard", "token": 1, "ref": 2, "seat": 1},
    {"type": "answer", "accept": "yes", "ref": 3},
    {"type": "rematch"},
]


@pytest.mark.parametrize("frame", GOOD)
def test_good_frames_pass_both_checkers(frame: dict[str, Any]) -> None:
    schema = CLIENT_FRAMES[frame["type"]]
    jsonschema.validate(frame, schema)
    assert check(frame, schema) == []
    assert parse_client_frame(json.dumps(frame)).type == frame["type"]


@pytest.mark.parametrize("frame", BAD)
def test_bad_frames_fail_both_checkers(frame: dict[str, Any]) -> None:
    schema = CLIENT_FRAMES[frame["type"]]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(frame, schema)
    assert check(frame, schema)
    with pytest.raises(FrameError) as refused:
        parse_client_frame(json.dumps(frame))
    assert refused.value.code == "bad_frame"


def test_a_frame_too_large_is_refused_before_it_is_read() -> None:
    with pytest.raises(FrameError) as refused:
        parse_client_frame(json.dumps({"type": "rematch", "ref": 1, "pad": "x" * 3000}))
    assert refused.value.code == "too_large"
