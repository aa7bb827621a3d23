"""Oklahoma and Hollywood matches as stored (format 2) load and replay to exactly the same
states: the seeds and moves of ``data/variants_v2.json`` reach every stored state again.

The file was written by ``python -m tests.gin.test_format_variants --write``: one seeded match
of each variant played to the end by scripted players (the state every 50 moves, every other
one with its finished hands kept apart, as the table service stores them) and one resignation.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.gin.hand import Action
from bot.gin.match import Match, Player
from bot.gin.settings import Settings
from tests.gin.players import choose

GOLDEN_PATH = Path(__file__).parent / "data" / "variants_v2.json"
PLAYERS = [Player("1", "Ann"), Player("2", "Ben")]
GAMES = [
    ("oklahoma-1", Settings(variant="oklahoma", ace="one", spades_double=True)),
    ("hollywood-1", Settings(variant="hollywood")),
]
EVERY = 50


def record(seed: str, settings: Settings) -> dict[str, Any]:
    rng = random.Random(seed)
    match = Match.start(PLAYERS, settings, seed=seed)
    actions: list[dict[str, Any]] = []
    states: list[tuple[int, dict[str, Any]]] = []
    while True:
        if len(actions) % EVERY == 0 or match.is_over:
            kept_apart = (len(actions) // EVERY) % 2 == 1
            states.append((len(actions), match.to_dict(history=not kept_apart)))
        if match.is_over:
            break
        action = choose(match.hand, "knocker", rng)
        actions.append(action.to_dict())
        match.apply(action)
    resigned = Match.start(PLAYERS, settings, seed=seed + "-r")
    for _ in range(40):
        resigned.apply(choose(resigned.hand, "knocker", rng))
    resigned.resign(1)
    return {
        "seed": seed,
        "settings": settings.to_dict(),
        "actions": actions,
        "states": states,
        "resigned": resigned.to_dict(),
    }


def write() -> None:
    games = [record(seed, settings) for seed, settings in GAMES]
    GOLDEN_PATH.write_text(json.dumps(games, ensure_ascii=False, separators=(",", ":")))


GOLDEN: list[dict[str, Any]] = json.loads(GOLDEN_PATH.read_text()) if GOLDEN_PATH.exists() else []


def replayed(game: dict[str, Any]) -> dict[str, Any]:
    """The last stored state with every finished hand, as a replay gives them."""
    match = Match.start(PLAYERS, Settings.from_dict(game["settings"]), seed=game["seed"])
    for action in game["actions"]:
        match.apply(Action.from_dict(action))
    return {**game["states"][-1][1], "history": [h.to_dict() for h in match.history]}


@pytest.mark.parametrize("game", GOLDEN, ids=[g["seed"] for g in GOLDEN])
def test_variant_states_load_and_replay_exactly(game: dict[str, Any]) -> None:
    settings = Settings.from_dict(game["settings"])
    assert settings.to_dict() == game["settings"]
    match = Match.start(PLAYERS, settings, seed=game["seed"])
    states = dict((moves, state) for moves, state in game["states"])
    for moves in range(len(game["actions"]) + 1):
        if moves in states:
            stored = states[moves]
            loaded = Match.from_dict(stored)
            if "history" not in stored:
                loaded.history = list(match.history)  # kept apart, given back
            assert loaded == match, f"state after {moves} moves differs"
            assert match.to_dict(history="history" in stored) == stored
        if moves < len(game["actions"]):
            match.apply(Action.from_dict(game["actions"][moves]))
    assert match.result is not None
    last = game["states"][-1][1]
    assert match.to_dict(history="history" in last) == last


def test_the_golden_file_holds_both_variants() -> None:
    assert [g["settings"]["variant"] for g in GOLDEN] == ["oklahoma", "hollywood"]
    oklahoma, hollywood = (Match.from_dict(replayed(g)) for g in GOLDEN)
    assert any(h.result.multiplier == 2 for h in oklahoma.history)  # a spade upcard was seen
    assert oklahoma.result is not None and not oklahoma.result.games
    assert hollywood.result is not None and len(hollywood.result.games) == 3
    assert all(h.games for h in hollywood.history if h.result.winner is not None)


@pytest.mark.parametrize("game", GOLDEN, ids=[g["seed"] for g in GOLDEN])
def test_a_stored_variant_resignation_loads(game: dict[str, Any]) -> None:
    loaded = Match.from_dict(game["resigned"])
    assert loaded.result is not None and loaded.result.loser == 1
    assert loaded.to_dict() == game["resigned"]
    assert Match.from_dict(json.loads(json.dumps(loaded.to_dict()))) == loaded


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
        print(f"wrote {GOLDEN_PATH}")
