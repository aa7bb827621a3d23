"""Pictures of the bot's messages as Discord shows them: ``python -m tests.e2e.screenshots``.

Two people play a short match through the fake Discord against the real bot, which uploads
its real card emojis. At chosen moments the messages the bot sent (their real payloads:
content, embeds, components, attachments) are drawn as a page in Discord's dark theme and
photographed with headless Chromium (``apt-get install chromium``). The pages are written
too (``--html``), to look at in a browser. The README's pictures come from here.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from tests.e2e.conftest import World, card_room, looked_away, screens_of, start_bot
from tests.e2e.driver import BUTTONS, Game
from tests.e2e.helpers_inputs import settle
from tests.e2e.screens import Page, Screen
from tests.fakediscord import FakeDiscord, Message, patch_discord
from tests.fakediscord.interactions import InteractionResult
from tests.gin.players import choose

TOKEN = "fake.bot.token"
ROOT = Path(__file__).resolve().parents[2]
WIDTH = 760
PHONE = 400  # a phone's screen, in CSS pixels


@dataclass
class Shot:
    name: str
    title: str
    messages: list[Message]
    width: int = WIDTH


async def capture(seed: int, target: int, variant: str) -> tuple[list[Shot], Screen]:
    """Plays one match and keeps the messages of each moment worth a picture."""
    with tempfile.TemporaryDirectory(prefix="screenshots-") as folder:
        fake = FakeDiscord(token=TOKEN)
        await fake.start()
        try:
            world = card_room(fake, Path(folder) / "gin.sqlite3")  # no emojis: the bot uploads
            with patch_discord(fake.http_base, fake.gateway_url):
                bot, task = await start_bot(world)  # uploads the real card art as emojis
                looked_away(bot)  # each turn comes as it does to someone who looked away
                try:
                    shots = await play(world, Game(world, bot), seed, target, variant)
                finally:
                    await bot.close()
                    await task
            screen = Screen.of(fake)
            return shots, screen
        finally:
            await fake.stop()


def frozen(message: Message) -> Message:
    """The message as it is now: later edits do not change the picture."""
    return Message(
        id=message.id,
        channel_id=message.channel_id,
        guild_id=message.guild_id,
        author=message.author,
        versions=[message.payload],
        attachments=list(message.attachments),
    )


async def play(world: World, game: Game, seed: int, target: int, variant: str) -> list[Shot]:
    fake = world.fake
    await game.start(world.alice, world.bob, target=target, variant=variant)
    rng = random.Random(seed)
    shots: list[Shot] = []

    def dm() -> list[Message]:
        return [frozen(m) for m in fake.dm_messages(world.alice)]

    def public() -> list[Message]:
        ours = [m for m in fake.channel_messages(world.channel) if m.author.id == fake.bot.id]
        return [frozen(m) for m in ours]

    hand_shot = table_shot = showdown_shot = alert_shot = stale_shot = reply_shot = False
    show_shot = False
    reply: InteractionResult | None = None  # Alice's last reply, waiting to carry her turn
    reply_hand = 0
    while not game.match.is_over:
        hand = game.match.hand
        seat = hand.turn
        alice_seat = 0 if game.user(0).id == world.alice.id else 1
        if (
            not hand_shot
            and seat == alice_seat
            and hand.phase.name == "DISCARD"
            and any(a.kind.name == "KNOCK" for a in hand.legal_actions())
            and len(hand.actions) > 6
        ):
            await settle()
            shots.append(Shot("hand", "Alice's hand, by DM, on her turn", dm()[-1:]))
            hand_shot = True
        if not table_shot and len(hand.actions) > 8:
            await settle()
            await asyncio.sleep(1.5)  # spectators' table is edited on a budget, not per move
            shots.append(Shot("table", "The table in the channel, as everyone sees it", public()))
            table_shot = True
        alert = [m for m in dm() if "🃏" in m.content]
        if not alert_shot and alert and seat == alice_seat:
            shots.append(Shot("alert", "Alice's turn comes: her hand, sent afresh", alert[-1:]))
            alert_shot = True
        number = game.match.hand_number
        if reply_shot and not show_shot and seat != alice_seat:
            # Alice presses Show my hand on the table while Bob plays: the buttons move to
            # the reply, and her DM, as her phone shows it, keeps her cards.
            table = game.table
            assert table is not None
            public_table = fake.message(table.display["public"])
            await fake.click(world.alice, public_table, f"gin:show:{table.id}")
            await settle()
            title = "After Show my hand: Alice's DM on her phone"
            shots.append(Shot("show-dm", title, dm()[-1:], width=PHONE))
            show_shot = True
        action = choose(hand, "knocker", rng)
        if reply is not None and seat == alice_seat:
            await settle()
            if number == reply_hand and reply.message is not None:
                title = "Alice plays by slash command: her turn comes back on her last reply"
                shots.append(Shot("reply", title, [frozen(reply.message)]))
                title = "Meanwhile her DM hand keeps her cards and says where the buttons are"
                shots.append(Shot("elsewhere", title, dm()[-1:]))
                reply_shot = True
            reply = None  # a hand that ended meanwhile: the next turn of hers tries again
        late = stale_shot and not reply_shot and reply is None
        if late and seat == alice_seat and hand.phase.name == "DISCARD":
            screens_of(game.bot).looking_seconds = 30.0  # she is watching the channel now
            reply, reply_hand = await game.command(action), number  # shown once Bob moved
            assert "⚠️" not in reply.text, reply.text
            await settle()
            continue
        if hand_shot and not stale_shot and seat == alice_seat and hand.phase.name == "DRAW":
            # Alice draws on her DM hand, then her client sends the same button again (a
            # double click, or a phone that had not seen the edit yet).
            table = game.table
            assert table is not None
            message = game.dm_panel(alice_seat)
            token = table.token(alice_seat)
            result = await game.button(action, message=message)
            assert "⚠️" not in result.text, result.text
            await settle()
            old_id = f"gin:mv:{table.id}:{token}:{BUTTONS.get(action.kind, 'stock')}"
            await fake.forge_component(world.alice, message, old_id)
            await settle()
            title = "A button from an earlier moment: the hand as it is now"
            shots.append(Shot("stale", title, [frozen(fake.message(message.id))]))
            stale_shot = True
            continue
        result = await game.button(action)
        assert "⚠️" not in result.text, result.text
        await settle()
        hand_over = game.match.is_over or game.match.hand_number != number
        if hand_over and not showdown_shot:
            await asyncio.sleep(0.5)  # the picture is drawn, then attached
            shown = [m for m in public() if m.attachments][-1:]
            shots.append(Shot("showdown", "A showdown in the channel", shown))
            showdown_shot = True
    await settle()
    await asyncio.sleep(1.5)  # the last edits and deletions
    shots.append(
        Shot("channel", "The channel at the end: the last hands and the result", public()[-3:])
    )
    shots.append(Shot("dms", "Alice's DMs after the match", dm()))
    return shots


def photograph(html: Path, png: Path, chromium: str, width: int = WIDTH) -> None:
    """Headless Chromium's picture of the page, cut to where the page ends."""
    subprocess.run(
        [
            chromium,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--window-size={width},4000",
            f"--screenshot={png}",
            html.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    crop_to_content(png)


def crop_to_content(png: Path) -> None:
    image = Image.open(png).convert("RGB")
    background = image.getpixel((image.width - 1, image.height - 1))
    bottom = image.height
    pixels = image.load()
    assert pixels is not None
    while bottom > 1 and all(pixels[x, bottom - 1] == background for x in range(0, image.width, 4)):
        bottom -= 1
    image.crop((0, 0, image.width, min(image.height, bottom + 16))).save(png, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.screenshots", description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--target", type=int, default=50, help="the match's target (50-500)")
    parser.add_argument("--html", action="store_true", help="keep the pages beside the pictures")
    parser.add_argument(
        "--variant", choices=("classic", "oklahoma", "hollywood"), default="classic"
    )
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs Chromium: apt-get install chromium")
    shots, screen = asyncio.run(capture(args.seed, args.target, args.variant))
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="screens-") as folder:
        for shot in shots:
            page = Page(screen, shot.title, width=shot.width)
            html = Path(folder) / f"{shot.name}.html"
            html.write_text(page.html(shot.messages), encoding="utf-8")
            png = args.out / f"screen-{shot.name}.png"
            photograph(html, png, chromium, shot.width)
            if args.html:
                shutil.copy(html, args.out / html.name)
            print(f"{png.relative_to(ROOT) if png.is_relative_to(ROOT) else png}")


if __name__ == "__main__":
    main()
