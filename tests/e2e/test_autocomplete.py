"""Card autocomplete for /gin discard and /gin knock, as a player types in Discord."""

from __future__ import annotations

from bot.client import GinBot
from bot.gin import Card, parse_card
from bot.gin.cards import RANKS, SUIT_LETTERS
from bot.gin.hand import Phase
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import advance, choice_values, knock_cards, start_game, step
from tests.fakediscord import Channel, User

MAX_CHOICES = 25


async def suggestions(
    game: Game,
    user: User,
    typed: str = "",
    command: str = "gin discard",
    channel: Channel | None = None,
) -> list[str]:
    """The card values Discord would offer `user` after typing `typed`."""
    choices = await game.fake.autocomplete(
        user, channel or game.channel, command, focused="card", value=typed
    )
    assert len(choices) <= MAX_CHOICES
    return choice_values(choices)


def assert_canonical(values: list[str]) -> None:
    """Values are the canonical text of a card (what /gin discard reads back), each once."""
    for value in values:
        assert str(parse_card(value)) == value, f"{value!r} is not a card's canonical text"
    assert len(set(values)) == len(values), f"a card is offered twice: {values}"


def texts(cards: set[Card] | list[Card]) -> list[str]:
    return sorted(str(card) for card in cards)


async def test_empty_text_lists_the_whole_hand_all_hand_long(world: World, bot: GinBot) -> None:
    """With nothing typed, each player is offered exactly the cards they hold, on their turn
    or not, in every phase, through a whole hand and into the next."""
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    phases: set[Phase] = set()
    checked = 0
    while True:
        hand = game.match.hand
        for seat in (0, 1):
            values = await suggestions(game, game.user(seat))
            assert_canonical(values)
            held = texts(hand.hands[seat])
            assert sorted(values) == held, f"seat {seat} in {hand.phase}: {values} != {held}"
        phases.add(hand.phase)
        checked += 1
        if game.match.hand_number > 1:
            break
        await step(game)
    assert {Phase.UPCARD, Phase.DRAW, Phase.DISCARD} <= phases
    assert checked > 10


async def test_typing_filters_the_hand(world: World, bot: GinBot) -> None:
    """Typing a rank offers that rank's cards; typing a whole card in any accepted spelling
    offers that card; anything else offers nothing."""
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    for seat in (0, 1):
        user = game.user(seat)
        held = game.match.hand.hands[seat]
        for rank in sorted({card.rank for card in held}):
            wanted = texts([card for card in held if card.rank == rank])
            for typed in {RANKS[rank], RANKS[rank].lower()}:
                values = await suggestions(game, user, typed)
                assert sorted(values) == wanted, f"typed {typed!r}: {values} != {wanted}"
        for card in held:
            rank, letter = RANKS[card.rank], SUIT_LETTERS[card.suit]
            spellings = {str(card), f"{rank}{letter}".lower(), f"{rank}{letter}"}
            if rank == "10":
                spellings |= {f"t{letter.lower()}", f"T{letter}", f"10{letter.lower()}"}
            for typed in spellings:
                values = await suggestions(game, user, typed)
                assert values == [str(card)], f"typed {typed!r}: {values}"
        missing = next(c for c in game.match.hand.stock)
        assert await suggestions(game, user, str(missing)) == []
        assert await suggestions(game, user, "zz") == []


async def test_typing_th_offers_the_ten_of_hearts(world: World, bot: GinBot) -> None:
    """The rule book's own spelling `Th` finds 10♥ in the hand of whoever holds it."""
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    ten = parse_card("10♥")
    await advance(game, lambda m: any(ten in cards for cards in m.hand.hands.values()))
    seat = next(s for s, cards in game.match.hand.hands.items() if ten in cards)
    for typed in ("th", "Th", "TH", "10h", "10♥"):
        assert await suggestions(game, game.user(seat), typed) == ["10♥"], typed
    assert "10♥" not in await suggestions(game, game.user(1 - seat), "th")


async def test_typing_t_offers_the_tens(world: World, bot: GinBot) -> None:
    """`T` means ten, so typing just `t` should already offer the tens held."""
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)

    def tens(seat: int) -> list[str]:
        return texts([card for card in game.match.hand.hands[seat] if RANKS[card.rank] == "10"])

    await advance(game, lambda m: bool(tens(0) or tens(1)))
    seat = 0 if tens(0) else 1
    values = await suggestions(game, game.user(seat), "t")
    assert sorted(values) == tens(seat), f"typed 't', holding {tens(seat)}: offered {values}"


async def test_nothing_for_outsiders(world: World, bot: GinBot) -> None:
    """A spectator, a channel with no table and a challenge not yet accepted offer nothing."""
    fake = world.fake
    game = Game(world, bot)
    lobby = fake.add_channel(world.guild, "lobby")
    for command in ("gin discard", "gin knock"):
        assert await suggestions(game, world.alice, "", command, channel=lobby) == []
    await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    for user in (world.alice, world.bob, world.carol):
        assert await suggestions(game, user) == [], "cards offered before the deal"
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None
    message = fake.last_message(world.channel)
    assert message is not None
    await fake.click(world.bob, message, f"gin:ch:{table.id}:accept")
    for command in ("gin discard", "gin knock"):
        for typed in ("", "7", "th"):
            assert await suggestions(game, world.carol, typed, command) == []
            assert await suggestions(game, world.carol, typed, command, channel=lobby) == []


async def test_knock_offers_only_knocking_cards(world: World, bot: GinBot) -> None:
    """In the discard phase /gin knock offers exactly the cards whose discard allows a knock."""
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: bool(knock_cards(m.hand)), limit=1500)
    hand = game.match.hand
    user = game.user(hand.turn)
    allowed = knock_cards(hand)
    values = await suggestions(game, user, "", "gin knock")
    assert_canonical(values)
    assert sorted(values) == texts(allowed)
    for card in allowed:
        assert await suggestions(game, user, str(card), "gin knock") == [str(card)]
    other = await suggestions(game, game.user(1 - hand.turn), "", "gin knock")
    assert not set(other) & {str(c) for c in allowed if c in hand.hands[hand.turn]}


async def test_knock_offers_nothing_when_no_knock_is_possible(world: World, bot: GinBot) -> None:
    """When no discard leaves a low enough deadwood, /gin knock has no card to offer."""
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DISCARD and not knock_cards(m.hand))
    hand = game.match.hand
    values = await suggestions(game, game.user(hand.turn), "", "gin knock")
    assert values == [], f"no card allows a knock, yet /gin knock offers {values}"
