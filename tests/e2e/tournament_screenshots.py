"""Pictures of a tournament's messages as Discord shows them:
``python -m tests.e2e.tournament_screenshots``.

Eight people play a Swiss tournament of three rounds through the fake Discord against the
real bot, every match played out in its thread. The channel's messages (their real payloads)
are drawn as a page in Discord's dark theme (``tests.e2e.screens``) and photographed with
headless Chromium, as ``tests.e2e.screenshots`` does for the other screens: the standings
while round 2 is played, the last round's results with the winner and the final table, and
how a match's thread ends.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
from pathlib import Path

from bot.client import GinBot
from tests.e2e.conftest import World, card_room, start_bot
from tests.e2e.screens import Page, Screen
from tests.e2e.screenshots import ROOT, TOKEN, WIDTH, frozen, photograph
from tests.e2e.tournament_driver import Tourney, title_of
from tests.fakediscord import FakeDiscord, Message, patch_discord

NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eli", "Fran", "Gus", "Hana")


async def capture(target: int) -> tuple[dict[str, list[Message]], Screen]:
    with tempfile.TemporaryDirectory(prefix="tournament-shots-") as folder:
        fake = FakeDiscord(token=TOKEN)
        await fake.start()
        try:
            world = card_room(fake, Path(folder) / "gin.sqlite3")
            for user, name in zip((world.alice, world.bob, world.carol), NAMES, strict=False):
                user.global_name = name
            with patch_discord(fake.http_base, fake.gateway_url):
                bot, task = await start_bot(world)
                try:
                    shots = await play(world, bot, target)
                finally:
                    await bot.close()
                    await task
            return shots, Screen.of(fake)
        finally:
            await fake.stop()


async def play(world: World, bot: GinBot, target: int) -> dict[str, list[Message]]:
    tourney = Tourney(world, bot)
    people = tourney.people(8)
    for user, name in zip(people[3:], NAMES[3:], strict=True):
        user.global_name = name
    await tourney.open(people[0], format="swiss", target=target, round_minutes=60)
    await tourney.join(people)
    await tourney.start(people[0])
    fake = world.fake
    standings: list[Message] = []
    threads = []
    for number in (1, 2, 3):
        tables = await tourney.round_tables(number, timeout=60)
        for board, (thread, table) in sorted(tables.items()):
            await tourney.play(thread, table, seed=number * 10 + board)
            threads.append(thread)
        if number == 1:  # the standings as round 2 is played
            message = await fake.wait_for(
                lambda: next(
                    (m for m in tourney.channel_posts() if "after round 1" in title_of(m)), None
                ),
                timeout=30,
                what="the standings after round 1",
            )
            standings = [frozen(message)]
    await tourney.announced()
    final_thread = threads[-1]
    ending = await fake.wait_for(
        lambda: (
            [
                m
                for m in fake.channel_messages(final_thread)
                if m.author.id == fake.bot.id and m.embeds
            ][-2:]
            if any("Every result" in m.text for m in fake.channel_messages(final_thread))
            else None
        ),
        timeout=30,
        what="the last thread's end",
    )
    posts = tourney.channel_posts()
    last_round = [m for m in posts if "Round 3 of 3" in m.text]
    return {
        "standings": standings,
        "round": [frozen(m) for m in last_round + posts[-1:]],
        "thread": [frozen(m) for m in ending],
    }


TITLES = {
    "standings": "A Swiss tournament's standings while round 2 is played",
    "round": "The last round's results, then the winner with the final table (the last post)",
    "thread": "A match thread's end: the result, then what it means for the tournament",
}


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.e2e.tournament_screenshots", description=__doc__
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--target", type=int, default=50, help="the matches' target (50-500)")
    parser.add_argument("--html", action="store_true", help="keep the pages beside the pictures")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs Chromium: apt-get install chromium")
    shots, screen = asyncio.run(capture(args.target))
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="screens-") as folder:
        for name, messages in shots.items():
            page = Page(screen, TITLES[name], width=WIDTH)
            html = Path(folder) / f"tournament-{name}.html"
            html.write_text(page.html(messages), encoding="utf-8")
            png = args.out / f"screen-tournament-{name}.png"
            photograph(html, png, chromium)
            if args.html:
                shutil.copy(html, args.out / html.name)
            print(png.relative_to(ROOT) if png.is_relative_to(ROOT) else png)


if __name__ == "__main__":
    main()
