"""The private hand reads at a glance: melds a line each, the deadwood counted, the card just
drawn marked, the others' whole turns retold, the pile's cards they still hold."""

from __future__ import annotations

from bot.gin.cards import Card
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.match import Match, Player
from bot.render.hand import DESCRIPTION_LIMIT, NEW_CARD, WORD_JOINER, hand_panel


def started() -> Match:
    return Match.start([Player("1", "Alice"), Player("2", "Bob")], seed="glance")


def discard_any(match: Match, avoid: Card | None = None) -> Card:
    hand = match.hand
    card = next(c for c in sorted(hand.hands[hand.turn]) if c != avoid)
    match.apply(Action(ActionKind.DISCARD, hand.turn, card))
    return card


def test_melds_a_line_each_then_the_deadwood_with_its_count() -> None:
    match = started()
    seat = match.hand.turn
    panel = hand_panel(match, seat)
    arrangement = match.hand.arrangement(match.hand.hands[seat])
    lines = panel.body.splitlines()
    for meld in arrangement.melds:
        assert " ".join(str(c) for c in meld) in lines
    deadwood = next(line for line in lines if line.startswith("**Deadwood"))
    assert f"({arrangement.deadwood_value})" in deadwood
    for card in arrangement.deadwood:
        assert str(card) in deadwood


def test_the_card_just_drawn_is_marked_for_the_player_only_until_the_discard() -> None:
    match = started()
    hand = match.hand
    taker = hand.turn
    upcard = hand.upcard
    assert upcard is not None
    match.apply(Action(ActionKind.DRAW_DISCARD, taker))
    assert f"{NEW_CARD}{WORD_JOINER}{upcard}" in hand_panel(match, taker).body  # never apart
    other = next(s for s in hand.seats if s != taker)
    assert NEW_CARD not in hand_panel(match, other).body
    discard_any(match, avoid=upcard)
    assert NEW_CARD not in hand_panel(match, taker).body


def test_the_others_whole_turn_and_the_pile_cards_they_still_hold() -> None:
    match = started()
    hand = match.hand
    alice_or_bob = hand.turn
    name = match.players[alice_or_bob].name
    upcard = hand.upcard
    assert upcard is not None
    match.apply(Action(ActionKind.DRAW_DISCARD, alice_or_bob))
    thrown = discard_any(match, avoid=upcard)
    other = hand.turn
    body = hand_panel(match, other).body
    assert f"{name} took {upcard} from the pile, then discarded {thrown}." in body
    assert f"From the pile, still held: {name} {upcard}" in body
    panel = hand_panel(match, other)
    assert panel.turn is True and hand_panel(match, alice_or_bob).turn is False

    # The other player's turn is retold to the first, and the taken card is still held.
    match.apply(Action(ActionKind.DRAW_STOCK, other))
    assert hand.phase is Phase.DISCARD
    second = discard_any(match)
    body = hand_panel(match, alice_or_bob).body
    other_name = match.players[other].name
    assert f"{other_name} drew from the stock, then discarded {second}." in body
    assert "From the pile, still held" not in body  # the first player's own pickup isn't listed

    # Once the taker throws the card back, it is no longer listed as held.
    match.apply(Action(ActionKind.DRAW_STOCK, alice_or_bob))
    match.apply(Action(ActionKind.DISCARD, alice_or_bob, upcard))
    assert "From the pile, still held" not in hand_panel(match, other).body


def test_cards_drawn_by_the_face_given_and_the_turn_deadline_counts_down() -> None:
    match = started()
    seat = match.hand.turn
    body = hand_panel(match, seat, face=lambda c: f"[{c}]", ends=1_800_000_000).body
    for card in match.hand.hands[seat]:
        assert f"[{card}]" in body
    assert "<t:1800000000:R>" in body
    waiting = next(s for s in match.hand.seats if s != seat)
    assert "<t:" not in hand_panel(match, waiting, ends=1_800_000_000).body


def test_the_knock_meter() -> None:
    match = started()
    seat = match.hand.turn
    waiting = next(s for s in match.hand.seats if s != seat)
    body = hand_panel(match, waiting).body
    arrangement = match.hand.arrangement(match.hand.hands[waiting])
    limit = match.hand.knock_limit
    if arrangement.deadwood_value > limit:
        assert f"Knock meter: {arrangement.deadwood_value}, knock at {limit} or less." in body
    else:
        assert "Knock meter:" in body or "Gin!" in body


def test_a_table_of_fourteen_in_emojis_falls_back_to_text_within_discords_limit() -> None:
    """Thirteen players with long names each holding cards taken from the pile, named with
    custom emojis' long codes, pass Discord's 4,096 characters of an embed's description: the
    hand is then drawn as text, which fits."""
    # Discord's longest display names (32 characters).
    players = [Player(str(n), f"{n:02d}".ljust(32, "x")) for n in range(14)]
    assert all(len(p.name) == 32 for p in players)
    match = Match.start(players, seed="fourteen", mode="elimination")
    hand = match.hand
    first = hand.turn
    emoji = "<:gin_card_{}:1578541956529811469>".format
    note, ends = "You drew a card from the stock.", 1_800_000_000

    def in_emojis() -> str:
        return hand_panel(match, first, note=note, face=lambda c: emoji(c), ends=ends).body

    grew = []
    for _ in range(40):  # rounds of turns: each seat takes the upcard and keeps it
        while True:
            seat = hand.turn
            take = seat != first and hand.upcard is not None
            match.apply(Action(ActionKind.DRAW_DISCARD if take else ActionKind.DRAW_STOCK, seat))
            discard_any(match, avoid=hand.last_drawn)
            if hand.turn == first or hand.is_over:
                break
        if hand.is_over:
            break
        body = in_emojis()
        grew.append(len(body))
        if "<:gin_" not in body:
            break
    body = in_emojis()
    assert "<:gin_" not in body, str(grew)  # the emojis would not have fitted
    assert len(body) <= DESCRIPTION_LIMIT
    assert body == hand_panel(match, first, note=note, ends=ends).body
