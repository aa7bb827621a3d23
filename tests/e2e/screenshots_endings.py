"""Pictures of a slash-command player's channel and of endings at bigger tables, as Discord
shows them: ``python -m tests.e2e.screenshots_endings``.

Played through the fake Discord against the real bot, as ``tests.e2e.screenshots`` does:
Alice's channel after several moves by slash command (one private reply, not a pile), a
resignation in a three-player match, and a moderator's `/gin end` at a six-seat table.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.client import GinBot
from tests.e2e.conftest import World, card_room, start_bot
from tests.e2e.helpers_inputs import quiet_move, settle
from tests.e2e.modes_driver import Seats, people
from tests.e2e.screens import Page, Screen
from tests.e2e.screenshots import ROOT, TOKEN, WIDTH, Shot, frozen, photograph
from tests.fakediscord import FakeDiscord, Message, User, patch_discord

MANAGE_MESSAGES = 1 << 13
Scene = Callable[[World, GinBot], Awaitable[list[Shot]]]


def seen_by(fake: FakeDiscord, world: World, user: User) -> list[Message]:
    """The channel as this user sees it: the bot's messages, with their own private
    replies among them."""
    store = fake.store
    shown = []
    for message_id in store.channel_messages.get(world.channel.id, []):
        message = store.messages[message_id]
        if message.deleted or message.author.id != fake.bot.id:
            continue
        if message.ephemeral:
            record = fake.interactions.get(message.interaction_id or 0)
            if record is None or record.user.id != user.id:
                continue
        shown.append(frozen(message))
    return shown


async def by_commands(world: World, bot: GinBot) -> list[Shot]:
    """Alice and Bob play a dozen moves by slash command."""
    seats = Seats(world, bot, people(world, 2))
    await seats.challenge(world.alice, world.bob, target=100)
    await seats.dealt()
    for _ in range(12):
        action = quiet_move(seats.match.hand)
        result = await seats.command(action)
        assert "⚠️" not in result.text, result.text
        await settle()
    await asyncio.sleep(8)  # the spectators' table catches up (it is edited on a budget)
    title = "Alice's channel after twelve moves by slash command: one private reply, her live hand"
    return [Shot("commands", title, seen_by(world.fake, world, world.alice)[-3:])]


async def resigned_at_three(world: World, bot: GinBot) -> list[Shot]:
    """Three play a few moves; a player of the hand (not Alice) resigns, and the two others
    play on to the end."""
    fake = world.fake
    users = people(world, 3)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "three")
    for user in users[1:]:
        await seats.join_by_button(user)
    await seats.dealt()
    await seats.play(seed=5, stop=lambda match: sum(len(b.actions) for b in match.boards) >= 6)
    table = seats.table
    assert table is not None
    leaver = seats.user(next(s for s in seats.match.hand.seats if seats.user(s) != world.alice))
    resigned = await fake.slash(leaver, world.channel, "gin resign")
    assert "⚠️" not in resigned.text, resigned.text
    await seats.play(seed=6)
    await fake.wait_for(
        lambda: set(table.human_seats) <= set(table.display.get("result_dms", [])),
        what="each player's result",
    )
    await settle()
    shown = [m for m in seen_by(fake, world, world.alice) if not m.ephemeral]
    left = next(m for m in shown if "the hand is not played out" in m.text)
    dms = [frozen(m) for m in fake.dm_messages(world.alice)][-2:]
    name = leaver.global_name
    return [
        Shot(
            "resigned",
            f"{name} resigns mid-hand at three: the hand ends there, the two others play on",
            [left, shown[-1]],
        ),
        Shot("resigned-dm", "... and Alice's DMs: her last hand's showdown, then the result", dms),
    ]


async def ended_at_six(world: World, bot: GinBot) -> list[Shot]:
    """Six play elimination until one is out; a moderator ends the table."""
    fake = world.fake
    users = people(world, 6)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "elimination", players=6)
    for user in users[1:]:
        await seats.join_by_button(user)
    await seats.dealt()
    await seats.play(seed=2, stop=lambda match: bool(match.out))
    await settle()
    moderator = fake.add_user("mod", global_name="Mod")
    fake.add_member(world.guild, moderator, permissions=MANAGE_MESSAGES)
    ended = await fake.slash(moderator, world.channel, "gin end")
    assert "⚠️" not in ended.text, ended.text
    await settle()
    await asyncio.sleep(1.5)  # the last edits
    channel = [m for m in seen_by(fake, world, world.alice) if not m.ephemeral][-2:]
    table = seats.table
    assert table is not None and table.match is not None
    out = next(iter(table.match.out))
    playing = next(s for s in range(6) if s not in table.match.out)
    shots = [Shot("ended", "A moderator's /gin end at a six-seat table: the channel", channel)]
    for seat, name in ((playing, "ended-dm"), (out, "ended-out-dm")):
        user = seats.user(seat)
        title = f"... {user.global_name}'s last DM"
        shots.append(Shot(name, title, [frozen(m) for m in fake.dm_messages(user)][-1:]))
    return shots


async def capture(scene: Scene, seed: int) -> tuple[list[Shot], Screen]:
    random.seed(seed)
    with tempfile.TemporaryDirectory(prefix="screenshots-") as folder:
        fake = FakeDiscord(token=TOKEN)
        await fake.start()
        try:
            world = card_room(fake, Path(folder) / "gin.sqlite3")
            with patch_discord(fake.http_base, fake.gateway_url):
                bot, task = await start_bot(world)
                try:
                    shots = await scene(world, bot)
                finally:
                    await bot.close()
                    await task
            return shots, Screen.of(fake)
        finally:
            await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.e2e.screenshots_endings", description=__doc__
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--html", action="store_true", help="keep the pages beside the pictures")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs Chromium: apt-get install chromium")
    args.out.mkdir(parents=True, exist_ok=True)
    for scene in (by_commands, resigned_at_three, ended_at_six):
        shots, screen = asyncio.run(capture(scene, 1))
        with tempfile.TemporaryDirectory(prefix="screens-") as folder:
            for shot in shots:
                page = Page(screen, shot.title, width=WIDTH)
                html = Path(folder) / f"{shot.name}.html"
                html.write_text(page.html(shot.messages), encoding="utf-8")
                png = args.out / f"screen-{shot.name}.png"
                photograph(html, png, chromium)
                if args.html:
                    shutil.copy(html, args.out / html.name)
                print(png.relative_to(ROOT) if png.is_relative_to(ROOT) else png)


if __name__ == "__main__":
    main()
