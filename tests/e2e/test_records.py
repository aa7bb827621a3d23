"""Ratings, leaderboard order, history, replays and stats after real matches; the records'
scores are the match-over message's final scores, and undercuts are made or suffered."""

from __future__ import annotations

import re

from bot.client import GinBot
from bot.gin.cards import DECK
from bot.gin.hand import Outcome
from bot.store import MatchEnd, SeatResult
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import cards_as_text
from tests.fakediscord import InteractionResult
from tests.store.helpers import hand, move, new_match


async def play_match(world: World, bot: GinBot, first, second, seed: int) -> Game:  # type: ignore[no-untyped-def]
    game = Game(world, bot)
    await game.start(first, second, target=50)
    await game.play_out(style="knocker", seed=seed)
    return game


async def every_page(world: World, first: InteractionResult) -> str:
    """The text of a paged answer and of every page after it, by its Next button."""
    page, text = first, first.text
    for _ in range(50):
        next_ids = [c for c in page.custom_ids if c.endswith(":next")]
        component = page.message.find_component(next_ids[0]) if next_ids else None
        if component is None or component.get("disabled"):
            break
        page = await world.fake.click(world.carol, page.message, next_ids[0])
        text += "\n" + page.text
    return text


def board_line(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("**") and name in line)


async def test_ratings_move_and_the_leaderboard_ranks_with_provisional_marks(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    await fake.slash(world.alice, world.channel, "gin settings set", provisional_matches=2)
    guild = str(world.guild.id)
    winners = []
    for i in range(3):
        game = await play_match(world, bot, world.alice, world.bob, seed=i)
        result = game.match.result
        winners.append(game.table.players[result.winner].id)  # type: ignore[union-attr]
    ratings = await bot.store.get_ratings(guild, [str(world.alice.id), str(world.bob.id)])
    alice, bob = ratings[str(world.alice.id)], ratings[str(world.bob.id)]
    assert alice.matches == bob.matches == 3
    alice_wins = winners.count(str(world.alice.id))
    assert (alice.mu > bob.mu) == (alice_wins >= 2)
    # Carol plays once (provisional) and wins or loses against Bob.
    await play_match(world, bot, world.carol, world.bob, seed=9)
    board = await fake.slash(world.carol, world.channel, "gin leaderboard")
    lines = [line for line in board.text.splitlines() if line.startswith("**")]
    assert len(lines) == 3
    assert "Carol *(provisional)*" in lines[-1]  # established players rank first
    assert "provisional" not in lines[0] and "rating" in lines[0]
    by_wins = await fake.slash(world.carol, world.channel, "gin leaderboard", sort="wins")
    wins = [int(m) for m in re.findall(r"— (\d+) won of", by_wins.text)]
    assert wins == sorted(wins, reverse=True)


async def test_history_replay_and_stats(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = await play_match(world, bot, world.alice, world.bob, seed=4)
    table = game.table
    assert table is not None
    history = await fake.slash(world.alice, world.channel, "gin history")
    assert history.ephemeral and f"#{table.id}" in history.text and "vs Bob" in history.text
    other = await fake.slash(world.carol, world.channel, "gin history", player=world.bob)
    assert "vs Alice" in other.text
    text = await every_page(
        world, await fake.slash(world.carol, world.channel, "gin replay", match=table.id)
    )
    for record in game.match.history:
        assert f"**Hand {record.number}**" in text
        if record.result.outcome is Outcome.VOID:
            continue
        shown = record.result.knocker_arrangement
        assert shown is not None
        assert " ".join(map(str, shown.melds[0])) in cards_as_text(text)  # drawn as emojis
        assert "<:gin_" in text
    missing = await fake.slash(world.carol, world.channel, "gin replay", match=999)
    assert missing.ephemeral and "no match #999" in missing.text
    stats = await fake.slash(world.carol, world.channel, "gin stats", player=world.alice)
    assert "Rating:" in stats.text and "Win streak:" in stats.text and "per hand" in stats.text


async def test_leaderboard_and_stats_agree_with_the_match_over_message(
    world: World, bot: GinBot
) -> None:
    fake, channel = world.fake, world.channel
    game = await play_match(world, bot, world.alice, world.bob, seed=7)
    table = game.table
    assert table is not None
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(channel)),
        timeout=15,
        what="the match-over message",
    )
    over = next(m for m in fake.channel_messages(channel) if "Match over" in m.text).text
    seat_of = {p.name: seat for seat, p in enumerate(table.players)}
    assert sorted(seat_of) == ["Alice", "Bob"]
    # What the result told everyone, "**Alice: 319** = 119 hand points + ...", per player.
    final = {name: int(re.findall(rf"\*\*{name}: (\d+)\*\*", over)[0]) for name in seat_of}
    assert final == {n: game.match.result.final[s] for n, s in seat_of.items()}, over

    board = await fake.slash(world.carol, channel, "gin leaderboard", sort="points")
    assert "by final scores" in board.text and "with its bonuses" in board.text
    for name, score in final.items():  # " ·" closes a line that has no rating after it
        assert f"· final scores {score} ·" in board_line(board.text, name) + " ·", board.text

    # What the replay shows of each showdown: who knocked and was undercut, who scored it.
    replay = await every_page(
        world, await fake.slash(world.carol, channel, "gin replay", match=table.id)
    )
    suffered = {n: len(re.findall(rf"{n} knocked and was undercut", replay)) for n in seat_of}
    made = {
        n: len(re.findall(rf"knocked and was undercut; \*\*{n} scored", replay)) for n in seat_of
    }
    stored = await bot.store.hands(table.id)
    assert sum(suffered.values()) == sum(h.outcome == "undercut" for h in stored)

    # A second match, as the store keeps it: Alice's knock undercut by Bob three times; Bob
    # reaches 50 with 90 points, a shutout: 90 + 200 game bonus + 75 for three boxes.
    guild, alice, bob = str(world.guild.id), str(world.alice.id), str(world.bob.id)
    seeded = await new_match(bot.store, alice, bob, guild=guild, channel="elsewhere")
    end = MatchEnd(
        status="finished",
        reason="target",
        winner_id=bob,
        results=(SeatResult(alice, 0, 0, 0), SeatResult(bob, 1, 90, 365)),
    )
    for number in (1, 2, 3):
        undercut = hand(seeded, number, "undercut", 1, knocker_seat=0, points=30)
        await bot.store.record_move(
            move(
                seeded,
                number,
                hand_number=number,
                finished_hand=undercut,
                finished=end if number == 3 else None,
            )
        )
    final["Bob"] += 365
    suffered["Alice"] += 3
    made["Bob"] += 3

    board = await fake.slash(world.carol, channel, "gin leaderboard", sort="points")
    for name, score in final.items():
        assert f"· final scores {score} ·" in board_line(board.text, name) + " ·", board.text
    if final["Alice"] != final["Bob"]:
        ranked = sorted(final, key=lambda n: board.text.index(board_line(board.text, n)))
        assert ranked == sorted(final, key=lambda n: -final[n]), board.text
    for name, user in (("Alice", world.alice), ("Bob", world.bob)):
        stats = await fake.slash(world.carol, channel, "gin stats", player=user)
        assert "**Matches:** 2 played" in stats.text, stats.text
        assert f"**Undercuts made:** {made[name]} (" in stats.text, stats.text
        assert f"**undercuts suffered:** {suffered[name]}" in stats.text, stats.text
        assert f"**Final scores:** {final[name]} in all" in stats.text, stats.text
        assert "**Hand points:**" in stats.text and "per hand (before bonuses)" in stats.text


async def test_replay_never_shows_an_unfinished_hand(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    replay = await fake.slash(world.carol, world.channel, "gin replay", match=table.id)
    assert "No hand of this match has finished yet" in replay.text
    hidden = {str(c) for seat in (0, 1) for c in game.match.hand.hands[seat]}
    shown = set(re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", replay.text))
    assert not shown & hidden
    assert {str(c) for c in DECK} >= shown


async def test_one_player_at_two_tables_plays_both_through_dms(world: World, bot: GinBot) -> None:
    fake = world.fake
    second_channel = fake.add_channel(world.guild, "gin-2")
    first = Game(world, bot)
    second = Game(world, bot, second_channel)
    one = await first.start(world.alice, world.bob, target=50)
    two = await second.start(world.carol, world.alice, target=50)
    alice_panels = [m for m in fake.dm_messages(world.alice) if "Your hand" in m.text]
    assert any("#gin in Card Room" in m.text for m in alice_panels)
    assert any("#gin-2 in Card Room" in m.text for m in alice_panels)
    import asyncio

    await asyncio.gather(
        first.play_out(via="button", seed=1), second.play_out(via="button", seed=2)
    )
    assert one.match is not None and one.match.is_over
    assert two.match is not None and two.match.is_over
    for table in (one, two):
        moves = await bot.store.moves(table.id)
        assert [m.seq for m in moves] == list(range(1, table.move_count + 1))
