"""Pictures of the Activity for the README: ``python -m tests.web.screenshots``.

Plays a match through the fake Discord with the real page in headless Chromium (Alice on a
phone 360 px wide, Bob on a desktop, Carol watching), and writes docs/images/activity-*.png:
the table on a phone and on a desktop, a showdown, and a spectator's view.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

from bot.gin.hand import Phase
from tests.e2e.conftest import add_card_emojis, card_room
from tests.fakediscord import FakeDiscord, patch_discord
from tests.web.browser import DESKTOP, PHONE, Person, chromium, open_person, page_url
from tests.web.conftest import SECRET, TOKEN, start_web_bot, web_config

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


async def shoot(person: Person, name: str) -> None:
    path = IMAGES / f"activity-{name}.png"
    await person.page.screenshot(path=str(path), full_page=False)
    print(f"wrote {path}")


async def main() -> None:
    fake = FakeDiscord(token=TOKEN, client_secret=SECRET, mock_codes=True, activities=True)
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        world = card_room(fake, Path(folder) / "gin.sqlite3")
        add_card_emojis(fake)
        with patch_discord(fake.http_base, fake.gateway_url):
            bot, task = await start_web_bot(world, web_config(world.db_path))
            assert bot.web is not None
            base = f"http://127.0.0.1:{bot.web.port}"
            instance = fake.add_activity_instance(
                world.channel, [world.alice, world.bob, world.carol]
            ).instance_id
            try:
                async with chromium() as browser:
                    await play(browser, fake, world, bot, base, instance)
            finally:
                await bot.close()
                await task
    await fake.stop()


async def play(
    browser: Any, fake: FakeDiscord, world: Any, bot: Any, base: str, instance: str
) -> None:
    result = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    assert result.message is not None
    table = bot.service.in_channel(str(world.channel.id))

    def url(user: Any) -> str:
        return page_url(base, user, world.channel, instance)

    alice = await open_person(browser, url(world.alice), "alice", PHONE)
    bob = await open_person(browser, url(world.bob), "bob", DESKTOP)
    carol = await open_person(browser, url(world.carol), "carol", DESKTOP)
    await bob.page.locator(".overlay .accept").click()
    await fake.wait_for(lambda: table.match is not None, what="the match")
    players = {str(world.alice.id): alice, str(world.bob.id): bob}
    rng = random.Random(4)
    shots: set[str] = set()
    moves = 0
    while table.is_open and moves < 400:
        await fake.wait_for(
            lambda: not table.is_open or (not table.lock.locked() and table.match.to_act()),
            what="a turn",
        )
        if not table.is_open:
            break
        seat = table.match.to_act()[0]
        who = players[table.players[seat].id]
        if not await who.my_turn():
            break
        choosing = table.match.hand.phase is Phase.DISCARD  # her cards are live to pick
        if moves >= 9 and "phone" not in shots and who is alice and choosing:
            await alice.page.locator(".hand .card.live").first.click()  # a card picked
            await shoot(alice, "phone")
            shots.add("phone")
        if moves >= 12 and "desktop" not in shots and who is bob:
            await shoot(bob, "desktop")
            await shoot(carol, "spectator")
            shots.update({"desktop", "spectator"})
        if "showdown" not in shots and table.match.history:
            await carol.page.wait_for_selector(".overlay .panel")
            await shoot(carol, "showdown")
            shots.add("showdown")
        await who.play_one(rng)
        await who.settled()
        moves += 1
    for person in (alice, bob, carol):
        await person.close()


if __name__ == "__main__":
    asyncio.run(main())
