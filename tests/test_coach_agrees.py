"""One suggestion on a private hand: with the coach on, the discard menu's ★, the hint line and
the highlighted button are all the expert's move, and a knock it passes up is said outright
and not lit; with the coach off, the plain hint's ★ and line agree with each other."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest

from bot.gin.ai import Level, decide, view_for
from bot.gin.ai.advice import Advice, advise
from bot.gin.ai.expert import decide_expert
from bot.gin.cards import DECK
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.match import Match, Player
from bot.render.hand import best_discard_hint
from bot.server_settings import ServerSettings
from bot.tables import Table
from bot.tables.model import Seat, Status, TableMeta
from cogs.gin.screens.hands import Hands
from cogs.gin.screens.ledger import Ledger
from cogs.gin.screens.state import PrivateHand, Registry

HINT_SEED = "hint"
DONT_KNOCK = (1, 51)  # (deal, moves played): seat 0 may knock, and the expert plays on
DIFFERS = (0, 5)  # seat 0 discards, and the expert's card is not the least-deadwood one


def table_at(deal: int, moves: int, *, coach: bool, phase: Phase = Phase.DISCARD) -> Table:
    """A practice table with seat 0 to act in ``phase``: hard plays both seats up to there."""
    match = Match.start([Player("0", "Ann"), Player("1", "Bob")], seed=f"agree/{deal}")
    rng = random.Random(deal)
    for _ in range(moves):
        match.apply(decide(view_for(match, match.hand.turn), Level.HARD, rng))
    assert match.hand.turn == 0 and match.hand.phase is phase
    return Table(
        id=7,
        guild_id="1",
        channel_id="2",
        status=Status.PLAYING,
        seats=[Seat(Player("0", "Ann")), Seat(Player("1", "Bob"), bot_level="expert")],
        server=ServerSettings(),
        match=match,
        vs_bot=True,
        meta=TableMeta(coach=coach),
    )


def rendered(table: Table, advice: Advice | None) -> PrivateHand:
    """Seat 0's hand as the bot renders it once the coach's advice has come."""
    screens = Registry()
    hands = Hands(discord.Client(intents=discord.Intents.none()), Ledger(), screens)
    hands.advise = lambda table, seat: None
    if advice is not None:
        screens(table.id).seat(0).advice = (table.token(0), advice)
    return hands.render(table, 0)


def starred(hand: PrivateHand) -> list[str]:
    """The cards the discard menu stars."""
    assert hand.view is not None
    items = [getattr(c, "item", c) for c in hand.view.children]
    menus = [c for c in items if isinstance(c, discord.ui.Select)]
    return [o.label for menu in menus[:1] for o in menu.options if "★" in (o.description or "")]


def buttons(hand: PrivateHand) -> dict[str, discord.ButtonStyle]:
    assert hand.view is not None
    found: dict[str, discord.ButtonStyle] = {}
    for item in hand.view.children:
        button: Any = getattr(item, "item", item)
        if isinstance(button, discord.ui.Button):
            found[str(button.label)] = button.style
    return found


def body(hand: PrivateHand) -> str:
    return str(hand.embeds[0].description)


def the_advice(table: Table) -> Advice:
    assert table.match is not None
    view = view_for(table.match, 0)
    advice = advise(view, random.Random(HINT_SEED))
    assert advice is not None
    assert advice.action == decide_expert(view, random.Random(HINT_SEED))  # the expert's move
    return advice


def test_the_star_the_line_and_the_coach_name_the_experts_discard() -> None:
    table = table_at(*DIFFERS, coach=True)
    advice = the_advice(table)
    assert advice.action.kind is ActionKind.DISCARD and advice.action.card is not None
    card = str(advice.action.card)
    assert table.match is not None
    plain = best_discard_hint(table.match.hand)
    assert plain is not None and str(plain[0]) != card  # the plain hint would name another
    hand = rendered(table, advice)
    text = body(hand)
    assert starred(hand) == [card]
    assert f"🎓 Coach: discard {card}: it leaves deadwood" in text
    assert "Hint:" not in text  # one suggestion: the coach's line is the hint
    named = set(re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", text.split("🎓")[1]))
    assert named == {card}


def test_a_knock_the_expert_passes_up_is_said_and_not_lit() -> None:
    table = table_at(*DONT_KNOCK, coach=True)
    advice = the_advice(table)
    assert advice.action.kind is ActionKind.DISCARD and advice.knock is not None
    card = str(advice.action.card)
    hand = rendered(table, advice)
    text = body(hand)
    gin = advice.facts.gin_cards
    assert gin
    assert f"🎓 Coach: don't knock yet: discard {card}; {gin} cards give you gin." in text
    assert "Hint:" not in text
    assert starred(hand) == [card]
    knocks = {label: style for label, style in buttons(hand).items() if "Knock" in label}
    assert knocks and all(s is discord.ButtonStyle.secondary for s in knocks.values())


def test_a_knock_the_expert_makes_is_the_lit_button_and_nothing_is_starred() -> None:
    table = table_at(*DONT_KNOCK, coach=True)
    advice = the_advice(table)
    assert advice.knock is not None and advice.knock_card is not None
    knock = Action(ActionKind.KNOCK, 0, DECK[advice.knock_card])  # the knock it passed up
    said = Advice(knock, advice.knock)
    hand = rendered(table, said)
    assert starred(hand) == []
    lit = [label for label, s in buttons(hand).items() if s is discord.ButtonStyle.success]
    assert lit == [f"Knock: discard {knock.card} (deadwood {said.facts.left})"]
    assert f"🎓 Coach: knock, discarding {knock.card}" in body(hand)


@pytest.mark.parametrize(
    ("deal", "moves", "phase"), [(1, 6, Phase.DRAW), (1, 14, Phase.DRAW), (2, 0, Phase.UPCARD)]
)
def test_on_a_draw_the_lit_button_is_the_coachs(deal: int, moves: int, phase: Phase) -> None:
    table = table_at(deal, moves, coach=True, phase=phase)
    advice = the_advice(table)
    assert table.match is not None
    upcard = table.match.hand.upcard
    table_hand = rendered(table, advice)
    lit = [label for label, s in buttons(table_hand).items() if s is discord.ButtonStyle.primary]
    if advice.action.kind is ActionKind.DRAW_STOCK:
        assert lit == ["Draw from stock"]
        assert "🎓 Coach: draw from the stock" in body(table_hand)
    else:
        assert advice.action.kind is ActionKind.DRAW_DISCARD
        assert lit == [f"Take {upcard}"]
        assert f"🎓 Coach: take {upcard}" in body(table_hand)


def test_while_the_coach_thinks_nothing_is_suggested() -> None:
    table = table_at(*DIFFERS, coach=True)
    hand = rendered(table, None)
    assert starred(hand) == [] and "Hint:" not in body(hand) and "🎓" not in body(hand)


@pytest.mark.parametrize("where", [DIFFERS, DONT_KNOCK])
def test_without_the_coach_the_plain_hints_star_and_line_agree(where: tuple[int, int]) -> None:
    table = table_at(*where, coach=False)
    hand = rendered(table, None)
    assert table.match is not None
    plain = best_discard_hint(table.match.hand)
    assert plain is not None
    assert starred(hand) == [str(plain[0])]
    assert f"Hint: discarding {plain[0]} leaves deadwood {plain[1]}." in body(hand)
    assert "🎓" not in body(hand)
