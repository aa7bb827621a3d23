"""The table as one socket of the Activity may see it: the public table for everyone, and a
seat's own hand, moves and knock meter for that seat's socket alone.

Pure: no I/O, no clock (the turn's end is read from the stored clocks). Every sentence is made
in the language in force (``bot.i18n.speaking``), mostly the bot's own sentences from
``bot.render``; cards travel as short codes (``7H``, ``10S``) that the page draws itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.gin import Card
from bot.gin.cards import RANKS, SUIT_LETTERS
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import HandRecord, Match
from bot.i18n import tr, translate
from bot.render.common import Panel, scores_line, variant_line
from bot.render.hand import best_discard_hint, knock_meter, waiting_line, your_turn_line
from bot.render.result import match_over_panel
from bot.render.showdown import showdown_panel
from bot.render.table import describe_action, table_title, to_do
from bot.tables import clock
from bot.tables.model import Status, Table

View = dict[str, Any]

LOG_LINES = 6


def code(card: Card) -> str:
    """A card as the page knows it: rank then suit letter (``AS``, ``10H``, ``QD``)."""
    return RANKS[card.rank] + SUIT_LETTERS[card.suit]


def codes(cards: Sequence[Card]) -> list[str]:
    return [code(c) for c in cards]


def panel(shown: Panel) -> dict[str, str]:
    return {"title": shown.title, "body": shown.body, "footer": shown.footer}


def empty_view(title: str, text: str) -> View:
    """No table in the channel (yet)."""
    return {
        "id": None,
        "status": "none",
        "mode": "",
        "title": title,
        "hand": 0,
        "you": None,
        "seats": [],
        "boards": [],
        "scores": "",
        "status_text": text,
        "rules_text": "",
        "log": [],
        "ends_at": None,
        "mine": None,
        "showdown": None,
        "result": None,
        "can_answer": False,
        "can_rematch": False,
    }


def public_view(table: Table) -> View:
    """What anyone in the channel sees: no card any player holds."""
    match = table.match
    if match is None:
        return _waiting_view(table)
    status = {
        Status.PLAYING: "playing",
        Status.FINISHED: "finished",
    }.get(table.status, "closed")
    if match.is_over:
        status = "finished"
    boards = [_board(match, index, hand) for index, hand in enumerate(match.boards)]
    first = match.boards[0]
    rules = variant_line(first) or ""
    view: View = {
        "id": table.id,
        "status": status,
        "mode": table.mode_name,
        "title": table_title(match),
        "hand": match.hand_number,
        "you": None,
        "seats": _seats(table, match),
        "boards": boards,
        "scores": scores_line(match),
        "status_text": _public_status(table, match),
        "rules_text": rules,
        "log": _log(match),
        "ends_at": None,
        "mine": None,
        "showdown": _showdown(match, None),
        "result": None if match.result is None else panel(match_over_panel(match, match.result)),
        "can_answer": False,
        "can_rematch": False,
    }
    return view


def seat_view(table: Table, public: View, seat: int | None) -> View:
    """The public view made the view of one socket: ``seat`` its player's seat (None: a
    spectator), with their own hand and moves."""
    view = dict(public)
    match = table.match
    view["you"] = seat
    if table.status is Status.CHALLENGE and not table.is_lobby and seat == 1:
        view["can_answer"] = True
    if match is None or seat is None:
        return view
    board = match.board_of(seat)
    view["ends_at"] = clock.turn_ends(table, seat)
    view["status_text"] = _own_status(table, match, seat, board)
    view["can_rematch"] = (
        match.is_over
        and table.mode.rematch_allowed
        and not table.bot_seats
        and table.status is Status.FINISHED
    )
    record = _showdown(match, match.board_index(seat))
    if record is not None:
        view["showdown"] = record
    if board is not None and seat in board.hands:
        view["mine"] = _mine(table, match, board, seat)
    return view


# --- the parts ------------------------------------------------------------------------------


def _waiting_view(table: Table) -> View:
    names = ", ".join(seat.player.name for seat in table.seats)
    if table.is_lobby:
        status, text = "lobby", tr("The table is filling its seats: {players}.", players=names)
    elif table.status is Status.CHALLENGE:
        status = "challenge"
        text = tr(
            "{challenger} challenges {opponent}: waiting for an answer.",
            challenger=table.challenger.name,
            opponent=table.opponent.name,
        )
    else:
        status, text = "closed", tr("Table closed")
    view = empty_view(tr("Gin Rummy table"), text)
    view.update(
        id=table.id,
        status=status,
        mode=table.mode_name,
        seats=[
            {
                "seat": index,
                "name": seat.player.name,
                "bot": seat.is_bot,
                "team": seat.team,
                "cards": 0,
                "turn": False,
                "state": "waiting",
                "score": None,
                "board": None,
            }
            for index, seat in enumerate(table.seats)
        ],
    )
    return view


def _seats(table: Table, match: Match) -> list[dict[str, Any]]:
    seats = []
    acting = set(match.to_act())
    has_target = match.mode.has_target
    for index, player in enumerate(match.players):
        board_index = match.board_index(index)
        board = None if board_index is None else match.boards[board_index]
        if index in match.out:
            state = "out"
        elif index in match.dropped:
            state = "left"
        elif board is None:
            state = "sitting_out"
        else:
            state = "playing"
        side = match.side_of(index)
        held = len(board.hands.get(index, ())) if board is not None else 0
        seats.append(
            {
                "seat": index,
                "name": player.name,
                "bot": index < len(table.seats) and table.seats[index].is_bot,
                "team": side if match.mode.team_play else None,
                "cards": held,
                "turn": index in acting,
                "state": state,
                "score": str(match.scores[side]) if has_target and not match.is_hollywood else None,
                "board": board_index,
            }
        )
    return seats


def _board(match: Match, index: int, hand: Hand) -> dict[str, Any]:
    over = hand.is_over
    turn = None if over else hand.turn
    return {
        "index": index,
        "seats": list(hand.seats),
        "turn": turn,
        "phase": hand.phase.value,
        "stock": len(hand.stock),
        "pile": codes(hand.discard_pile[-1:]),
        "pile_size": len(hand.discard_pile),
        "to_do": "" if turn is None else to_do(match.players[turn].name, hand),
    }


def _public_status(table: Table, match: Match) -> str:
    if match.is_over:
        return tr("The match is over.")
    if table.status is not Status.PLAYING:
        return tr("Table closed")
    turns = [b for b in match.boards if not b.is_over]
    if not turns:
        return tr("This hand is over: see the showdown below.")
    return " · ".join(to_do(match.players[b.turn].name, b) for b in turns)


def _own_status(table: Table, match: Match, seat: int, hand: Hand | None) -> str:
    if match.is_over:
        return tr("This match is over.")
    if table.status is not Status.PLAYING:
        return tr("Table closed")
    if hand is None:
        return translate(match.mode.not_playing(match, seat))
    if hand.is_over:
        return tr("Your game of this hand is over: waiting for the other game to finish.")
    if hand.turn != seat:
        return waiting_line(match, hand)
    return your_turn_line(hand)


def _log(match: Match) -> list[str]:
    lines: list[str] = []
    for hand in match.boards:
        lines.extend(describe_action(match, a, hand) for a in hand.public_actions())
    return lines[-LOG_LINES:]


def _showdown(match: Match, board: int | None) -> dict[str, Any] | None:
    """The last finished hand (of ``board``, when given and kept) as its showdown: both
    hands as they were laid down, which every player and spectator sees."""
    records = [r for r in match.history if board is None or r.board == board]
    if not records:
        records = list(match.history)
    if not records:
        return None
    record = records[-1]
    return _shown(match, record)


def _shown(match: Match, record: HandRecord) -> dict[str, Any]:
    result = record.result
    hands = []
    laid = [card for card, _ in result.layoffs]
    if result.knocker is not None and result.knocker_arrangement is not None:
        arrangement = result.knocker_arrangement
        hands.append(
            {
                "seat": result.knocker,
                "melds": [codes(m) for m in arrangement.melds],
                "deadwood": codes(arrangement.deadwood),
                "deadwood_value": result.knocker_deadwood,
                "laid_off": [],
            }
        )
    if result.defender is not None and result.defender_arrangement is not None:
        arrangement = result.defender_arrangement
        hands.append(
            {
                "seat": result.defender,
                "melds": [codes(m) for m in arrangement.melds],
                "deadwood": codes(arrangement.deadwood),
                "deadwood_value": result.defender_deadwood,
                "laid_off": codes(laid),
            }
        )
    shown = showdown_panel(match, record.number, result, record.board)
    return {"hand": record.number, "board": record.board, "hands": hands, "panel": panel(shown)}


def _mine(table: Table, match: Match, hand: Hand, seat: int) -> dict[str, Any]:
    """The seat's own hand, arranged, its legal moves, and the knock meter."""
    cards = hand.hands[seat]
    arrangement = hand.arrangement(list(cards))
    mine_turn = not hand.is_over and hand.turn == seat
    drawn = hand.last_drawn if mine_turn and hand.phase is Phase.DISCARD else None
    taken = hand.taken_from_discard if mine_turn else None
    return {
        "board": match.board_index(seat) or 0,
        "melds": [codes(m) for m in arrangement.melds],
        "deadwood": codes(arrangement.deadwood),
        "deadwood_value": arrangement.deadwood_value,
        "drawn": None if drawn is None else code(drawn),
        "taken": None if taken is None else code(taken),
        "token": table.token(seat),
        "moves": _moves(table, hand, seat) if mine_turn else [],
        "meter": knock_meter(hand, seat, arrangement.deadwood_value),
    }


def _moves(table: Table, hand: Hand, seat: int) -> list[dict[str, Any]]:
    legal = hand.legal_actions(seat)
    if not legal:
        return []
    left: dict[Card, int] = {}
    if hand.phase is Phase.DISCARD:
        left = hand.discard_options(hand.hands[seat])
    # A practice with the coach's hints shows the coach's move on Discord; the page shows no
    # other suggestion beside it (one voice).
    best_discard = best_discard_hint(hand) if table.server.hints and not table.coached else None
    knocks = [a for a in legal if a.kind is ActionKind.KNOCK and a.card is not None]
    best_knock = min(
        knocks,
        key=lambda a: (left.get(a.card, 99) if a.card else 99, -(a.card or Card(0)).value),
        default=None,
    )
    moves = []
    for action in legal:
        card = action.card
        best = action == best_knock or (
            action.kind is ActionKind.DISCARD
            and best_discard is not None
            and card == best_discard[0]
        )
        moves.append(
            {
                "kind": action.kind.value,
                "card": None if card is None else code(card),
                "left": left.get(card) if card is not None else None,
                "best": best,
                "label": _label(hand, action, left),
            }
        )
    return moves


def _label(hand: Hand, action: Action, left: dict[Card, int]) -> str:
    """What a move's button says (and a screen reader reads)."""
    card = action.card
    match action.kind:
        case ActionKind.PASS:
            return tr("Pass")
        case ActionKind.DRAW_STOCK:
            return tr("Draw from the stock")
        case ActionKind.DRAW_DISCARD:
            return tr("Take {card} from the discard pile", card=hand.upcard)
        case ActionKind.DISCARD:
            return tr("Discard {card}", card=card)
        case ActionKind.KNOCK if not hand.rules.knocking or left.get(card or Card(0)) == 0:
            return tr("Gin: discard {card} face down", card=card)
        case ActionKind.KNOCK:
            return tr(
                "Knock: discard {card} face down (deadwood {left})",
                card=card,
                left=left.get(card or Card(0), 0),
            )
        case ActionKind.BIG_GIN:
            return tr("Big Gin")
    return action.kind.value
