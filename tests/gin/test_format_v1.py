"""Matches stored in format 1 (the two-player engine before modes) still load, as classic, and
replaying their seeds and moves with today's engine reaches exactly the same states.

`data/classic_v1.json` was written by that engine: two seeded matches played to the end (the
moves and the state every 15 moves, some with their finished hands, some without) and one that
ended by resignation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.gin.hand import Action
from bot.gin.match import Match, Player
from bot.gin.settings import Settings

GOLDEN = json.loads((Path(__file__).parent / "data" / "classic_v1.json").read_text())
PLAYERS = [Player("1", "Ann"), Player("2", "Ben")]


def comparable(match: Match) -> dict[str, Any]:
    """What format 1 held, from a match of today: the version and mode-only fields left out."""
    data = match.to_dict()
    for key in ("version", "mode", "sides", "pairing", "dealing_side", "out", "dropped"):
        data.pop(key)
    data["hand"] = data.pop("boards")[0]
    if data["result"] is not None:
        data["result"].pop("placings")
    for name in ("sit_out", "rotate_opponents", "team_target", "set_suits"):
        data["settings"].pop(name)
        data["hand"]["settings"].pop(name)
    return data


@pytest.mark.parametrize("game", GOLDEN, ids=[g["seed"] for g in GOLDEN])
def test_format_1_states_load_and_replay_the_same(game: dict[str, Any]) -> None:
    settings = Settings.from_dict(game["settings"])
    match = Match.start(PLAYERS, settings, seed=game["seed"])
    states = dict((moves, state) for moves, state in game["states"])
    for moves in range(len(game["actions"]) + 1):
        if moves in states:
            stored = states[moves]
            assert stored["version"] == 1
            loaded = Match.from_dict(stored)
            assert loaded.mode_name == "classic" and loaded.sides == (0, 1)
            if "history" not in stored:
                loaded.history = list(match.history)  # kept apart, given back
            assert comparable(loaded) == comparable(match), f"state after {moves} moves differs"
            assert loaded.to_dict() == Match.from_dict(loaded.to_dict()).to_dict()
        if moves < len(game["actions"]):
            match.apply(Action.from_dict(game["actions"][moves]))
    assert match.result is not None
    last = Match.from_dict(game["states"][-1][1])
    assert last.result is not None and last.result.winner == match.result.winner
    assert last.result.placings == match.result.placings


@pytest.mark.parametrize("game", GOLDEN, ids=[g["seed"] for g in GOLDEN])
def test_a_format_1_resignation_loads_with_places(game: dict[str, Any]) -> None:
    loaded = Match.from_dict(game["resigned"])
    assert loaded.result is not None and loaded.result.loser == 1
    assert loaded.result.placings == (1, 2)
    replayed = Match.start(PLAYERS, seed=game["seed"] + "-r")
    replayed.resign(1)
    assert comparable(replayed) == comparable(loaded)
