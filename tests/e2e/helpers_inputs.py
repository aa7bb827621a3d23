"""Shared checks for the end-to-end tests of refusals, closed DMs, privacy and autocomplete.

The bot answers an interaction first and updates its messages afterwards, in the same handler;
`settle` waits for those handlers so that "nothing changed" and "nothing leaked" are checked
against everything the bot did, not half of it.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.gin import DECK, Card, parse_card
from bot.gin.hand import Action, ActionKind, Hand, HandResult, Phase
from bot.gin.match import Match
from bot.gin.melds import discard_options, min_deadwood
from bot.tables import Table
from tests.e2e.driver import Game
from tests.fakediscord import FakeDiscord, InteractionResult, User

# Names discord.py gives the tasks that run slash commands and component callbacks.
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-", "gin-delete")
CARD_TOKEN = re.compile(r"(?<![0-9])(10|[2-9AJQK])([♠♥♦♣])")
CARD_EMOJI = re.compile(r"gin_(10|[2-9AJQK])([SHDC])\b")  # a card emoji's name
EMOJI_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SHOWDOWN_TITLE = re.compile(r"^(Hand \d+(, game \d)?|Round \d+): ")


# --- waiting for the bot ----------------------------------------------------------------------


async def settle(timeout: float = 15.0) -> None:
    """Wait until no interaction handler of the bot is running (their message upkeep included)."""
    deadline = time.perf_counter() + timeout
    current = asyncio.current_task()
    while True:
        busy = [
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(HANDLER_TASKS)
        ]
        if not busy:
            return
        if time.perf_counter() > deadline:
            raise AssertionError(f"the bot is still busy after {timeout} s: {busy}")
        await asyncio.sleep(0.002)


# --- "nothing changed" ------------------------------------------------------------------------


def message_versions(fake: FakeDiscord) -> dict[int, int]:
    """Every non-ephemeral message (channels and DMs) with how many versions it has had."""
    return {m.id: len(m.versions) for m in fake.store.messages.values() if not m.ephemeral}


@dataclass(frozen=True)
class Snapshot:
    """What a refused move must leave exactly as it was."""

    status: str
    state: dict[str, Any] | None
    move_count: int
    versions: dict[int, int]


async def capture(fake: FakeDiscord, table: Table | None = None) -> Snapshot:
    """The table (if any) and every visible message, once the bot is idle."""
    await settle()
    if table is None:
        return Snapshot("", None, 0, message_versions(fake))
    state = None if table.match is None else table.match.to_dict()
    return Snapshot(str(table.status), state, table.move_count, message_versions(fake))


async def assert_refused(
    fake: FakeDiscord,
    table: Table | None,
    before: Snapshot,
    result: InteractionResult,
    *needles: str,
) -> str:
    """The answer is a private warning that contains every needle (any case), and neither the
    table nor any message changed. Returns the answer's text for further checks."""
    await settle()
    text = result.text
    assert result.ephemeral, f"the refusal should be private, but it was public: {text!r}"
    assert "⚠️" in text, f"expected a warning, got {text!r}"
    for needle in needles:
        assert needle.lower() in text.lower(), f"{needle!r} missing from the refusal {text!r}"
    after = await capture(fake, table)
    assert after.state == before.state, f"the refused move changed the game: {text!r}"
    assert after.move_count == before.move_count, f"a move was recorded: {text!r}"
    assert after.status == before.status, f"the table changed status: {text!r}"
    assert after.versions == before.versions, (
        f"a message was posted or edited because of a refused move: {text!r}"
    )
    return text


# --- cards -----------------------------------------------------------------------------------


def card_tokens(text: str) -> set[Card]:
    """Every card in a text, written in canonical form (`10♥`, `K♠`) or as its emoji
    (`<:gin_10H:123>`, or the emoji name of a menu option)."""
    cards = {parse_card(rank + suit) for rank, suit in CARD_TOKEN.findall(text)}
    cards |= {parse_card(rank + EMOJI_SUITS[suit]) for rank, suit in CARD_EMOJI.findall(text)}
    return cards


def cards_as_text(text: str) -> str:
    """The text with each card emoji (`<:gin_10H:123>`) written as its card (`10♥`)."""
    return re.sub(
        r"<a?:gin_(10|[2-9AJQK])([SHDC]):\d+>",
        lambda m: str(parse_card(m.group(1) + EMOJI_SUITS[m.group(2)])),
        text,
    )


def taken_from_pile(hand: Hand) -> set[Card]:
    """Cards taken from the discard pile this hand: everyone at the table saw them."""
    replay = Hand.deal(hand.seats, hand.dealer, hand.names, hand.settings, hand.seed)
    taken: set[Card] = set()
    for action in hand.actions:
        if action.kind is ActionKind.DRAW_DISCARD and replay.upcard is not None:
            taken.add(replay.upcard)
        replay.apply(action)
    return taken


def hidden_cards(hand: Hand, *, from_seat: int | None = None) -> set[Card]:
    """Cards nobody (or, with `from_seat`, that player) may see now: the stock and the hands,
    less the cards that were taken from the discard pile."""
    hidden = set(hand.stock)
    if hand.is_over:
        return hidden
    public = taken_from_pile(hand)
    for seat, cards in hand.hands.items():
        if seat != from_seat:
            hidden |= set(cards) - public
    return hidden


def revealed_at(result: HandResult) -> set[Card]:
    """The cards a showdown shows: both arrangements, the lay-offs and the knock discard."""
    cards: set[Card] = set()
    for arrangement in (result.knocker_arrangement, result.defender_arrangement):
        if arrangement is not None:
            for meld in arrangement.melds:
                cards |= set(meld)
            cards |= set(arrangement.deadwood)
    cards |= {card for card, _ in result.layoffs}
    if result.knock_discard is not None:
        cards.add(result.knock_discard)
    return cards


def choice_values(choices: Iterable[dict[str, Any]]) -> list[str]:
    """The values of autocomplete choices: what Discord puts in the option when one is picked."""
    return [str(choice["value"]) for choice in choices]


def knock_cards(hand: Hand) -> set[Card]:
    """The cards the player to act may discard face down to knock now."""
    if hand.phase is not Phase.DISCARD:
        return set()
    options = discard_options(hand.hands[hand.turn])
    return {
        card
        for card, left in options.items()
        if left <= hand.settings.knock_limit and card != hand.taken_from_discard
    }


def far_from_knock(hand: Hand) -> Card | None:
    """A card in the hand of the player to act whose discard would leave too much to knock."""
    cards = hand.hands[hand.turn]
    for card in sorted(cards, key=lambda c: -c.value):
        if min_deadwood([c for c in cards if c != card]) > hand.settings.knock_limit:
            return card
    return None


def card_not_held(hand: Hand, seat: int) -> Card:
    """A card the seat does not hold."""
    return next(card for card in DECK if card not in hand.hands[seat])


# --- playing along ----------------------------------------------------------------------------


def quiet_move(hand: Hand) -> Action:
    """A legal move that keeps the hand going: pass the upcard, draw from the stock, then
    discard the card leaving the least deadwood; never knocks."""
    me = hand.turn
    if hand.phase is Phase.UPCARD:
        return Action(ActionKind.PASS, me)
    if hand.phase is Phase.DRAW:
        return Action(ActionKind.DRAW_STOCK, me)
    options = discard_options(hand.hands[me])
    options.pop(hand.taken_from_discard, None)  # type: ignore[arg-type]
    best = min(options, key=lambda c: (options[c], -c.value, int(c)))
    return Action(ActionKind.DISCARD, me, best)


async def step(game: Game) -> None:
    """Play one quiet move with a slash command."""
    result = await game.command(quiet_move(game.match.hand))
    assert "⚠️" not in result.text, result.text


async def advance(game: Game, until: Callable[[Match], bool], limit: int = 400) -> None:
    """Play quiet moves with slash commands until `until(match)` holds."""
    for _ in range(limit):
        if until(game.match):
            return
        await step(game)
    raise AssertionError(f"no such position within {limit} moves")


async def start_game(game: Game, challenger: User, opponent: User, **options: Any) -> Table:
    """Start a match and wait until the bot has finished dealing and messaging."""
    table = await game.start(challenger, opponent, **options)
    await settle()
    return table


def showdown_embed(embed: dict[str, Any]) -> bool:
    """Whether an embed is a hand's showdown, the one place hidden cards may be revealed."""
    return bool(SHOWDOWN_TITLE.match(str(embed.get("title") or "")))


async def refuse(
    fake: FakeDiscord,
    table: Table | None,
    attempt: Awaitable[InteractionResult],
    *needles: str,
) -> str:
    """Make an attempt (a not yet awaited slash command or click) that must be refused; see
    `assert_refused`. The snapshot is taken before the attempt starts."""
    before = await capture(fake, table)
    result = await attempt
    return await assert_refused(fake, table, before, result, *needles)


# What the README's invite link grants: View Channels, Send Messages, Embed Links, Attach Files,
# Read Message History, Create Public Threads, Send Messages in Threads.
INVITE_BITS = (10, 11, 14, 15, 16, 35, 38)
INVITE_PERMISSIONS = 309237763072
ATTACH_FILES = 1 << 15
