"""The public table: what spectators may see of every game in play."""

from __future__ import annotations

from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import Match
from bot.i18n import tr, tr_n
from bot.render.common import (
    BOARD_LOG_LINES,
    LOG_LINES,
    Face,
    Panel,
    ordinal,
    pile_text,
    scores_line,
    side_name,
    variant_line,
)


def describe_action(
    match: Match, action: Action, hand: Hand | None = None, face: Face = str
) -> str:
    """One public action as a sentence, showing only what a spectator saw (its card drawn
    by ``face``, as the table around it draws cards)."""
    name = match.players[action.seat].name
    kind = action.kind
    if kind is ActionKind.PASS:
        return tr("{name} passed on the upcard.", name=name)
    if kind is ActionKind.DRAW_STOCK:
        return tr("{name} drew from the stock.", name=name)
    if kind is ActionKind.DRAW_DISCARD:
        return tr("{name} took {card} from the discard pile.", name=name, card=_card(action, face))
    if kind is ActionKind.DISCARD:
        return tr("{name} discarded {card}.", name=name, card=_card(action, face))
    if kind is ActionKind.KNOCK:
        if hand is not None and not hand.rules.knocking:
            return tr("{name} went gin!", name=name)
        return tr("{name} knocked.", name=name)
    if kind is ActionKind.LEAVE:
        return tr("{name} left the match.", name=name)
    return tr("{name} declared Big Gin!", name=name)


def _card(action: Action, face: Face) -> str:
    return "" if action.card is None else face(action.card)


def table_title(match: Match, number: int | None = None) -> str:
    """The public table's title for the hand in play (or hand ``number`` of the match)."""
    n = match.hand_number if number is None else number
    mode = match.mode
    if mode.plays_rounds:
        return tr("Gin Rummy · elimination · round {number}", number=n)
    if mode.dealer_sits_out:
        return tr("Gin Rummy · three players · hand {number}", number=n)
    if mode.team_play:
        first, second = side_name(match, 0), side_name(match, 1)
    else:
        first, second = match.players[0].name, match.players[1].name
    return tr(
        "Gin Rummy · {first} vs {second} · hand {number}", first=first, second=second, number=n
    )


def _turn_line(name: str, hand: Hand) -> str:
    """Whose turn it is and what they are to do, as the table shows it."""
    if hand.phase is Phase.UPCARD:
        return tr("**Turn:** {name} — take or pass the upcard", name=name)
    if hand.phase is Phase.DRAW:
        return tr("**Turn:** {name} — draw", name=name)
    if hand.rules.knocking:
        return tr("**Turn:** {name} — discard", name=name)
    return tr("**Turn:** {name} — discard or go gin", name=name)


def to_do(name: str, hand: Hand) -> str:
    """What the player to act is to do, as a teams game's line shows it: "Bob to draw"."""
    if hand.phase is Phase.UPCARD:
        return tr("{name} to take or pass the upcard", name=name)
    if hand.phase is Phase.DRAW:
        return tr("{name} to draw", name=name)
    if hand.rules.knocking:
        return tr("{name} to discard", name=name)
    return tr("{name} to discard or go gin", name=name)


def _log(match: Match, hand: Hand, lines: int, face: Face = str) -> str:
    events = [describe_action(match, a, hand, face) for a in hand.public_actions()]
    if not events:
        return ""
    shown = events[-lines:]
    more = len(events) - len(shown)
    text = "\n".join(f"• {e}" for e in shown)
    if not more:
        return text
    # TRANSLATORS: the table's log of moves, when the first {n} are left out.
    return tr_n("… {n} earlier", "… {n} earlier", more) + "\n" + text


def table_panel(match: Match, face: Face = str) -> Panel:
    """The public table: only what anyone at a real table could see."""
    footer = tr("Your cards come by DM · /gin hand shows them again")
    mode = match.mode
    if mode.has_target:
        lines = [tr("**Score:** {scores}", scores=scores_line(match))]
    else:  # elimination keeps no score: who is out (and safe), who still plays
        lines = [scores_line(match)]
    if mode.team_play:
        dealers = side_name(match, match.dealing_side)
        # TRANSLATORS: the hand's number, then the team that deals it ("Ann & Cal deal").
        lines.append(tr("**Hand {number}** · {team} deal", number=match.hand_number, team=dealers))
        for index, hand in enumerate(match.boards):
            lines.append(_board_line(match, hand, index + 1, face))
            log = _log(match, hand, BOARD_LOG_LINES, face)
            if log:
                lines.append(log)
        return Panel(table_title(match), "\n".join(lines), footer)
    hand = match.hand
    dealer = match.players[hand.dealer].name
    n = match.hand_number
    if mode.plays_rounds:
        lines.append(tr("**Round {number}** · {dealer} dealt", number=n, dealer=dealer))
        lines.append(_elimination_seats(match, hand))
    elif mode.dealer_sits_out and hand.dealer not in hand.seats:
        lines.append(tr("**Hand {number}** · {dealer} dealt and sits out", number=n, dealer=dealer))
    else:
        lines.append(tr("**Hand {number}** · {dealer} dealt", number=n, dealer=dealer))
    if match.is_over:
        lines.append(tr("The match is over."))
    elif hand.is_over:
        lines.append(tr("This hand is over: see the showdown below."))
    else:
        lines.append(_turn_line(match.players[hand.turn].name, hand))
    piles = [
        tr_n("**Stock:** {n} card", "**Stock:** {n} cards", len(hand.stock)),
        tr("**Discard pile:** {card}", card=pile_text(hand.upcard, face)),
    ]
    if hand.rules.decks > 1:
        # TRANSLATORS: how many decks of cards the table plays with.
        piles.append(tr_n("{n} deck", "{n} decks", hand.rules.decks))
    lines.append(" · ".join(piles))
    oklahoma = variant_line(hand, face)
    if oklahoma:
        lines.append(oklahoma)
    log = _log(match, hand, LOG_LINES, face)
    if log:
        lines.append(log)
    return Panel(table_title(match), "\n".join(lines), footer)


def _board_line(match: Match, hand: Hand, game: int, face: Face = str) -> str:
    """One game of a teams hand: its two players, whose turn, the stock and the pile."""
    a, b = (match.players[s].name for s in hand.seats)
    if hand.is_over:
        state = tr("over, waiting for the other game")
    else:
        state = to_do(match.players[hand.turn].name, hand)
    # TRANSLATORS: one game of a teams hand; {state} is "over, waiting for the other game" or
    # "Bob to draw"; then the cards left in the stock and the discard pile's top card.
    return tr(
        "**Game {number}:** {first} vs {second} — {state} · stock {stock} · discard pile {pile}",
        number=game,
        first=a,
        second=b,
        state=state,
        stock=len(hand.stock),
        pile=pile_text(hand.upcard, face),
    )


def _elimination_seats(match: Match, hand: Hand) -> str:
    """Every seat of an elimination table: cards held, whose turn, who is out and where."""
    parts = []
    for seat, player in enumerate(match.players):
        if seat in match.out:
            place = ordinal(match.out.index(seat) + 1)
            # TRANSLATORS: a player who went out of elimination, and their place ("2nd").
            parts.append(tr("~~{name}~~ out {place}", name=player.name, place=place))
        elif seat in match.dropped:
            # TRANSLATORS: a player who left the match (elimination, three players).
            parts.append(tr("~~{name}~~ left", name=player.name))
        elif seat in hand.hands:
            text = f"{player.name} ({len(hand.hands[seat])})"
            parts.append(f"**{text}**" if seat == hand.turn and not hand.is_over else text)
    return " · ".join(parts)
