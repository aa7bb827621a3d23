"""A tournament's post and a season's standings post are made once, even when the bot stops
after posting and before keeping the post's id: after the restart it looks before posting
again. The tournament's bot process is killed the moment Discord has its standings (before
the answer reaches it); the season's post is made by a process that never records it, and
taken again once its claim lapses. One run of each lets Discord forget the posts' nonces
first, so only the bot's own look prevents a repeat."""

from __future__ import annotations

import json
import signal
import sqlite3
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.test_restart import bot_process
from tests.e2e.test_seasons import match
from tests.e2e.tournament_driver import cog_of
from tests.fakediscord import Message
from tests.fakediscord import store as fake_store
from tests.tournaments.conftest import Clock


def kept(world: World) -> dict[str, Any]:
    with sqlite3.connect(world.db_path) as db:
        (settings,) = db.execute("SELECT settings FROM tournaments").fetchone()
        return dict(json.loads(settings).get("screens", {}))


def titled(world: World, word: str) -> list[Message]:
    fake = world.fake
    return [
        m
        for m in fake.channel_messages(world.channel)
        if m.author.id == fake.bot.id and word in str((m.embeds or [{}])[0].get("title"))
    ]


@pytest.mark.parametrize("nonce_remembered", [True, False])
async def test_standings_posted_just_before_a_kill_are_not_posted_again(
    world: World, monkeypatch: pytest.MonkeyPatch, nonce_remembered: bool
) -> None:
    fake = world.fake
    dan = fake.add_user("dan", global_name="Dan")
    fake.add_member(world.guild, dan)
    people = [world.alice, world.bob, world.carol, dan]
    with bot_process(world) as first:
        killed: list[int] = []

        def kill_on_standings(event: str, data: dict[str, Any], _guild: int | None) -> None:
            title = str((data.get("embeds") or [{}])[0].get("title", ""))
            if event == "MESSAGE_CREATE" and "Standings" in title and not killed:
                first.send_signal(signal.SIGKILL)  # before the answer reaches the bot
                killed.append(int(data["id"]))

        fake.store.sinks.append(kill_on_standings)
        try:
            await fake.wait_until_connected(timeout=30)
            await fake.wait_for_command("gin", world.guild, timeout=30)
            await fake.slash(
                world.alice, world.channel, "gin tournament open", format="swiss", rounds=2
            )
            for user in people:
                joined = await fake.slash(user, world.channel, "gin tournament join")
                assert "⚠️" not in joined.text, joined.text
            await fake.slash(world.alice, world.channel, "gin tournament start")
            await fake.wait_for(lambda: killed, timeout=20, what="the standings posted")
            first.wait(timeout=10)
        finally:
            fake.store.sinks.remove(kill_on_standings)
        await fake.wait_for(
            lambda: fake.gateway.session_for(None) is None, timeout=10, what="the session to drop"
        )
    assert "standings" not in kept(world)  # the process died before keeping its id
    if not nonce_remembered:
        monkeypatch.setattr(fake_store, "NONCE_SECONDS", 0.0)
    with bot_process(world):
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for(
            lambda: "standings" in kept(world), timeout=20, what="the standings kept"
        )
        assert kept(world)["standings"] == killed[0]  # the post made before the kill
        assert [m.id for m in titled(world, "Standings")] == killed
        assert len(titled(world, "Round 1")) == 1


@pytest.mark.parametrize("nonce_remembered", [True, False])
async def test_a_season_post_made_by_a_process_that_died_is_not_made_again(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch, nonce_remembered: bool
) -> None:
    fake = world.fake
    board = fake.add_channel(world.guild, "standings")
    clock = Clock(datetime(2025, 3, 31, 21, 0, tzinfo=UTC))  # a Monday
    bot.service.clock = clock
    bot.tournaments.clock = clock
    bot.tournaments.seasons.clock = clock
    seasons = cog_of(bot).seasons
    await match(world, bot, world.alice, world.bob)
    answer = await fake.slash(
        world.alice, world.channel, "gin-season posts", channel=board, weekday=0, hour=23
    )
    assert "every Monday at 23:00 UTC" in answer.text, answer.text

    def posts() -> list[Message]:
        return [m for m in fake.channel_messages(board) if m.author.id == fake.bot.id]

    # A process claims the post and makes it, then dies before recording it.
    clock.advance(hours=2, minutes=30)  # 23:30, the slot passed
    recorded = seasons.service.post_made

    async def died(*_args: object) -> bool:
        return False

    monkeypatch.setattr(seasons.service, "post_made", died)
    await seasons.post_due("the first process")
    assert len(posts()) == 1
    monkeypatch.setattr(seasons.service, "post_made", recorded)
    if not nonce_remembered:
        monkeypatch.setattr(fake_store, "NONCE_SECONDS", 0.0)
    # Its claim lapses; another process takes the post up, and finds it made.
    clock.advance(minutes=10)
    await seasons.post_due("another process")
    assert [m.id for m in posts()] == [posts()[0].id]
    assert "This week's standings of season 2025-03" in posts()[0].text
    await seasons.post_due("a third process")  # recorded now: nobody posts it again
    assert len(posts()) == 1
