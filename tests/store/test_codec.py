"""The JSON written to the database: compact, valid, read back as written."""

from __future__ import annotations

import json
import math

import pytest

from bot.gin.match import Match, Player
from bot.store import codec


def test_a_match_state_is_written_as_the_standard_library_writes_it() -> None:
    match = Match.start((Player("1", "Alice ♥"), Player("2", "Bob")), seed="codec")
    state = match.to_dict(history=False)
    text = codec.dump(state)
    assert text == json.dumps(state, separators=(",", ":"), ensure_ascii=False)
    assert codec.load(text) == state


def test_keys_become_text_and_non_finite_numbers_null() -> None:
    assert codec.load(codec.dump({"hands": {0: "a"}})) == {"hands": {"0": "a"}}
    text = codec.dump({"x": math.nan, "y": math.inf})
    assert json.loads(text) == {"x": None, "y": None}


def test_only_objects_are_written_or_read() -> None:
    with pytest.raises(TypeError):
        codec.dump([1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        codec.load("[1, 2]")
