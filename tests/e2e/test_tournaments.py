"""Tournaments through the fake Discord: a Swiss of eight played to the end, a knockout of six
with byes, a duplicate round, a player who leaves, a round that times out; every bad request
refused privately, changing nothing."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import timedelta
from fractions import Fraction

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.helpers_inputs import INVITE_BITS, INVITE_PERMISSIONS
from tests.e2e.tournament_driver import Tourney, cog_of
from tests.fakediscord import Channel

BOLD_RANK = re.compile(r"\*\*(\d+)\.\*\* <@(\d+)> — (.*)")


def standings_of(text: str) -> list[tuple[str, str]]:
    """(user id, the rest of the line) of each line of a standings message, in order."""
    return [(m[2], m[3]) for line in text.splitlines() if (m := BOLD_RANK.match(line))]


async def test_a_swiss_of_eight_played_to_the_end(world: World, bot: GinBot) -> None:
    fake = world.fake
    tourney = Tourney(world, bot)
    people = tourney.people(8)
    await tourney.open(world.alice, format="swiss", target=50, round_minutes=30)
    await tourney.join(people[:4], by_button=True)
    await tourney.join(people[4:], by_button=False)
    assert tourney.signup is not None
    await fake.wait_for(lambda: "8 of at most 32" in tourney.signup.text, what="eight joined")
    await tourney.start(world.alice)
    rng = random.Random(8)
    met: set[frozenset[str]] = set()
    results: list[tuple[int, str, str]] = []  # round, winner, loser
    for number in (1, 2, 3):
        tables = await tourney.round_tables(number)
        assert len(tables) == 4
        for board, (thread, table) in sorted(tables.items()):
            pair = frozenset(p.id for p in table.players)
            assert pair not in met, f"round {number} repeats {pair}"
            met.add(pair)
            assert thread.parent_id == world.channel.id and thread.type == 11
            if number == 1 and board == 0:
                await tourney.play(thread, table)  # one match played out in full
                assert table.match is not None and table.match.result is not None
                winner = table.players[table.match.result.winner].id
            else:
                loser = table.players[rng.randrange(2)].id
                await tourney.resign(table, loser, thread)
                winner = next(p.id for p in table.players if p.id != loser)
            loser_id = next(p.id for p in table.players if p.id != winner)
            results.append((number, winner, loser_id))
    await fake.wait_for(tourney.finished, timeout=15, what="the tournament to finish")
    tournament = await tourney.tournament()
    assert tournament.state == "finished"
    await tourney.announced()
    # Every round's results posted in its own message, and the standings edited in place.
    posts = tourney.channel_posts()
    rounds = [m for m in posts if "Round " in (m.embeds[0].get("title") or "")]
    assert len(rounds) == 3
    for message in rounds:
        assert message.text.count("beat") == 4, message.text
    standings = [m for m in posts if "standings" in (m.embeds[0].get("title") or "").lower()]
    assert len(standings) == 1 and standings[0].edited
    # Titled by the last round completed, never a round ahead; at the end it points below.
    titles: list[str] = []
    for version in standings[0].history:
        title = str((version.get("embeds") or [{}])[0].get("title"))
        if not titles or titles[-1] != title:
            titles.append(title)
    heading = f"🏆 #{tourney.id} · Standings"
    assert titles == [
        f"{heading} · round 1 under way",
        f"{heading} after round 1 of 3 · round 2 under way",
        f"{heading} after round 2 of 3 · round 3 under way",
        heading,
    ], titles
    assert "its final standings are in its last message, below" in standings[0].text
    # The final table is the tournament's last post, after round 3's results.
    final = posts[-1]
    assert posts.index(rounds[-1]) < posts.index(final)
    assert "Final standings" in final.text
    expected = _expected_standings(results)
    shown = standings_of(final.text)
    assert [user for user, _ in shown] != []
    assert {user for user, _ in shown} == {str(u.id) for u in people}
    for user, line in shown:
        points, bh, cut, sb = expected[user]
        assert line.startswith(f"**{points}** point"), (user, line)
        assert f"Bh {_fmt(bh)} · Bh-1 {_fmt(cut)} · SB {_fmt(sb)}" in line, (user, line, expected)
    keys = [expected[user] for user, _ in shown]
    assert keys == sorted(keys, reverse=True)  # points, then the tie-breaks, best first
    # The winner is announced; places are kept.
    assert f"wins tournament #{tourney.id}!" in posts[-1].text
    winner = shown[0][0]
    assert f"<@{winner}>" in posts[-1].text
    places = Counter(e.place for e in tournament.entrants)
    assert places[1] == 1 and len(places) == 8
    # Its standings stay to be seen in its channel after it ended.
    after = await fake.slash(world.bob, world.channel, "gin tournament standings")
    assert after.ephemeral and "Final standings" in after.text
    # A player's history and stats show their tournaments.
    champion = tourney.users[winner]
    history = await fake.slash(champion, world.channel, "gin history")
    assert f"**#{tourney.id}** Swiss tournament · 1st of 8" in history.text, history.text
    stats = await fake.slash(champion, world.channel, "gin stats")
    assert "Tournaments:** 1 entered · 1 finished · 1 won · best place 1st" in stats.text


def _expected_standings(
    results: list[tuple[int, str, str]],
) -> dict[str, tuple[int, Fraction, Fraction, Fraction]]:
    """Points, Buchholz, Buchholz cut 1 and Sonneborn-Berger, worked out here by hand."""
    points: Counter[str] = Counter()
    for _, winner, _ in results:
        points[winner] += 1
    opponents: dict[str, list[str]] = {}
    beaten: dict[str, list[str]] = {}
    for _, winner, loser in results:
        opponents.setdefault(winner, []).append(loser)
        opponents.setdefault(loser, []).append(winner)
        beaten.setdefault(winner, []).append(loser)
    table = {}
    for user, faced in opponents.items():
        scores = [points[o] for o in faced]
        bh = Fraction(sum(scores))
        table[user] = (
            points[user],
            bh,
            bh - min(scores),
            Fraction(sum(points[o] for o in beaten.get(user, []))),
        )
    return table


def _fmt(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else str(float(value))


async def test_a_knockout_of_six_gives_the_top_seeds_byes(world: World, bot: GinBot) -> None:
    fake = world.fake
    tourney = Tourney(world, bot)
    people = tourney.people(6)
    await tourney.open(world.alice, format="knockout", target=50)
    await tourney.join(people)
    await tourney.start(world.alice)
    seeds = {e.user_id: e.seed for e in (await tourney.tournament()).entrants}
    by_seed = {seed: user for user, seed in seeds.items()}
    first = await tourney.tournament()
    byes = [p.player_a for p in first.pairings_of(1) if p.player_b is None]
    assert sorted(seeds[u] for u in byes) == [1, 2]  # the top seeds sit out round 1
    played = {frozenset((p.player_a, p.player_b)) for p in first.pairings_of(1) if p.player_b}
    assert played == {frozenset((by_seed[4], by_seed[5])), frozenset((by_seed[3], by_seed[6]))}
    await fake.wait_for(
        lambda: any(m.text.count("has a bye") == 2 for m in tourney.channel_posts()),
        what="the byes posted",
    )
    out: dict[str, int] = {}
    ended: dict[int, tuple[Channel, str, str]] = {}  # round: a thread, its winner and loser
    for number in (1, 2, 3):  # quarter-finals, semi-finals, final
        tables = await tourney.round_tables(number)
        for thread, table in tables.values():
            # The better seed wins, as seeds say it should.
            a, b = (p.id for p in table.players)
            loser = a if seeds[a] > seeds[b] else b
            await tourney.resign(table, loser, thread)
            out[loser] = number
            ended[number] = (thread, a if loser == b else b, loser)
    await fake.wait_for(tourney.finished, timeout=15, what="the tournament to finish")
    tournament = await tourney.tournament()
    await tourney.announced()
    places = {e.user_id: e.place for e in tournament.entrants}
    assert places[by_seed[1]] == 1 and places[by_seed[2]] == 2
    assert {places[by_seed[3]], places[by_seed[4]]} == {3}
    assert {places[by_seed[5]], places[by_seed[6]]} == {5}
    final = tourney.channel_posts()[-1]  # the last post: the winner and the final table
    assert "Final standings" in final.text and "wins tournament" in final.text
    assert "champion" in final.text and "finalist" in final.text
    assert [r for r in tourney.channel_posts() if "Final" in (r.embeds[0].get("title") or "")]
    # Each match's thread ends saying what its result means, after the result itself; no
    # word of challenging again, no Rematch button (in the final's thread, as anywhere).
    for number, (thread, winner, loser) in ended.items():
        last = await fake.wait_for(
            lambda th=thread: next(
                (
                    m
                    for m in reversed(fake.channel_messages(th))
                    if m.author.id == fake.bot.id and "Every result and the standings" in m.text
                ),
                None,
            ),
            what=f"round {number}'s thread told what its result means",
        )
        said = [m for m in fake.channel_messages(thread) if m.author.id == fake.bot.id]
        assert said[-1] is last, [m.text[:60] for m in said]
        assert any("Match over" in m.text for m in said[:-1])
        assert f"<#{world.channel.id}>" in last.text
        assert f"<@{winner}> beat <@{loser}>" in last.text
        if number == 3:
            assert f"<@{winner}> wins the tournament!" in last.text
            assert f"<@{loser}> is out, in 2nd place." in last.text
        else:
            assert f"<@{winner}> goes through to the next round: " in last.text
        for message in said:
            assert "Challenge again" not in message.text, message.text
            assert not [c for c in message.custom_ids() if c.startswith("gin:rm:")]


async def test_a_duplicate_round_deals_every_thread_the_same_cards(
    world: World, bot: GinBot
) -> None:
    tourney = Tourney(world, bot)
    people = tourney.people(4)
    await tourney.open(world.alice, format="swiss", rounds=1, duplicate=True, target=50)
    await tourney.join(people)
    await tourney.start(world.alice)
    tables = await tourney.round_tables(1)
    assert len(tables) == 2
    deals = []
    for _, table in tables.values():
        assert table.match is not None and table.match.hand_number == 1
        hand = table.match.hand
        deals.append((hand.dealer, [sorted(map(int, hand.hands[s])) for s in (0, 1)]))
    assert deals[0] == deals[1]  # the same dealer, the same ten cards in each seat
    # Each seat-0 player's first DM hand shows the same cards.
    first_dms = []
    for _, table in tables.values():
        user = tourney.users[table.players[0].id]
        shown = await world.fake.wait_for(lambda u=user: world.fake.dm_messages(u), what="DM")
        first_dms.append(_cards(shown[0].history[0]))
    assert first_dms[0] == first_dms[1] and first_dms[0]
    for seed, (thread, table) in enumerate(tables.values()):
        await tourney.play(thread, table, seed=seed)
    await world.fake.wait_for(tourney.finished, timeout=15, what="the tournament to finish")
    tournament = await tourney.tournament()
    await tourney.announced()
    final = next(m for m in tourney.channel_posts() if "Final standings" in m.text)
    # Each player's score against the field: the same seat on the same cards elsewhere.
    fields = [Fraction(f) for f in re.findall(r"field ([+-]?[\d.]+)", final.text)]
    assert len(fields) == 4 and sum(fields) == 0, final.text
    assert tournament.settings.duplicate


def _cards(payload: dict[str, object]) -> list[str]:
    """The card emojis of a hand message, in order."""
    text = str(payload.get("embeds"))
    return re.findall(r"gin_(\w+?):", text)


async def test_a_player_who_leaves_is_dropped_and_loses_by_walkover(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    tourney = Tourney(world, bot)
    people = tourney.people(4)
    await tourney.open(world.alice, format="swiss", rounds=2, target=50)
    await tourney.join(people)
    await tourney.start(world.alice)
    tables = await tourney.round_tables(1)
    quitter = world.carol
    thread, table = next(v for v in tables.values() if v[1].seat_of(str(quitter.id)) is not None)
    opponent = next(p.id for p in table.players if p.id != str(quitter.id))
    result = await fake.slash(quitter, world.channel, "gin tournament leave")
    assert result.ephemeral and "withdrew" in result.text
    await fake.wait_for(lambda: not table.is_open, what="the quitter's table to end")
    await fake.wait_for(
        lambda: any("walkover" in m.text for m in fake.channel_messages(thread)),
        what="the walkover said in the thread",
    )
    other_thread, other = next(v for v in tables.values() if v[1] is not table)
    await tourney.resign(other, other.players[0].id, other_thread)
    second = await tourney.round_tables(2)
    tournament = await tourney.tournament()
    assert all(str(quitter.id) not in p.players for p in tournament.pairings_of(2))
    assert len(second) == 1  # three left: one match and a bye
    decided = tournament.pairing_of(opponent, 1)
    assert decided is not None and decided.decided_by == "walkover"
    assert decided.winner_id == opponent
    text = tourney.channel_posts()
    assert any("withdrew" in m.text for m in text)


async def test_sign_up_closes_by_itself(world: World, bot: GinBot) -> None:
    fake = world.fake
    service = bot.tournaments
    real = service.clock
    few = Tourney(world, bot)
    few.people(3)
    await few.open(world.alice, format="swiss", signup_minutes=1)
    await few.join([world.bob, world.carol])
    service.clock = lambda: real() + timedelta(minutes=2)  # the minute of sign-up is up
    cog_of(bot).rounds.deadline_changed.set()
    await fake.wait_for(
        lambda: any("Sign-up closed with too few" in m.text for m in few.channel_posts()),
        what="a tournament of two called off",
    )
    assert (await few.tournament()).state == "cancelled"
    enough = Tourney(world, bot)
    enough.users = few.users
    await enough.open(world.alice, format="knockout", signup_minutes=1)
    await enough.join([world.bob, world.carol, world.alice])
    service.clock = lambda: real() + timedelta(minutes=4)
    cog_of(bot).rounds.deadline_changed.set()
    tables = await enough.round_tables(1)
    assert len(tables) == 1  # three players: the top seed has a bye
    assert enough.signup is not None
    await fake.wait_for(lambda: "It has started" in enough.signup.text, what="sign-up closed")
    assert enough.signup.custom_ids() == []


async def test_a_round_that_times_out_is_decided_and_the_next_begins(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    tourney = Tourney(world, bot)
    people = tourney.people(4)
    await tourney.open(world.alice, format="swiss", rounds=2, round_minutes=5, target=50)
    await tourney.join(people)
    await tourney.start(world.alice)
    tables = await tourney.round_tables(1)
    service = bot.tournaments
    real = service.clock
    service.clock = lambda: real() + timedelta(minutes=6)  # the round's five minutes are up
    cog_of(bot).rounds.deadline_changed.set()
    for thread, table in tables.values():
        await fake.wait_for(lambda t=table: not t.is_open, what="the timed-out table to end")
        await fake.wait_for(
            lambda th=thread: any("Time is up" in m.text for m in fake.channel_messages(th)),
            what="the time limit said in the thread",
        )
    await tourney.round_tables(2)
    tournament = await tourney.tournament()
    first = tournament.pairings_of(1)
    assert {p.decided_by for p in first} == {"time"}
    assert all(p.winner_id in p.players for p in first)
    round_one = next(m for m in tourney.channel_posts() if "Round 1" in m.text)
    assert round_one.text.count("when time ran out") == 2


async def test_the_invite_permissions_suffice_and_a_missing_one_is_named(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    assert sum(1 << bit for bit in INVITE_BITS) == INVITE_PERMISSIONS
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS)
    tourney = Tourney(world, bot)
    people = tourney.people(4)
    await tourney.open(world.alice, format="swiss", rounds=2, target=50)
    await tourney.join(people)
    await tourney.start(world.alice)
    tables = await tourney.round_tables(1)
    assert len(tables) == 2  # threads opened and played in with those permissions alone
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS & ~(1 << 35))
    for thread, table in tables.values():
        await tourney.resign(table, table.players[0].id, thread)
    await fake.wait_for(
        lambda: sum("Create Public Threads" in m.text for m in tourney.channel_posts()) == 2,
        what="the missing permission named for each match of round 2",
    )
    assert len(tourney.threads()) == 2
    tournament = await tourney.tournament()
    assert [p.state for p in tournament.pairings_of(2)] == ["waiting", "waiting"]
