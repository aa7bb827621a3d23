"""No one sees a card they could not see at a real table.

After every move of a whole match, every new version of every message is read for card
tokens (`10♥`, `K♠`) and checked against the cards hidden from its audience at that time: for
the channel, the stock and both hands less the cards taken from the discard pile; for one
player's DMs and ephemeral replies, the stock and the other player's hand. A showdown may show
the cards it reveals, and nothing else that is hidden (the stock stays face down).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.client import GinBot
from bot.gin import Card
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import HandRecord
from bot.tables import Table
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import (
    card_tokens,
    cards_as_text,
    hidden_cards,
    revealed_at,
    settle,
    showdown_embed,
    start_game,
)
from tests.fakediscord import ComponentError, FakeDiscord, Message, payload_text
from tests.gin.players import choose


def component_text(components: list[dict[str, Any]]) -> str:
    """Labels, descriptions and placeholders of buttons and menus: cards can hide there too."""
    parts: list[str] = []
    stack = list(components)
    while stack:
        component = stack.pop()
        for key in ("label", "placeholder", "description", "content"):
            if component.get(key):
                parts.append(str(component[key]))
        emoji = component.get("emoji") or {}
        if emoji.get("name"):
            parts.append(str(emoji["name"]))
        stack.extend(component.get("components") or [])
        stack.extend(component.get("options") or [])
    return "\n".join(parts)


@dataclass
class PrivacyWatch:
    """Reads each message version once, right after the move that produced it."""

    fake: FakeDiscord
    table: Table
    seen: dict[int, int] = field(default_factory=dict)
    public_versions: int = 0
    leaks: list[str] = field(default_factory=list)

    def audience(self, message: Message) -> int | None:
        """The seat that may read the message, or None for everyone."""
        channel = self.fake.store.channels[message.channel_id]
        if channel.recipient is not None:
            return self.table.seat_of(str(channel.recipient.id))
        if message.ephemeral and message.interaction_id is not None:
            owner = self.fake.interactions[message.interaction_id].user
            return self.table.seat_of(str(owner.id))
        return None

    def check(self, before: Hand, after: Hand, ended: HandRecord | None, label: str) -> None:
        """Check every version created since the last check."""
        for message in list(self.fake.store.messages.values()):
            start = self.seen.get(message.id, 0)
            versions = message.versions[start:]
            self.seen[message.id] = len(message.versions)
            seat = self.audience(message)
            if message.guild_id is not None and not message.ephemeral:
                self.public_versions += len(versions)
            for payload in versions:
                self._check_payload(payload, seat, before, after, ended, label)

    def _check_payload(
        self,
        payload: dict[str, Any],
        seat: int | None,
        before: Hand,
        after: Hand,
        ended: HandRecord | None,
        label: str,
    ) -> None:
        hidden_now = hidden_cards(after, from_seat=seat)
        parts = [payload_text({"content": payload.get("content")})]
        parts.append(component_text(list(payload.get("components") or [])))
        for embed in payload.get("embeds") or []:
            text = payload_text({"embeds": [embed]})
            if showdown_embed(embed) and ended is not None:
                hidden = hidden_cards(before, from_seat=seat) - revealed_at(ended.result)
                self._report(text, hidden, seat, f"{label} (showdown)")
            else:
                parts.append(text)
        self._report("\n".join(parts), hidden_now, seat, label)

    def _report(self, text: str, hidden: set[Card], seat: int | None, label: str) -> None:
        leaked = card_tokens(text) & hidden
        if leaked:
            who = "the channel" if seat is None else f"seat {seat}"
            shown = " ".join(str(c) for c in sorted(leaked))
            self.leaks.append(f"after {label}: {who} saw hidden {shown} in {text!r}")


async def test_no_hidden_card_is_ever_shown(world: World, bot: GinBot) -> None:
    """A whole match, half by commands and half by DM buttons, with looks at /gin hand and
    /gin table: no message ever shows a card to someone who may not see it."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, target=100)
    watch = PrivacyWatch(fake, table)
    hand = game.match.hand
    watch.check(hand, hand, None, "the deal")
    rng = random.Random(21)
    moves = hands = 0
    while not game.match.is_over:
        before = Hand.from_dict(game.match.hand.to_dict())
        number = game.match.hand_number
        action = choose(game.match.hand, "hunter" if moves % 5 else "knocker", rng)
        user = game.user(action.seat)
        if action.seat == 0:
            result = await game.command(action)
            assert result.ephemeral, f"a move reply was public: {result.text!r}"
        else:
            result = await game.button(action)
        assert "⚠️" not in result.text, result.text
        if moves % 7 == 0:
            looked = await fake.slash(user, world.channel, "gin hand")
            assert looked.ephemeral
            seen = await fake.slash(world.carol, world.channel, "gin table")
            assert seen.ephemeral
        await settle()
        finished = [r for r in game.match.history if r.number == number]
        ended = finished[0] if finished else None  # the hand this move finished, if any
        hands += ended is not None
        label = f"move {moves + 1} ({action.kind} by seat {action.seat})"
        watch.check(before, game.match.hand, ended, label)
        moves += 1
        assert moves < 3000
    assert not watch.leaks, "\n".join(watch.leaks)
    assert watch.public_versions == len(fake.all_channel_payloads())
    assert hands >= 1 and moves > 20


async def test_a_card_taken_from_the_pile_is_named(world: World, bot: GinBot) -> None:
    """Taking the upcard is public: the table is told which card it was, and the opponent
    when their turn comes (their hand retells the turn they waited through)."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    hand = game.match.hand
    seat, upcard = hand.turn, hand.upcard
    assert upcard is not None
    await game.command(Action(ActionKind.DRAW_DISCARD, seat))
    await settle()
    name = table.players[seat].name
    expected = f"{name} took {upcard} from the discard pile"
    public = fake.message(table.display["public"])
    await fake.wait_for(  # spectators' table is edited a few moves at a time
        lambda: expected in cards_as_text(public.text),
        timeout=60,
        what="the table to name the card taken",
    )
    other = game.dm_panel(1 - seat)
    assert expected not in other.text, "a waiting player's hand was edited for a move"
    card = next(c for c in sorted(game.match.hand.hands[seat]) if c != upcard)
    await game.command(Action(ActionKind.DISCARD, seat, card))
    await settle()
    other = game.dm_panel(1 - seat)
    retold = f"{name} took {upcard} from the pile, then discarded"
    assert retold in cards_as_text(other.text), f"the opponent's hand message reads: {other.text!r}"
    assert "None" not in public.text and "None" not in other.text


async def test_replies_are_only_for_their_user(world: World, bot: GinBot) -> None:
    """Hand replies are ephemeral, only their owner can use their buttons, and a player's DMs
    never hold the other's cards."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat = game.match.hand.turn
    user, other = game.user(seat), game.user(1 - seat)
    shown = await fake.slash(user, world.channel, "gin hand")
    assert shown.ephemeral and shown.message is not None
    assert shown.message.flags & 64
    assert fake.interactions[shown.id].user is user
    move = f"gin:mv:{table.id}:{table.token(seat)}:pass"
    assert move in shown.custom_ids
    for stranger in (other, world.carol):
        with pytest.raises(ComponentError):
            await fake.click(stranger, shown.message, move)
    assert table.move_count == 0
    for player, seat_of in ((world.alice, 0), (world.bob, 1)):
        theirs = table.seat_of(str(player.id))
        assert theirs is not None
        hidden = set(game.match.hand.hands[1 - theirs]) | set(game.match.hand.stock)
        for payload in fake.all_dm_payloads(player):
            assert not card_tokens(payload_text(payload)) & hidden, seat_of
    assert game.match.hand.phase is Phase.UPCARD
