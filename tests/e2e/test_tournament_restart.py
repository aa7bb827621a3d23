"""The bot process is killed in the middle of a tournament's round and started again on the
same database: every match goes on in its thread, the round ends as it should, and the next
is paired; no message or thread is made twice."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
from typing import Any

from bot.gin.hand import ActionKind
from bot.gin.match import Match
from tests.e2e.conftest import World
from tests.e2e.test_restart import bot_process
from tests.fakediscord import Channel, InteractionResult, User
from tests.gin.players import choose


def pairings(world: World, round_number: int) -> list[dict[str, Any]]:
    with sqlite3.connect(world.db_path) as db:
        db.row_factory = sqlite3.Row
        rows = db.execute(
            "SELECT * FROM tournament_pairings WHERE round = ? ORDER BY board", (round_number,)
        )
        return [dict(row) for row in rows]


def kept(world: World) -> dict[str, Any]:
    """What the Discord layer keeps with the tournament (message and thread ids)."""
    with sqlite3.connect(world.db_path) as db:
        (settings,) = db.execute("SELECT settings FROM tournaments").fetchone()
        return dict(json.loads(settings).get("screens", {}))


def display_of(world: World, table_id: int) -> dict[str, Any]:
    with sqlite3.connect(world.db_path) as db:
        (display,) = db.execute("SELECT display FROM matches WHERE id = ?", (table_id,)).fetchone()
        return dict(json.loads(display))


def match_of(world: World, table_id: int) -> Match:
    with sqlite3.connect(world.db_path) as db:
        (state,) = db.execute("SELECT state FROM matches WHERE id = ?", (table_id,)).fetchone()
        return Match.from_dict(json.loads(state))


async def move(world: World, users: dict[str, User], thread: Channel, match: Match) -> None:
    """One move of the player to act, by slash command in the match's thread."""
    action = choose(match.hand, "knocker", random.Random(3))
    user = users[match.players[action.seat].id]
    fake = world.fake
    result: InteractionResult
    if action.kind is ActionKind.PASS:
        result = await fake.slash(user, thread, "gin pass")
    elif action.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
        source = "stock" if action.kind is ActionKind.DRAW_STOCK else "discard"
        result = await fake.slash(user, thread, "gin draw", source=source)
    else:
        result = await fake.slash(user, thread, "gin discard", card=str(action.card))
    assert "⚠️" not in result.text, result.text


async def test_a_restart_in_the_middle_of_a_round(world: World) -> None:
    fake = world.fake
    dan = fake.add_user("dan", global_name="Dan")
    fake.add_member(world.guild, dan)
    people = [world.alice, world.bob, world.carol, dan]
    users = {str(u.id): u for u in people}
    with bot_process(world) as first:
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for_command("gin", world.guild, timeout=30)
        opened = await fake.slash(
            world.alice, world.channel, "gin tournament open", format="swiss", rounds=2, target=50
        )
        assert not opened.ephemeral, opened.text
        for user in people:
            joined = await fake.slash(user, world.channel, "gin tournament join")
            assert "⚠️" not in joined.text, joined.text
        await fake.slash(world.alice, world.channel, "gin tournament start")
        await fake.wait_for(
            lambda: (
                len(pairings(world, 1)) == 2
                and all(p["state"] == "playing" for p in pairings(world, 1))
                and len(fake.threads(world.channel)) == 2
                and "standings" in kept(world)
            ),
            timeout=15,
            what="round 1's two matches in their threads, and the standings",
        )
        threads = {int(v) for k, v in kept(world).items() if k.startswith("thread:1:")}
        standings = kept(world)["standings"]
        # One match ends before the kill; the other is being played.
        done, going = pairings(world, 1)
        thread_of = {int(kept(world)[f"thread:1:{p['board']}"]): p for p in (done, going)}
        done_thread = next(t for t in fake.threads(world.channel) if thread_of[t.id] is done)
        going_thread = next(t for t in fake.threads(world.channel) if thread_of[t.id] is going)
        resigned = await fake.slash(users[done["player_b"]], done_thread, "gin resign")
        assert "⚠️" not in resigned.text, resigned.text
        await fake.wait_for(
            lambda: pairings(world, 1)[done["board"]]["state"] == "decided",
            timeout=10,
            what="the first result recorded",
        )
        await move(world, users, going_thread, match_of(world, going["table_id"]))
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        await fake.wait_for(
            lambda: fake.gateway.session_for(None) is None, timeout=10, what="the session to drop"
        )
    # As an older version kept it: the table did not say whose match it plays.
    display = display_of(world, going["table_id"])
    assert display.pop("tournament") == 1
    with sqlite3.connect(world.db_path) as db:
        db.execute(
            "UPDATE matches SET display = ? WHERE id = ?", (json.dumps(display), going["table_id"])
        )
    with bot_process(world):
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for(
            lambda: display_of(world, going["table_id"]).get("tournament") == 1,
            timeout=20,
            what="the table told whose match it plays",
        )
        # The match still being played goes on where it was, in its thread.
        match = match_of(world, going["table_id"])
        await move(world, users, going_thread, match)
        assert len(match_of(world, going["table_id"]).hand.actions) > len(match.hand.actions)
        loser = users[going["player_a"]]
        resigned = await fake.slash(loser, going_thread, "gin resign")
        assert "⚠️" not in resigned.text, resigned.text
        # The round ends as it should, and the next is paired and opened in new threads.
        await fake.wait_for(
            lambda: len(pairings(world, 2)) == 2 and len(fake.threads(world.channel)) == 4,
            timeout=20,
            what="round 2 paired and opened",
        )
        await fake.wait_for(
            lambda: all(p["table_id"] for p in pairings(world, 2)),
            timeout=10,
            what="round 2's tables",
        )
        first_round = pairings(world, 1)
        assert {p["decided_by"] for p in first_round} == {"match"}
        assert first_round[going["board"]]["winner_id"] == going["player_b"]
        met = {frozenset((p["player_a"], p["player_b"])) for p in first_round}
        assert not met & {frozenset((p["player_a"], p["player_b"])) for p in pairings(world, 2)}
        # Nothing made twice: the same standings message, and round 1's threads only once.
        assert kept(world)["standings"] == standings
        assert {int(v) for k, v in kept(world).items() if k.startswith("thread:1:")} == threads
        posts = [
            m
            for m in fake.channel_messages(world.channel)
            if m.author.id == fake.bot.id and "Standings" in str((m.embeds or [{}])[0].get("title"))
        ]
        assert [m.id for m in posts] == [standings]
        await fake.wait_for(
            lambda: "Standings after round 1" in fake.message(standings).text,
            timeout=10,
            what="the standings after round 1",
        )
