"""Messages a whole match leaves behind: ``python -m tests.e2e.messagebench``.

Two people play one match to the target through the fake Discord, by the buttons on their
DM hands (or ``--input commands``: slash commands in the channel), at a person's pace
(``--pace`` seconds between moves). It prints, against the
targets of a calm bot: new DM messages per player per hand (at most that player's turns in
the hand + 1), DM messages left in each DM channel at the end (at most hands + 1), messages
left in the channel (at most one per hand + 2), and REST calls per move, route by route
(interaction answers excluded: Discord does not rate-limit them). ``--away`` plays people
who look away between their turns, so every turn of theirs gets its "your turn" ping.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from collections import Counter
from pathlib import Path

from bot.client import GinBot
from tests.e2e.conftest import World, add_card_emojis, card_room, looked_away, start_bot
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle
from tests.fakediscord import FakeDiscord, patch_discord
from tests.fakediscord.limits import EXEMPT
from tests.gin.players import choose

TOKEN = "fake.bot.token"


async def run(pace: float, target: int, seed: int, away: bool, how: str = "buttons") -> str:
    with tempfile.TemporaryDirectory(prefix="messagebench-") as folder:
        fake = FakeDiscord(token=TOKEN)
        await fake.start()
        try:
            world = card_room(fake, Path(folder) / "gin.sqlite3")
            add_card_emojis(fake)
            with patch_discord(fake.http_base, fake.gateway_url):
                bot, task = await start_bot(world)
                try:
                    if away:
                        looked_away(bot)
                    return await play(world, bot, pace, target, seed, away, how)
                finally:
                    await bot.close()
                    await task
        finally:
            await fake.stop()


async def play(
    world: World, bot: GinBot, pace: float, target: int, seed: int, away: bool, how: str
) -> str:
    fake = world.fake
    game = Game(world, bot)
    await game.start(world.alice, world.bob, target=target)
    users = {0: game.user(0), 1: game.user(1)}
    dm = {seat: fake.store.dm_by_user[users[seat].id].id for seat in users}
    before = Counter(fake.rest.requests_by_place)
    seen: set[int] = set(fake.store.messages)
    new_dms: dict[tuple[int, int], int] = Counter()  # (hand, seat) -> new DM messages
    turns: dict[tuple[int, int], int] = Counter()  # (hand, seat) -> turns begun
    rng = random.Random(seed)
    moves = 0
    last_turn = None
    while not game.match.is_over:
        hand = game.match.hand
        number = game.match.hand_number
        if (number, hand.turn) != last_turn:
            turns[(number, hand.turn)] += 1
            last_turn = (number, hand.turn)
        action = choose(hand, "knocker", rng)
        result = await (game.button(action) if how == "buttons" else game.command(action))
        assert "⚠️" not in result.text, result.text
        moves += 1
        await settle()
        for message_id in set(fake.store.messages) - seen:
            seen.add(message_id)
            message = fake.store.messages[message_id]
            for seat, channel_id in dm.items():
                if message.channel_id == channel_id and not message.ephemeral:
                    new_dms[(number, seat)] += 1
        if pace:
            await asyncio.sleep(pace)
    await settle()
    await asyncio.sleep(1.5)  # the last public edit and the deletions after it
    hands = game.match.hand_number
    calls = {
        route: n
        for route, n in (fake.rest.requests_by_place - before).items()
        if not any(f in route for f in EXEMPT)  # not counted: interaction answers
    }
    counted = sum(calls.values())
    over = [
        (number, seat) for (number, seat), n in new_dms.items() if n > turns[(number, seat)] + 1
    ]
    worst = max(new_dms[k] - turns[k] for k in new_dms) if new_dms else 0
    left_dm = {seat: len(fake.dm_messages(users[seat])) for seat in users}
    left_channel = len(
        [m for m in fake.channel_messages(world.channel) if m.author.id == fake.bot.id]
    )
    lines = [
        f"one match to {target} by {how}: {hands} hands, {moves} moves, a move every {pace:g} s"
        + ("; players look away between turns" if away else ""),
        "",
        f"{'figure':<52}{'value':>10}   target",
        _row(
            "new DM messages per player per hand, most over turns",
            f"{worst:+d}",
            "<= turns + 1",
            not over,
        ),
        _row(
            "DM messages left at the end (each player)",
            " / ".join(str(left_dm[s]) for s in users),
            f"<= {hands + 1}",
            all(n <= hands + 1 for n in left_dm.values()),
        ),
        _row(
            "messages left in the channel",
            str(left_channel),
            f"<= {hands + 2}",
            left_channel <= hands + 2,
        ),
        _row("REST calls per move (not interaction answers)", f"{counted / moves:.2f}", "", None),
    ]
    lines += per_route(calls, moves)
    return "\n".join(lines)


def per_route(calls: dict[str, int], moves: int) -> list[str]:
    """Counted REST calls per move, route by route, the most first."""
    rows = ["", f"{'counted calls per move, by route':<52}{'per move':>10}   calls"]
    for route, n in sorted(calls.items(), key=lambda item: -item[1]):
        rows.append(f"  {route:<50}{n / max(moves, 1):>10.3f}   {n}")
    return rows


def _row(label: str, value: str, target: str, ok: bool | None) -> str:
    verdict = "" if ok is None else ("met" if ok else "NOT MET")
    return f"{label:<52}{value:>10}   {target:<14} {verdict}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pace", type=float, default=1.2, help="seconds between moves (1.2)")
    parser.add_argument("--target", type=int, default=100, help="the match's target (100)")
    parser.add_argument("--seed", type=int, default=1, help="the players' choices (1)")
    parser.add_argument("--away", action="store_true", help="players look away between turns")
    parser.add_argument(
        "--input", choices=("buttons", "commands"), default="buttons", help="how they move"
    )
    args = parser.parse_args()
    print(asyncio.run(run(args.pace, args.target, args.seed, args.away, args.input)))


if __name__ == "__main__":
    main()
