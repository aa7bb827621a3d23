"""Three players, two teams of two and elimination, through the real discord.py stack.

Each mode is played to the end by slash commands and DM buttons, with a lobby filled by
buttons and by commands; every message the fake received is read for cards that its audience
could not see at a real table.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from typing import Any

from bot.client import GinBot
from bot.gin import Card, parse_cards
from bot.gin.ai import bot_move
from bot.gin.cards import DECK
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import Match
from bot.tables import Table
from tests.e2e.conftest import World
from tests.e2e.driver import play_card
from tests.e2e.helpers_inputs import (
    card_tokens,
    cards_as_text,
    revealed_at,
    settle,
    showdown_embed,
)
from tests.e2e.modes_driver import Seats, people
from tests.e2e.test_privacy import component_text
from tests.fakediscord import FakeDiscord, Message, payload_text


class Watch:
    """After every move: every new message version shows its audience only cards it may see
    (its own hand, the piles' public cards, a showdown's revealed cards)."""

    def __init__(self, fake: FakeDiscord, table: Table) -> None:
        self.fake = fake
        self.table = table
        self.seen: dict[int, int] = {}
        self.leaks: list[str] = []
        self.checked = 0
        self.cursor = 0  # how far into the fake's list of changed messages this has read
        # Each seat's hand at the last check: a version made before this move (a DM hand
        # brought up to date when its player pressed it, say) shows that hand.
        self.held: dict[int, set[Card]] = {}
        self.was_public: set[Card] = set()  # and the piles' public cards then

    def audience(self, message: Message) -> int | None:
        channel = self.fake.store.channels[message.channel_id]
        if channel.recipient is not None:
            return self.table.seat_of(str(channel.recipient.id))
        if message.ephemeral and message.interaction_id is not None:
            return self.table.seat_of(str(self.fake.interactions[message.interaction_id].user.id))
        return None

    def public(self, match: Match) -> set[Card]:
        cards: set[Card] = set()
        for board in match.boards:
            cards |= set(board.discard_pile)
            if board.first_upcard is not None:
                cards.add(board.first_upcard)
            cards |= {a.card for a in board.public_actions() if a.card is not None}
        return cards

    def revealed(self, match: Match) -> set[Card]:
        cards: set[Card] = set()
        for record in match.history:
            cards |= revealed_at(record.result)
        return cards

    async def check(self, match: Match, action: Action | None = None) -> None:
        await settle()
        public = self.public(match)
        before = public | self.was_public
        revealed = self.revealed(match)
        changed = self.fake.store.changed
        touched = dict.fromkeys(changed[self.cursor :])
        self.cursor = len(changed)
        for message_id in touched:
            message = self.fake.store.messages[message_id]
            start = self.seen.get(message.id, 0)
            self.seen[message.id] = len(message.versions)
            seat = self.audience(message)
            own: set[Card] = set()
            if seat is not None:
                own = set(self.held.get(seat, set()))
                board = match.board_of(seat)
                if board is not None:
                    own |= set(board.hands.get(seat, []))
            for payload in message.versions[start:]:
                self.checked += 1
                allowed = own | before
                parts = [payload_text({"content": payload.get("content")})]
                parts.append(component_text(list(payload.get("components") or [])))
                for embed in payload.get("embeds") or []:
                    text = payload_text({"embeds": [embed]})
                    leaked = card_tokens(text) - allowed
                    if showdown_embed(embed):
                        leaked -= revealed
                    self._report(leaked, seat, text, action)
                self._report(
                    card_tokens("\n".join(parts)) - allowed, seat, "\n".join(parts), action
                )
        for board in match.boards:
            for seat, cards in board.hands.items():
                self.held[seat] = set(cards)
        self.was_public = public

    def _report(
        self, leaked: set[Card], seat: int | None, text: str, action: Action | None
    ) -> None:
        if leaked:
            who = "the channel" if seat is None else f"seat {seat}"
            self.leaks.append(f"after {action}: {who} saw {sorted(map(str, leaked))} in {text!r}")


async def three_table(world: World, bot: GinBot, **options: Any) -> Seats:
    users = people(world, 3)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "three", **options)
    await seats.join_by_button(users[1])
    await seats.join_by_command(users[2])
    await seats.dealt()
    return seats


async def test_three_players_play_to_the_end_and_the_deal_rotates(
    world: World, bot: GinBot
) -> None:
    # To 100: at 50, one hand scoring two opponents' deadwood could end the match at once.
    seats = await three_table(world, bot, target=100)
    assert seats.table is not None
    watch = Watch(world.fake, seats.table)
    dealers: list[tuple[int, int, bool]] = []  # (hand, dealer, last hand was void)
    refused = False

    def before(match: Match, seat: int, board: Hand) -> None:
        if not dealers or dealers[-1][0] != match.hand_number:
            void = bool(match.history) and match.history[-1].result.winner is None
            dealers.append((match.hand_number, board.dealer, void))

    async def after(match: Match, action: Action) -> None:
        nonlocal refused
        await watch.check(match, action)
        if not refused and not match.is_over:
            sitter = match.hand.dealer
            result = await seats.fake.slash(
                seats.user(sitter), seats.channel, "gin draw", source="stock"
            )
            assert result.ephemeral and "sit this hand out" in result.text, result.text
            refused = True

    await seats.play(seed=11, before=before, after=after)
    assert refused and len(dealers) >= 2
    for (_, dealer, _), (_, nxt, void) in itertools.pairwise(dealers):
        assert nxt == (dealer if void else (dealer + 1) % 3), dealers
    assert watch.checked > 20 and not watch.leaks, watch.leaks[:3]
    await world.fake.wait_for(
        lambda: any("Match over" in m.text for m in world.fake.channel_messages(world.channel)),
        what="the result",
    )
    final = next(m for m in world.fake.channel_messages(world.channel) if "Match over" in m.text)
    assert "1st." in final.text and "3rd." in final.text
    # The records of the mode: its own leaderboard, history with places, stats and replay.
    fake, channel, alice = world.fake, world.channel, world.alice
    board = await fake.slash(alice, channel, "gin leaderboard", mode="three")
    assert "three players" in board.text and all(
        p.name in board.text for p in seats.match.players
    ), board.text
    classic = await fake.slash(alice, channel, "gin leaderboard")
    assert "No finished matches" in classic.text
    history = await fake.slash(alice, channel, "gin history", mode="three")
    assert " of 3" in history.text, history.text
    stats = await fake.slash(alice, channel, "gin stats", mode="three")
    assert "Matches:** 1 played" in stats.text, stats.text
    table_id = seats.table.id
    replay = await fake.slash(alice, channel, "gin replay", match=table_id)
    assert "Hand 1" in replay.text and "three players" in replay.text, replay.text


async def test_three_players_play_on_after_a_resignation(world: World, bot: GinBot) -> None:
    """A player who resigns mid-hand is out: the hand ends there, unplayed, and says so in
    the channel; the two others play on as two players (the dealer plays) to the end, and
    the result lists the one who left last, with their points."""
    fake, channel = world.fake, world.channel
    seats = await three_table(world, bot, target=50)
    table = seats.table
    assert table is not None
    watch = Watch(fake, table)

    async def after(match: Match, action: Action) -> None:
        await watch.check(match, action)

    await watch.check(seats.match)
    await seats.play(seed=4, after=after, stop=lambda match: len(match.hand.actions) >= 3)
    match = seats.match
    number, sitter = match.hand_number, match.hand.dealer
    leaver = match.hand.seats[1]
    stays = match.hand.seats[0]
    name = match.players[leaver].name
    dms_before = len(fake.dm_messages(seats.user(leaver)))
    resigned = await fake.slash(seats.user(leaver), channel, "gin resign")
    assert resigned.ephemeral and "the others play on" in resigned.text, resigned.text
    assert not match.is_over and match.dropped == [leaver]

    def channel_text() -> str:
        return "\n".join(m.text for m in fake.channel_messages(channel))

    await fake.wait_for(
        lambda: (
            f"Hand {number}: {name} left the match — the hand is not played out" in channel_text()
        ),
        what=lambda: f"the hand left unplayed in the channel: {channel_text()[-600:]}",
    )
    assert "Nobody scores this hand; the two others play on." in channel_text()
    # The next hand: the sitter deals and plays the other player; the one who left is shown so.
    assert match.hand_number == number + 1
    assert match.hand.dealer == sitter and match.hand.seats == (stays, sitter)
    await fake.wait_for(
        lambda: f"**Hand {number + 1}** · {match.players[sitter].name} dealt\n" in channel_text(),
        what=lambda: f"hand {number + 1}'s table: {channel_text()[-600:]}",
    )
    assert f"~~{name}~~ left" in channel_text()
    refused = await fake.slash(seats.user(leaver), channel, "gin draw", source="stock")
    assert refused.ephemeral and "You left this match" in refused.text, refused.text
    await watch.check(match)
    await seats.play(seed=5, after=after)
    result = match.result
    assert result is not None and result.placings[leaver] == 3
    assert watch.checked > 10 and not watch.leaks, watch.leaks[:3]
    await fake.wait_for(lambda: "Match over" in channel_text(), what="the result")
    final = next(m for m in fake.channel_messages(channel) if "Match over" in m.text)
    line = f"3rd. **{name}: {result.final[leaver]}** = "
    assert line in final.text and "— left the match" in final.text, final.text
    assert f"🏆 **{match.players[result.winner].name} wins the match" in final.text
    # The one who left reads the result by DM too, their hand shows no live turn.
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.dm_messages(seats.user(leaver))),
        what="the result in the DMs of the player who left",
    )
    left_dms = fake.dm_messages(seats.user(leaver))
    assert not any(f"gin:mv:{table.id}:" in " ".join(m.custom_ids()) for m in left_dms)
    # Nothing new while the others play on: no DM a hand, only the result at the end.
    assert [m.text.split("\n")[0] for m in left_dms[dms_before:]] == ["Match over"]


async def test_three_players_the_loser_sits_out(world: World, bot: GinBot) -> None:
    result = await world.fake.slash(world.alice, world.channel, "gin settings set", sit_out="loser")
    assert "⚠️" not in result.text, result.text
    seats = await three_table(world, bot, target=150)
    checked = 0
    previous: tuple[int, int] | None = None  # (hand number, dealer)

    def before(match: Match, seat: int, board: Hand) -> None:
        nonlocal previous, checked
        if previous is not None and previous[0] != match.hand_number:
            last = match.history[-1].result
            if last.winner is not None:
                assert board.dealer == last.loser  # the loser deals and sits out
                assert previous[1] in board.seats  # the sitter plays the winner
                checked += 1
        previous = (match.hand_number, board.dealer)

    await seats.play(seed=12, before=before)
    assert checked >= 1


async def test_teams_play_both_games_at_once_and_switch_opponents(
    world: World, bot: GinBot
) -> None:
    users = people(world, 4)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "teams", team=1)
    await seats.join_by_button(users[1], team=2)
    await seats.join_by_command(users[2], team=1)
    await seats.join_by_button(users[3])
    await seats.dealt()
    table, match = seats.table, seats.match
    assert table is not None
    names = {p.id: match.side_of(s) for s, p in enumerate(match.players)}
    assert names[str(users[0].id)] == names[str(users[2].id)] == 0
    watch = Watch(world.fake, table)
    pairs: list[tuple[int, list[frozenset[int]]]] = []

    def before(match: Match, seat: int, board: Hand) -> None:
        if not pairs or pairs[-1][0] != match.hand_number:
            pairs.append((match.hand_number, [frozenset(b.seats) for b in match.boards]))

    async def after(match: Match, action: Action) -> None:
        await watch.check(match, action)

    await seats.play(seed=21, before=before, after=after)
    assert not watch.leaks, watch.leaks[:3]
    switched = sum(1 for (_, a), (_, b) in itertools.pairwise(pairs) if a != b)
    assert switched >= 1, pairs
    texts = [m.text for m in world.fake.channel_messages(world.channel)]
    team_lines = [
        t for t in texts if ("scores" in t and "Team" in t and ", game 2" in t) or "game 1" in t
    ]
    assert team_lines
    split = [t for t in texts if "Team " in t and " −" in t and "+" in t]
    assert split, "no hand where one partner won and the other lost"


async def test_the_two_teams_games_take_moves_at_the_same_time(world: World, bot: GinBot) -> None:
    users = people(world, 4)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "teams")
    for user in users[1:]:
        await seats.join_by_button(user)
    await seats.dealt()
    match, table = seats.match, seats.table
    assert table is not None
    first, second = (board.turn for board in match.boards)
    messages = [await seats.wait_for_buttons(s) for s in (first, second)]
    clicks = [
        world.fake.click(seats.user(s), m, f"gin:mv:{table.id}:{table.token(s)}:pass")
        for s, m in zip((first, second), messages, strict=True)
    ]
    results = await asyncio.gather(*clicks)
    assert all("⚠️" not in r.text for r in results), [r.text for r in results]
    assert table.move_count == 2 and all(len(b.actions) == 1 for b in match.boards)


def rig_identical_gin(match: Match, seat: int) -> str:
    """Give the seat to act eleven cards that go gin with a set of two identical cards by
    discarding K♠; the other cards of both decks go back where they were (hands, pile,
    stock), a wanted card dealt to the pile swapped there for another. Returns the discard."""
    board = match.board_of(seat)
    assert board is not None and board.rules.decks == 2
    wanted = parse_cards("7♥ 7♥ 7♠ 2♣ 3♣ 4♣ 9♦ 10♦ J♦ Q♦ K♠")
    pool = Counter(DECK * 2)
    for cards in board.hands.values():
        for card in cards:
            pool[card] -= 1
    pool.subtract(board.discard_pile)
    pool.subtract(board.stock)
    assert all(n == 0 for n in pool.values())
    everything = [c for hand in board.hands.values() for c in hand] + board.stock
    pile = list(board.discard_pile)
    for card in wanted:
        if card in everything:
            everything.remove(card)
        else:  # it lies on the pile (the deal is random): a card nobody wants takes its place
            spare = next(c for c in everything if c not in wanted)
            everything.remove(spare)
            pile[pile.index(card)] = spare
    board.discard_pile = pile
    others = [s for s in board.seats if s != seat]
    sizes = {s: len(board.hands[s]) for s in others}
    board.hands[seat] = list(wanted)
    for other in others:
        board.hands[other], everything = everything[: sizes[other]], everything[sizes[other] :]
    board.stock = everything
    board.phase, board.turn, board.taken_from_discard = Phase.DISCARD, seat, None
    return "K♠"


async def test_elimination_six_players_to_the_last_one(world: World, bot: GinBot) -> None:
    users = people(world, 6)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "elimination", players=6)
    for user in users[1:4]:
        await seats.join_by_button(user)
    for user in users[4:]:
        await seats.join_by_command(user)
    await seats.dealt()
    match, table = seats.match, seats.table
    assert table is not None and match.hand.rules.decks == 2
    watch = Watch(world.fake, table)
    await watch.check(match)
    # The first player to act goes gin with a set holding two 7♥ (by the DM menu).
    seat = match.hand.turn
    discard = rig_identical_gin(match, seat)
    watch.seen = {m.id: len(m.versions) for m in world.fake.store.messages.values()}
    watch.cursor = len(world.fake.store.changed)
    fake = world.fake
    # Rigged under the bot's feet: ask for the hand again to get buttons for the new cards.
    shown = await fake.slash(seats.user(seat), seats.channel, "gin hand")
    assert shown.message is not None and "Go gin" in str(shown.message.components)
    await watch.check(match)
    gin = await play_card(
        fake,
        seats.user(seat),
        shown.message,
        table.id,
        table.token(seat),
        Action(ActionKind.KNOCK, seat, parse_cards(discard)[0]),
    )
    assert "⚠️" not in gin.text, gin.text
    assert match.out == [seat]
    await settle()
    showdown = next(m for m in fake.channel_messages(seats.channel) if m.text.startswith("Round 1"))
    assert "7♠ 7♥ 7♥" in cards_as_text(showdown.text) and "1st place" in showdown.text

    async def after(match: Match, action: Action) -> None:
        await watch.check(match, action)

    # People who play like the hard bot race to gin: rounds of a usual length, not the long
    # locks loose test players get into.
    await seats.play(
        seed=31, after=after, chooser=lambda m, seat, rng: bot_move(m, seat, "hard", rng)
    )
    assert not watch.leaks, watch.leaks[:3]
    result = match.result
    assert result is not None and sorted(result.placings) == [1, 2, 3, 4, 5, 6]
    assert result.placings[seat] == 1 and len(match.out) == 5
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(world.channel)),
        what="the result",
    )
    final = next(m for m in fake.channel_messages(world.channel) if "Match over" in m.text)
    for user in users:
        assert user.mention in final.content
    assert "6th." in final.text and "last one left" in final.text


async def test_fourteen_players_four_decks(world: World, bot: GinBot) -> None:
    users = people(world, 14)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "elimination", players=14)
    for user in users[1:]:
        await seats.join_by_command(user)
    await seats.dealt()
    match, table = seats.match, seats.table
    assert table is not None and match.hand.rules.decks == 4 and len(match.hand.seats) == 14
    public = world.fake.message(table.display["public"])
    assert len(public.embeds[0]["description"]) < 2000
    fake = world.fake
    dms = {fake.dm_channel(u).id: u for u in users}

    def dm_versions() -> dict[int, int]:
        return {
            m.id: len(m.versions)
            for m in fake.store.messages.values()
            if m.channel_id in dms and not m.deleted
        }

    last: dict[str, Any] = {"versions": dm_versions(), "hand": match.hand_number}
    busiest = 0

    async def after(match: Match, action: Action) -> None:
        nonlocal busiest
        await settle()
        now = dm_versions()
        if match.hand_number == last["hand"]:  # a new round DMs everyone, once
            touched = {
                fake.message(m).channel_id
                for m, n in now.items()
                if n != last["versions"].get(m, 0)
            }
            busiest = max(busiest, len(touched))
            assert len(touched) <= 2, f"{len(touched)} players' DMs changed for one move"
        last.update(versions=now, hand=match.hand_number)

    await seats.play(seed=41, stop=lambda m: bool(m.out), after=after)
    assert match.out and len(match.hand.seats) == 13 and busiest == 2


async def test_practice_in_every_mode_with_bots(world: World, bot: GinBot) -> None:
    fake = world.fake
    for mode, players in (("three", None), ("teams", None), ("elimination", 4)):
        options: dict[str, Any] = {"mode": mode, "level": "easy"}
        if players:
            options["players"] = players
        result = await fake.slash(world.alice, world.channel, "gin practice", **options)
        assert not result.ephemeral and "has started" in result.text, result.text
        table = bot.service.in_channel(str(world.channel.id))
        assert table is not None and table.match is not None and len(table.bot_seats) >= 2
        seats = Seats(world, bot, [world.alice])
        seats.table = table
        await seats.dealt()
        await seats.play(seed=51, via="mixed")
        await fake.wait_for(lambda: bot.service.in_channel(str(world.channel.id)) is None)
        await settle()
        rows = await bot.store.results(table.id)
        assert {r.is_bot for r in rows} == {True, False}
        assert await bot.store.get_ratings(str(world.guild.id), [str(world.alice.id)], mode) == {}


async def test_the_player_who_sits_a_hand_out_is_told_so_by_dm(world: World, bot: GinBot) -> None:
    """Three players: the dealer sits the hand out, and their DMs say so for that hand (with
    who plays it), without buttons; the next hand's sitter hears the same."""
    seats = await three_table(world, bot, target=100)
    assert seats.table is not None
    table = seats.table

    async def told(number: int) -> None:
        sitter = seats.match.hand.dealer

        def sitting_out() -> Message | None:
            entry = table.display.get("hands", {}).get(str(sitter))
            if not entry or entry.get("hand") != number:
                return None
            return world.fake.message(entry["message"])

        dm = await world.fake.wait_for(sitting_out, what=f"seat {sitter}'s DM of hand {number}")
        assert "sit this hand out" in dm.text and f"hand {number}" in dm.text, dm.text
        assert not dm.custom_ids()
        assert dm.channel_id == world.fake.dm_channel(seats.user(sitter)).id

    await told(1)
    await seats.play(seed=4, stop=lambda match: match.hand_number > 1)
    if not seats.match.is_over:
        await told(seats.match.hand_number)
