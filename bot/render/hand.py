"""A seat's private hand: its melds and deadwood, what the others did, what to do now."""

from __future__ import annotations

from collections.abc import Sequence

from bot.gin import Card
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import Match
from bot.gin.melds import Arrangement, min_deadwood
from bot.i18n import tr, tr_n, translate
from bot.render.common import Face, Panel, pile_text, scores_line, variant_line

DESCRIPTION_LIMIT = 4096  # Discord's limit on an embed's description


def hand_panel(
    match: Match,
    seat: int,
    *,
    where: str = "",
    note: str = "",
    hint: bool = True,
    face: Face = str,
    ends: int | None = None,
    advice: str = "",
) -> Panel:
    """A player's own hand, arranged, with deadwood, what they may do now and a discard hint
    (``advice``: the coach's suggested move, a line of its own).

    Cards are drawn by ``face`` (emojis, say) unless that would pass Discord's limit on an
    embed's description (a table of 14, each player's turn told in emojis): then as text."""

    def drawn(face: Face) -> Panel:
        return _hand_panel(match, seat, where, note, hint, face, ends, advice)

    panel = drawn(face)
    if len(panel.body) > DESCRIPTION_LIMIT and face is not str:
        panel = drawn(str)
    return panel


def _hand_panel(
    match: Match,
    seat: int,
    where: str,
    note: str,
    hint: bool,
    face: Face,
    ends: int | None,
    advice: str,
) -> Panel:
    hand = match.board_of(seat)
    footer = scores_line(match) + (f" · {where}" if where else "")
    if hand is None:
        return Panel(
            tr("Gin Rummy · hand {number}", number=match.hand_number),
            translate(match.mode.not_playing(match, seat)),
            footer,
        )
    mode = match.mode
    title = _hand_title(match, seat, hand)
    lines = []
    if note:
        lines.append(f"**{note}**")
    if mode.team_play:
        partner = match.partners(seat)[0]
        name = match.players[partner].name
        if match.board_of(partner) is None:
            lines.append(tr("Partner: {partner}", partner=name))
        else:
            opponent = match.players[match.opponent_of(partner)].name
            lines.append(
                tr("Partner: {partner}, playing {opponent}", partner=name, opponent=opponent)
            )
    acting = hand.turn == seat and not hand.is_over and not match.is_over
    if acting:
        lines.extend(others_turns(match, hand, seat, face))
    my_cards = hand.hands.get(seat, [])
    arrangement = hand.arrangement(my_cards)
    lines.extend(hand_lines(arrangement, hand.last_drawn if acting else None, face))
    meter = knock_meter(hand, seat, arrangement.deadwood_value)
    if meter:
        lines.append(meter)
    oklahoma = variant_line(hand, face)
    if oklahoma:
        lines.append(oklahoma)
    lines.extend(_pickups_line(match, hand, seat, face))
    pile = [tr("Discard pile: {card}", card=pile_text(hand.upcard, face))]
    if hand.turn == seat:  # while waiting, the stock count would only churn the message
        # TRANSLATORS: the number of cards left in the stock.
        pile.append(tr("Stock: {count}", count=len(hand.stock)))
    if hand.turn == seat or len(hand.seats) == 2:  # many play: the pile moves on unseen
        lines.append(" · ".join(pile))
    if mode.plays_rounds and hand.turn == seat:
        lines.append(_others_line(match, hand, seat))
    lines.append(_status_line(match, hand, seat, hint=hint, face=face))
    if acting and advice:
        lines.append(advice)
    if acting and ends is not None:  # Discord shows it in the reader's own time, counting down
        lines.append(tr("⏱️ Your turn ends <t:{ends}:R>.", ends=ends))
    return Panel(title, "\n".join(lines), footer, turn=acting)


def _hand_title(match: Match, seat: int, hand: Hand) -> str:
    if match.mode.plays_rounds:
        return tr_n(
            "Your hand · round {number} · {n} player",
            "Your hand · round {number} · {n} players",
            len(hand.seats),
            number=match.hand_number,
        )
    other = match.players[match.opponent_of(seat)].name
    return tr("Your hand · vs {opponent} · hand {number}", opponent=other, number=match.hand_number)


def resting_cards(hand: Hand, seat: int) -> tuple[Card, ...]:
    """The cards a player holds between turns: mid-turn, the ones they held before the
    draw (the card just drawn is left out until the discard settles the hand)."""
    cards = list(hand.hands.get(seat, ()))
    drawn = hand.last_drawn
    if hand.turn == seat and hand.phase is Phase.DISCARD and drawn is not None and drawn in cards:
        cards.remove(drawn)
    return tuple(sorted(cards))


def elsewhere_panel(
    match: Match, seat: int, *, where: str, where_text: str = "", face: Face = str
) -> Panel:
    """A DM hand while its player plays from the channel: their cards as they stand between
    turns, and where their turn's buttons are (their latest private reply there), with how
    to play here again. The reply is the one live hand: no turn here, but always the
    cards. ``where`` for the footer (as written), ``where_text`` for the text (markdown;
    ``where`` when not given)."""
    hand = match.board_of(seat)
    footer = scores_line(match) + (f" · {where}" if where else "")
    if hand is None:
        return Panel(
            tr("Gin Rummy · hand {number}", number=match.hand_number),
            translate(match.mode.not_playing(match, seat)),
            footer,
        )
    said = tr(
        "Your turn's buttons are on your latest private reply in {where}. Press **Play "
        "here** to play this hand in this DM instead.",
        where=where_text or where,
    )
    cards = list(resting_cards(hand, seat))
    lines = [*hand_lines(hand.arrangement(cards), None, face), said]
    return Panel(_hand_title(match, seat, hand), "\n".join(lines), footer)


NEW_CARD = "🆕"  # marks the card just drawn


# Between the mark and its card: no line may break there (a phone's narrow screen would
# otherwise leave the mark at the end of one line and the card on the next).
WORD_JOINER = "\u2060"


OTHERS_SHOWN = 5  # players whose turns a hand message retells, at most


def hand_lines(arrangement: Arrangement, drawn: Card | None, face: Face = str) -> list[str]:
    """Melds one per line, then the deadwood with its count; the card just drawn marked."""

    def show(cards: Sequence[Card]) -> str:
        marked = False
        out = []
        for card in cards:
            if card == drawn and not marked:
                out.append(f"{NEW_CARD}{WORD_JOINER}{face(card)}")
                marked = True
            else:
                out.append(face(card))
        return " ".join(out)

    lines = [show(meld) for meld in arrangement.melds]
    if arrangement.deadwood:
        lines.append(
            tr(
                "**Deadwood ({value}):** {cards}",
                value=arrangement.deadwood_value,
                cards=show(arrangement.deadwood),
            )
        )
    elif arrangement.melds:
        lines.append(tr("**Deadwood:** none"))
    return lines or ["—"]


def others_turns(match: Match, hand: Hand, seat: int, face: Face = str) -> list[str]:
    """What the others did since the player's last move, each player's turn in one sentence:
    "Bob took 7♣ from the pile, then discarded 5♣." (only what the table saw)."""
    since: list[Action] = []
    actions = hand.public_actions()
    end = len(actions)
    while end and actions[end - 1].seat == seat:  # this turn's own moves so far
        end -= 1
    for action in reversed(actions[:end]):
        if action.seat == seat:
            break
        since.append(action)
    since.reverse()
    turns: list[tuple[int, list[str]]] = []
    for action in since:
        if not turns or turns[-1][0] != action.seat:
            turns.append((action.seat, []))
        turns[-1][1].append(_deed(action, face))
    # TRANSLATORS: joins the moves of one turn: "took 7♣ from the pile, then discarded 5♣".
    then = tr(", then ")
    sentences = [
        # TRANSLATORS: a player's turn: their name, then what they did ("drew from the stock,
        # then discarded 5♣").
        tr("{name} {deeds}.", name=match.players[who].name, deeds=then.join(deeds))
        for who, deeds in turns
    ]
    if len(sentences) > OTHERS_SHOWN:
        sentences = ["…", *sentences[-OTHERS_SHOWN:]]
    return sentences


def _deed(action: Action, face: Face) -> str:
    """One move of a player's turn, without its player: "took 7♣ from the pile"."""
    kind = action.kind
    if kind is ActionKind.PASS:
        # TRANSLATORS: a move in "Bob passed on the upcard, then …" (the name comes first).
        return tr("passed on the upcard")
    if kind is ActionKind.DRAW_STOCK:
        # TRANSLATORS: a move in "Bob drew from the stock, then …" (the name comes first).
        return tr("drew from the stock")
    if kind is ActionKind.DRAW_DISCARD and action.card is not None:
        # TRANSLATORS: a move in "Bob took 7♣ from the pile, then …" (the name comes first).
        return tr("took {card} from the pile", card=face(action.card))
    if kind is ActionKind.DISCARD and action.card is not None:
        # TRANSLATORS: a move in "Bob …, then discarded 5♣." (the name comes first).
        return tr("discarded {card}", card=face(action.card))
    if kind is ActionKind.LEAVE:
        # TRANSLATORS: a move in "Bob left the round." (the name comes first).
        return tr("left the round")
    return kind.value


def _pickups_line(match: Match, hand: Hand, seat: int, face: Face = str) -> list[str]:
    """The cards each other player took from the pile this hand and still holds: what a
    careful player at a real table remembers."""
    held: dict[int, list[Card]] = {}
    for action in hand.public_actions():
        if action.seat == seat or action.card is None:
            continue
        cards = held.setdefault(action.seat, [])
        if action.kind is ActionKind.DRAW_DISCARD:
            cards.append(action.card)
        elif action.kind is ActionKind.DISCARD and action.card in cards:
            cards.remove(action.card)
    parts = [
        f"{match.players[who].name} {' '.join(face(c) for c in cards)}"
        for who, cards in held.items()
        if cards and who in hand.seats
    ]
    if not parts:
        return []
    # TRANSLATORS: each other player with the cards they took from the pile and still hold.
    return [tr("From the pile, still held: {held}", held=" · ".join(parts))]


def _others_line(match: Match, hand: Hand, seat: int) -> str:
    """What a real table shows of the others: how many cards each holds."""
    counts = [f"{match.players[s].name} {len(hand.hands[s])}" for s in hand.seats if s != seat]
    # TRANSLATORS: each other player with the number of cards in their hand.
    return tr("Cards held: {counts}", counts=" · ".join(counts))


def knock_meter(hand: Hand, seat: int, deadwood: int) -> str | None:
    """The knock meter: how far the deadwood is from a knock (or gin, at a gin-only table)."""
    if len(hand.hands.get(seat, [])) == 11:
        return None  # mid-turn: the deadwood line above says it all until the discard
    if not hand.rules.knocking:
        if deadwood == 0:
            return tr("All ten meld! Draw, then discard a card to go gin.")
        return tr("Gin only: you go out when all ten cards meld.")
    limit = hand.knock_limit
    if deadwood == 0:
        return tr("Gin! Draw, then discard a card to go gin.")
    if deadwood <= limit:
        return tr(
            "Knock meter: {deadwood} of {limit} — you can knock after your next draw.",
            deadwood=deadwood,
            limit=limit,
        )
    return tr("Knock meter: {deadwood}, knock at {limit} or less.", deadwood=deadwood, limit=limit)


def waiting_line(match: Match, hand: Hand) -> str:
    """What a two-player hand's player waits for while the other is to act."""
    waiting = match.players[hand.turn].name
    if hand.phase is Phase.UPCARD:
        return tr("Waiting for {name} to take or pass the upcard.", name=waiting)
    return tr("Waiting for {name} to play.", name=waiting)


def your_turn_line(hand: Hand, face: Face = str) -> str:
    """What the player to act may do now: the one line the DM hand and the Activity share."""
    upcard = "" if hand.upcard is None else face(hand.upcard)
    if hand.phase is Phase.UPCARD:
        return tr("**Your turn:** take the upcard {card} or pass.", card=upcard)
    if hand.phase is Phase.DRAW:
        if hand.stock_only:
            return tr("**Your turn:** both passed on the upcard, so draw from the stock.")
        if not hand.stock:
            return tr(
                "**Your turn:** the stock is empty: take {card} from the discard pile.", card=upcard
            )
        return tr(
            "**Your turn:** draw from the stock or take {card} from the discard pile.", card=upcard
        )
    kinds = {a.kind for a in hand.legal_actions()}  # one pass: every knock check at once
    if ActionKind.BIG_GIN in kinds:
        return tr("**Your turn:** discard a card, or declare **Big Gin**: all 11 cards meld!.")
    if ActionKind.KNOCK in kinds and not hand.rules.knocking:
        return tr("**Your turn:** discard a card, or go **gin**!.")
    if ActionKind.KNOCK in kinds:
        return tr("**Your turn:** discard a card, or knock.")
    return tr("**Your turn:** discard a card.")


def _status_line(match: Match, hand: Hand, seat: int, *, hint: bool, face: Face = str) -> str:
    if match.is_over:  # ended mid-hand: a resignation, a forfeit (the result comes apart)
        return tr("This match is over.")
    if hand.is_over:
        if match.mode.team_play and not match.is_over:
            return tr("Your game of this hand is over: waiting for the other game to finish.")
        return tr("This hand is over.")
    if hand.turn != seat:
        if len(hand.seats) > 2:
            return tr("Waiting for your turn; the table in the channel shows the play.")
        return waiting_line(match, hand)
    lines = [your_turn_line(hand, face)]
    if hand.phase is not Phase.DISCARD:
        return lines[0]
    if hint:
        best = best_discard_hint(hand)
        if best is not None:
            card, left = best
            lines.append(
                tr("Hint: discarding {card} leaves deadwood {left}.", card=face(card), left=left)
            )
    if hand.taken_from_discard is not None:
        lines.append(
            tr(
                "(You can't discard {card}, just taken from the pile.)",
                card=face(hand.taken_from_discard),
            )
        )
    return "\n".join(lines)


def best_discard_hint(hand: Hand) -> tuple[Card, int] | None:
    """The discard that leaves the least deadwood (highest card on ties), for the hint."""
    options = hand.discard_options(hand.hands[hand.turn])
    if hand.taken_from_discard is not None:
        options.pop(hand.taken_from_discard, None)
    if not options:
        return None
    card = min(options, key=lambda c: (options[c], -c.value, -int(c)))
    return card, options[card]


def joins_a_meld(cards: Sequence[Card], card: Card, distinct_suits: bool = False) -> bool:
    """Whether ``card`` would take less deadwood off the hand than its own value: it joins a
    meld of the best arrangement (the hint's reason to take it)."""
    with_it = min_deadwood([*cards, card], distinct_suits=distinct_suits)
    return with_it < min_deadwood(cards, distinct_suits=distinct_suits) + card.value


def discard_choices(hand: Hand, seat: int) -> list[tuple[Card, int, bool]]:
    """Each card the player may discard, the deadwood it leaves, and whether they could knock
    (in elimination: go gin) with it."""
    if hand.phase is not Phase.DISCARD or hand.turn != seat:
        return []
    options = hand.discard_options(hand.hands[seat])
    limit = hand.knock_limit
    return [
        (card, options[card], options[card] <= limit)
        for card in sorted(options)
        if card != hand.taken_from_discard
    ]
