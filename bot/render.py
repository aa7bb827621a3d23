"""What a player or a spectator sees, as text, from engine state. All user-facing game text.

Every mode shares these screens: a seat's private hand, the public table, the showdown of
each hand (each board of a teams hand; each round of elimination) and the match's result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.gin import Card
from bot.gin.cards import format_cards
from bot.gin.hand import Action, ActionKind, Hand, HandResult, Outcome, Phase
from bot.gin.match import EndReason, HandRecord, Match, MatchResult
from bot.gin.melds import Arrangement, min_deadwood
from bot.gin.settings import OklahomaAce, Settings, Variant
from bot.server_settings import ServerSettings, duration

Face = Callable[[Card], str]
"""How a screen shows a card: its text (`10♥`, the default) or, on Discord, its emoji."""

LOG_LINES = 8
BOARD_LOG_LINES = 4  # per game, when two are played at once


@dataclass(frozen=True, slots=True)
class Panel:
    """A titled block of text; cogs show it as an embed."""

    title: str
    body: str
    footer: str = ""
    turn: bool | None = None  # a private hand: whether it is the player's turn (its colour)

    @property
    def text(self) -> str:
        return "\n".join(part for part in (self.title, self.body, self.footer) if part)


def cards(items: Sequence[int]) -> str:
    return format_cards(items) if items else "—"


def arrangement_text(arrangement: Arrangement, face: Face = str) -> str:
    """Melds then deadwood, separated by middle dots: `7♥ 8♥ 9♥ · K♠ K♦ K♣ · 2♣ 5♦`."""
    if face is str:
        parts = [format_cards(m) for m in arrangement.melds]
        if arrangement.deadwood:
            parts.append(format_cards(arrangement.deadwood))
    else:
        parts = [" ".join(face(c) for c in m) for m in arrangement.melds]
        if arrangement.deadwood:
            parts.append(" ".join(face(c) for c in arrangement.deadwood))
    return " · ".join(parts) if parts else "—"


def pile_text(card: Card | None, face: Face = str) -> str:
    return "empty" if card is None else face(card)


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def side_name(match: Match, side: int) -> str:
    """A player's name, or a team's: its two partners."""
    if match.mode_name == "teams":
        return " & ".join(p.name for s, p in enumerate(match.players) if match.side_of(s) == side)
    return match.players[side].name


def team_label(match: Match, side: int) -> str:
    return f"Team {side + 1} ({side_name(match, side)})"


def scores_line(match: Match) -> str:
    """The running totals as the mode keeps them."""
    mode = match.mode_name
    if mode == "elimination":
        out = [f"{match.players[s].name} {ordinal(i)}" for i, s in enumerate(match.out, 1)]
        still = [match.players[s].name for s in match.in_play]
        text = "In play: " + ", ".join(still)
        if out:
            text = "Out (safe): " + ", ".join(out) + " · " + text
        return text
    if mode == "teams":
        a, b = (f"{side_name(match, s)} {_points(match, s)}" for s in (0, 1))
        return f"{a} · {b} · to {match.settings.team_target}"
    if match.is_hollywood:
        return hollywood_line(match)
    totals = " · ".join(f"{p.name} {_points(match, s)}" for s, p in enumerate(match.players))
    return f"{totals} · to {match.settings.target}"


def hollywood_line(match: Match) -> str:
    """Hollywood's three games side by side, each ended one with its winner:
    `Alice–Bob: game 1 104–37 (Alice won) · game 2 40–12 · game 3 0–0 · to 100`."""
    names = [p.name for p in match.players]
    parts = []
    for game in match.games:
        score = f"game {game.number} {game.scores[0]}–{game.scores[1]}"
        if game.result is not None:
            score += f" ({names[game.result.winner]} won)"
        parts.append(score)
    return f"{names[0]}–{names[1]}: " + " · ".join(parts) + f" · to {match.settings.target}"


def variant_line(hand: Hand, face: Face = str) -> str | None:
    """Oklahoma: what this hand's first upcard made of it (its knock limit, spades double)."""
    knock_card = hand.knock_card
    if knock_card is None:
        return None
    upcard = face(knock_card.card)
    if knock_card.limit == 0:
        text = f"**Oklahoma:** the upcard was {upcard}: gin only this hand"
    else:
        text = f"**Oklahoma:** the upcard was {upcard}: knock at {knock_card.limit} or less"
    if knock_card.doubled:
        text += " · **spades double**: every score of this hand counts twice"
    return text + "."


def _points(match: Match, side: int) -> str:
    """A side's points toward the target and its boxes (hands won) so far: `22 (1 box)`."""
    boxes = match.hands_won[side]
    won = f" ({boxes} box{'es' if boxes != 1 else ''})" if boxes else ""
    return f"{match.scores[side]}{won}"


# --- the private hand ---------------------------------------------------------------------


def hand_panel(
    match: Match,
    seat: int,
    *,
    where: str = "",
    note: str = "",
    hint: bool = True,
    face: Face = str,
    ends: int | None = None,
) -> Panel:
    """A player's own hand, arranged, with deadwood, what they may do now and a discard hint."""
    hand = match.board_of(seat)
    footer = scores_line(match) + (f" · {where}" if where else "")
    if hand is None:
        return Panel(
            f"Gin Rummy · hand {match.hand_number}", match.mode.not_playing(match, seat), footer
        )
    if match.mode_name == "elimination":
        title = f"Your hand · round {match.hand_number} · {len(hand.seats)} players"
    else:
        other = match.players[match.opponent_of(seat)].name
        title = f"Your hand · vs {other} · hand {match.hand_number}"
    lines = []
    if note:
        lines.append(f"**{note}**")
    if match.mode_name == "teams":
        partner = match.partners(seat)[0]
        their = match.board_of(partner)
        against = (
            "" if their is None else f", playing {match.players[match.opponent_of(partner)].name}"
        )
        lines.append(f"Partner: {match.players[partner].name}{against}")
    acting = hand.turn == seat and not hand.is_over
    if acting:
        lines.extend(others_turns(match, hand, seat, face))
    my_cards = hand.hands.get(seat, [])
    arrangement = hand.arrangement(my_cards)
    lines.extend(hand_lines(arrangement, hand.last_drawn if acting else None, face))
    meter = _deadwood_line(hand, seat, arrangement)
    if meter:
        lines.append(meter)
    oklahoma = variant_line(hand, face)
    if oklahoma:
        lines.append(oklahoma)
    lines.extend(_pickups_line(match, hand, seat, face))
    pile = f"Discard pile: {pile_text(hand.upcard, face)}"
    if hand.turn == seat:  # while waiting, the stock count would only churn the message
        pile += f" · Stock: {len(hand.stock)}"
    if hand.turn == seat or len(hand.seats) == 2:  # many play: the pile moves on unseen
        lines.append(pile)
    if match.mode_name == "elimination" and hand.turn == seat:
        lines.append(_others_line(match, hand, seat))
    lines.append(_status_line(match, hand, seat, hint=hint))
    if acting and ends is not None:  # Discord shows it in the reader's own time, counting down
        lines.append(f"⏱️ Your turn ends <t:{ends}:R>.")
    return Panel(title, "\n".join(lines), footer, turn=acting)


NEW_CARD = "🆕"  # marks the card just drawn
OTHERS_SHOWN = 5  # players whose turns a hand message retells, at most


def hand_lines(arrangement: Arrangement, drawn: Card | None, face: Face = str) -> list[str]:
    """Melds one per line, then the deadwood with its count; the card just drawn marked."""

    def show(cards: Sequence[Card]) -> str:
        marked = False
        out = []
        for card in cards:
            if card == drawn and not marked:
                out.append(f"{NEW_CARD}{face(card)}")
                marked = True
            else:
                out.append(face(card))
        return " ".join(out)

    lines = [show(meld) for meld in arrangement.melds]
    if arrangement.deadwood:
        lines.append(f"**Deadwood ({arrangement.deadwood_value}):** {show(arrangement.deadwood)}")
    elif arrangement.melds:
        lines.append("**Deadwood:** none")
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
    sentences = [
        f"{match.players[who].name} " + ", then ".join(deeds) + "." for who, deeds in turns
    ]
    if len(sentences) > OTHERS_SHOWN:
        sentences = ["…", *sentences[-OTHERS_SHOWN:]]
    return sentences


def _deed(action: Action, face: Face) -> str:
    kind = action.kind
    if kind is ActionKind.PASS:
        return "passed on the upcard"
    if kind is ActionKind.DRAW_STOCK:
        return "drew from the stock"
    if kind is ActionKind.DRAW_DISCARD and action.card is not None:
        return f"took {face(action.card)} from the pile"
    if kind is ActionKind.DISCARD and action.card is not None:
        return f"discarded {face(action.card)}"
    if kind is ActionKind.LEAVE:
        return "left the round"
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
    return ["From the pile, still held: " + " · ".join(parts)] if parts else []


def _others_line(match: Match, hand: Hand, seat: int) -> str:
    """What a real table shows of the others: how many cards each holds."""
    counts = [f"{match.players[s].name} {len(hand.hands[s])}" for s in hand.seats if s != seat]
    return "Cards held: " + " · ".join(counts)


def _deadwood_line(hand: Hand, seat: int, arrangement: Arrangement) -> str | None:
    """The knock meter: how far the deadwood is from a knock (or gin, at a gin-only table)."""
    deadwood = arrangement.deadwood_value
    if len(hand.hands.get(seat, [])) == 11:
        return None  # mid-turn: the deadwood line above says it all until the discard
    if not hand.rules.knocking:
        if deadwood == 0:
            return "All ten meld! Draw, then discard a card to go gin."
        return "Gin only: you go out when all ten cards meld."
    limit = hand.knock_limit
    if deadwood == 0:
        return "Gin! Draw, then discard a card to go gin."
    if deadwood <= limit:
        return f"Knock meter: {deadwood} of {limit} — you can knock after your next draw."
    return f"Knock meter: {deadwood}, knock at {limit} or less."


def _status_line(match: Match, hand: Hand, seat: int, *, hint: bool) -> str:
    if hand.is_over:
        if match.mode_name == "teams" and not match.is_over:
            return "Your game of this hand is over: waiting for the other game to finish."
        return "This hand is over."
    if hand.turn != seat:
        if len(hand.seats) > 2:
            return "Waiting for your turn; the table in the channel shows the play."
        waiting = match.players[hand.turn].name
        if hand.phase is Phase.UPCARD:
            return f"Waiting for {waiting} to take or pass the upcard."
        return f"Waiting for {waiting} to play."
    upcard = hand.upcard
    if hand.phase is Phase.UPCARD:
        return f"**Your turn:** take the upcard {upcard} or pass."
    if hand.phase is Phase.DRAW:
        if hand.stock_only:
            return "**Your turn:** both passed on the upcard, so draw from the stock."
        if not hand.stock:
            return f"**Your turn:** the stock is empty: take {upcard} from the discard pile."
        return f"**Your turn:** draw from the stock or take {upcard} from the discard pile."
    text = "**Your turn:** discard a card"
    kinds = {a.kind for a in hand.legal_actions()}  # one pass: every knock check at once
    if ActionKind.BIG_GIN in kinds:
        text += ", or declare **Big Gin**: all 11 cards meld!"
    elif ActionKind.KNOCK in kinds:
        text += ", or go **gin**!" if not hand.rules.knocking else ", or knock"
    text += "."
    if hint:
        best = best_discard_hint(hand)
        if best is not None:
            card, left = best
            text += f"\nHint: discarding {card} leaves deadwood {left}."
    if hand.taken_from_discard is not None:
        text += f"\n(You can't discard {hand.taken_from_discard}, just taken from the pile.)"
    return text


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


# --- the public table -------------------------------------------------------------------


def describe_action(match: Match, action: Action, hand: Hand | None = None) -> str:
    """One public action as a sentence, showing only what a spectator saw."""
    name = match.players[action.seat].name
    kind = action.kind
    if kind is ActionKind.PASS:
        return f"{name} passed on the upcard."
    if kind is ActionKind.DRAW_STOCK:
        return f"{name} drew from the stock."
    if kind is ActionKind.DRAW_DISCARD:
        return f"{name} took {action.card} from the discard pile."
    if kind is ActionKind.DISCARD:
        return f"{name} discarded {action.card}."
    if kind is ActionKind.KNOCK:
        gin_only = hand is not None and not hand.rules.knocking
        return f"{name} went gin!" if gin_only else f"{name} knocked."
    if kind is ActionKind.LEAVE:
        return f"{name} left the match."
    return f"{name} declared Big Gin!"


def table_title(match: Match) -> str:
    n = match.hand_number
    mode = match.mode_name
    if mode == "elimination":
        return f"Gin Rummy · elimination · round {n}"
    if mode == "three":
        return f"Gin Rummy · three players · hand {n}"
    if mode == "teams":
        return f"Gin Rummy · {side_name(match, 0)} vs {side_name(match, 1)} · hand {n}"
    a, b = match.players[0].name, match.players[1].name
    return f"Gin Rummy · {a} vs {b} · hand {n}"


def _doing(hand: Hand) -> str:
    return {
        Phase.UPCARD: "take or pass the upcard",
        Phase.DRAW: "draw",
        Phase.DISCARD: "discard" if hand.rules.knocking else "discard or go gin",
        Phase.OVER: "",
    }[hand.phase]


def _log(match: Match, hand: Hand, lines: int) -> str:
    events = [describe_action(match, a, hand) for a in hand.public_actions()]
    if not events:
        return ""
    shown = events[-lines:]
    more = len(events) - len(shown)
    text = "\n".join(f"• {e}" for e in shown)
    return f"… {more} earlier\n" + text if more else text


def table_panel(match: Match, face: Face = str) -> Panel:
    """The public table: only what anyone at a real table could see."""
    footer = "Your cards come by DM · /gin hand shows them again"
    lines = [f"**Score:** {scores_line(match)}"]
    if match.mode_name == "teams":
        lines.append(f"**Hand {match.hand_number}** · {side_name(match, match.dealing_side)} deal")
        for index, hand in enumerate(match.boards):
            lines.append(_board_line(match, hand, f"Game {index + 1}", face))
            log = _log(match, hand, BOARD_LOG_LINES)
            if log:
                lines.append(log)
        return Panel(table_title(match), "\n".join(lines), footer)
    hand = match.hand
    dealer = match.players[hand.dealer].name
    if match.mode_name == "elimination":
        lines.append(f"**Round {match.hand_number}** · {dealer} dealt")
        lines.append(_elimination_seats(match, hand))
    elif match.mode_name == "three":
        lines.append(f"**Hand {match.hand_number}** · {dealer} dealt and sits out")
    else:
        lines.append(f"**Hand {match.hand_number}** · {dealer} dealt")
    if match.is_over:
        lines.append("The match is over.")
    elif hand.is_over:
        lines.append("This hand is over: see the showdown below.")
    else:
        who = match.players[hand.turn].name
        lines.append(f"**Turn:** {who} — {_doing(hand)}")
    lines.append(
        f"**Stock:** {len(hand.stock)} cards · **Discard pile:** {pile_text(hand.upcard, face)}"
        + (f" · {hand.rules.decks} decks" if hand.rules.decks > 1 else "")
    )
    oklahoma = variant_line(hand, face)
    if oklahoma:
        lines.append(oklahoma)
    log = _log(match, hand, LOG_LINES)
    if log:
        lines.append(log)
    return Panel(table_title(match), "\n".join(lines), footer)


def _board_line(match: Match, hand: Hand, label: str, face: Face = str) -> str:
    a, b = (match.players[s].name for s in hand.seats)
    if hand.is_over:
        state = "over, waiting for the other game"
    else:
        state = f"{match.players[hand.turn].name} to {_doing(hand)}"
    return (
        f"**{label}:** {a} vs {b} — {state} · stock {len(hand.stock)} · discard pile "
        f"{pile_text(hand.upcard, face)}"
    )


def _elimination_seats(match: Match, hand: Hand) -> str:
    """Every seat of an elimination table: cards held, whose turn, who is out and where."""
    parts = []
    for seat, player in enumerate(match.players):
        if seat in match.out:
            parts.append(f"~~{player.name}~~ out {ordinal(match.out.index(seat) + 1)}")
        elif seat in match.dropped:
            parts.append(f"~~{player.name}~~ left")
        elif seat in hand.hands:
            text = f"{player.name} ({len(hand.hands[seat])})"
            parts.append(f"**{text}**" if seat == hand.turn and not hand.is_over else text)
    return " · ".join(parts)


# --- the showdown and the end of the match ------------------------------------------------


def showdown_panel(
    match: Match, number: int, result: HandResult, board: int = 0, face: Face = str
) -> Panel:
    """Both hands, the lay-offs, the deadwood and the score, with its reason; in elimination
    the player who went out, with their melds; for teams, which game, and once both games
    are done the team's score for the hand. ``face`` draws the cards (emojis, or text
    beside a picture that shows them)."""
    names = [p.name for p in match.players]
    if match.mode_name == "elimination":
        return _gin_out_panel(match, number, result, face)
    label = f"Hand {number}" + (f", game {board + 1}" if match.mode_name == "teams" else "")
    title = f"{label}: " + _headline(names, result)
    footer = scores_line(match)
    team = team_hand_line(match, number) if match.mode_name == "teams" else ""
    if result.outcome is Outcome.VOID:
        body = "Nobody scores" + ("; the same dealer deals again." if not team else ".")
        return Panel(title, "\n".join(x for x in (body, team) if x), footer)
    assert result.knocker is not None and result.defender is not None
    knocker, defender = names[result.knocker], names[result.defender]
    lines = []
    if result.knocker_arrangement is not None:
        lines.append(
            f"**{knocker}:** {arrangement_text(result.knocker_arrangement, face)} — deadwood "
            f"{result.knocker_deadwood}"
        )
    if result.defender_arrangement is not None:
        own = arrangement_text(result.defender_arrangement, face)
        lines.append(f"**{defender}:** {own} — deadwood {result.defender_deadwood}")
    if result.layoffs and result.knocker_arrangement is not None:
        melds = result.knocker_arrangement.melds
        laid = ", ".join(
            f"{face(card)} on {' '.join(face(c) for c in melds[i])}" for card, i in result.layoffs
        )
        lines.append(f"{defender} laid off {laid}.")
    elif result.outcome in (Outcome.GIN, Outcome.BIG_GIN):
        lines.append("No lay-offs against gin.")
    if result.knock_discard is not None:
        lines.append(f"{knocker} discarded {result.knock_discard} face down.")
    lines.append(_score_reason(names, result, match.settings))
    if team:
        lines.append(team)
    if match.is_hollywood:
        lines.extend(_hollywood_hand_lines(match, number, result))
    return Panel(title, "\n".join(lines), footer)


def _hollywood_hand_lines(match: Match, number: int, result: HandResult) -> list[str]:
    """Where a Hollywood hand's points went ("+18 in games 1 and 2"), and the games it
    ended, each with its final score."""
    if result.winner is None:
        return []
    record = next((r for r in match.history if r.number == number), None)
    names = [p.name for p in match.players]
    lines = []
    if record is not None and record.games:
        lines.append(f"{names[result.winner]} +{result.points} in {_games_text(record.games)}.")
    for game in match.games:
        ended = game.result
        if ended is None or ended.hand_number != number:
            continue
        lines.append(
            f"**Game {ended.number} is over:** {names[ended.winner]} wins it, "
            f"{ended.final[ended.winner]} to {ended.final[ended.loser]}"
            + (" (a shutout)." if ended.shutout else ".")
        )
    return lines


def _games_text(games: Sequence[int]) -> str:
    numbers = [str(g) for g in games]
    if len(numbers) == 1:
        return f"game {numbers[0]}"
    return "games " + ", ".join(numbers[:-1]) + f" and {numbers[-1]}"


def _gin_out_panel(match: Match, number: int, result: HandResult, face: Face = str) -> Panel:
    assert result.winner is not None
    name = match.players[result.winner].name
    place = match.out.index(result.winner) + 1 if result.winner in match.out else 1
    lines = []
    if result.knocker_arrangement is not None:
        lines.append(f"**{name}:** {arrangement_text(result.knocker_arrangement, face)}")
    if result.knock_discard is not None:
        lines.append(f"{name} discarded {result.knock_discard} face down.")
    left = len(match.in_play)
    if match.is_over:
        lines.append("One player is left: the match is over.")
    else:
        lines.append(f"{left} players play on: the next round is dealt.")
    title = f"Round {number}: {name} goes gin and is out in {ordinal(place)} place"
    return Panel(title, "\n".join(lines), scores_line(match))


def team_hand_line(match: Match, number: int) -> str:
    """The team's score for hand ``number`` once both its games are recorded: the scoring
    team's partners and their results, then what the team scores (RULES.md 10.2's
    "Ann +16, Cal −10: team 1 scores 6")."""
    records = [h for h in match.history if h.number == number]
    if len(records) < 2:
        return ""
    result_of: dict[int, int] = {}  # seat -> points won (negative: lost), per game
    net = [0, 0]
    for record in records:
        result = record.result
        if result.winner is None:
            continue
        loser = result.loser
        assert loser is not None
        net[match.side_of(result.winner)] += result.points
        result_of[result.winner] = result.points
        result_of[loser] = -result.points
    if net[0] == net[1]:
        return "The two games cancel out: nobody scores this hand."
    winner = 0 if net[0] > net[1] else 1
    partners = [s for s in range(len(match.players)) if match.side_of(s) == winner]
    parts = []
    for seat in partners:
        points = result_of.get(seat)
        shown = "void" if points is None else f"{'+' if points > 0 else '−'}{abs(points)}"
        parts.append(f"{match.players[seat].name} {shown}")
    points = abs(net[0] - net[1])
    return ", ".join(parts) + f": **{team_label(match, winner)} scores {points}**."


def _headline(names: list[str], result: HandResult) -> str:
    if result.outcome is Outcome.VOID:
        return "void hand — the stock ran out"
    assert result.knocker is not None
    knocker = names[result.knocker]
    return {
        Outcome.KNOCK: f"{knocker} knocks and wins",
        Outcome.UNDERCUT: f"{knocker} knocks and is undercut",
        Outcome.GIN: f"{knocker} goes gin",
        Outcome.BIG_GIN: f"{knocker} goes Big Gin",
        Outcome.VOID: "",
    }[result.outcome]


def _score_reason(names: list[str], result: HandResult, settings: Settings) -> str:
    reason = _plain_reason(names, result, settings)
    if result.multiplier > 1:  # Oklahoma's spade upcard
        reason = reason[:-2] + ", doubled by the spade upcard)."
    return reason


def _plain_reason(names: list[str], result: HandResult, settings: Settings) -> str:
    assert result.winner is not None
    winner = names[result.winner]
    k, d = result.knocker_deadwood, result.defender_deadwood
    if result.outcome is Outcome.KNOCK:
        return f"**{winner} scores {result.points}** (knock: {d} − {k})."
    if result.outcome is Outcome.UNDERCUT:
        return (
            f"**{winner} scores {result.points}** (undercut: {k} − {d} + "
            f"{settings.undercut_bonus} bonus)."
        )
    bonus_name = "gin" if result.outcome is Outcome.GIN else "Big Gin"
    bonus = settings.gin_bonus if result.outcome is Outcome.GIN else settings.big_gin_bonus
    return f"**{winner} scores {result.points}** ({bonus_name}: {d} + {bonus} bonus)."


OVER_FOOTER = "Play again any time: /gin challenge, /gin open or /gin practice."


def match_over_panel(match: Match, result: MatchResult) -> Panel:
    """Every player's place and final score with its breakdown, and the winner."""
    if match.mode_name == "classic":
        return _classic_over(match, result)
    names = [p.name for p in match.players]
    lines = []
    if result.reason in (EndReason.RESIGN, EndReason.FORFEIT) and result.loser is not None:
        why = "resigned" if result.reason is EndReason.RESIGN else "ran out of time"
        lines.append(f"{names[result.loser]} {why}.")
    if match.mode_name == "elimination":
        for seat in sorted(range(len(names)), key=lambda s: result.placings[s]):
            place = result.placings[seat]
            if seat in match.out:
                how = "went out" + (" first" if place == 1 else "")
            elif seat in match.dropped:
                how = "left the match"
            else:
                how = "last one left"
            lines.append(f"{ordinal(place)}. **{names[seat]}** — {how}")
        lines.append(f"🏆 **{names[result.winner]} wins the match.**")
        return Panel("Match over", "\n".join(lines), OVER_FOOTER)
    sides = sorted(range(len(result.final)), key=lambda side: place_of_side(match, result, side))
    for side in sides:
        place = place_of_side(match, result, side)
        label = team_label(match, side) if match.mode_name == "teams" else names[side]
        lines.append(
            f"{ordinal(place)}. **{label}: {result.final[side]}** = "
            + _breakdown(match, result, side)
        )
    winner = (
        team_label(match, match.side_of(result.winner))
        if match.mode_name == "teams"
        else names[result.winner]
    )
    lines.append(f"🏆 **{winner} wins the match**" + (" — a shutout!" if result.shutout else "."))
    return Panel("Match over", "\n".join(lines), OVER_FOOTER)


def place_of_side(match: Match, result: MatchResult, side: int) -> int:
    seat = next(s for s in range(len(match.players)) if match.side_of(s) == side)
    return result.placings[seat]


def _breakdown(match: Match, result: MatchResult, side: int) -> str:
    parts = [f"{result.points[side]} hand points"]
    if result.game_bonus[side]:
        kind = "game bonus, doubled for a shutout" if result.shutout else "game bonus"
        parts.append(f"{result.game_bonus[side]} {kind}")
    boxes = match.hands_won[side]
    if result.box_bonus[side] or boxes:
        parts.append(f"{result.box_bonus[side]} for {boxes} hand{'s' if boxes != 1 else ''} won")
    return " + ".join(parts)


def _classic_over(match: Match, result: MatchResult) -> Panel:
    names = [p.name for p in match.players]
    winner = names[result.winner]
    if result.games and result.reason not in (EndReason.RESIGN, EndReason.FORFEIT):
        return _hollywood_over(match, result)
    if result.reason is EndReason.RESIGN:
        assert result.loser is not None
        body = f"{names[result.loser]} resigned. **{winner} wins the match.**"
        return Panel("Match over", body, "Challenge again any time with /gin challenge.")
    if result.reason is EndReason.FORFEIT:
        assert result.loser is not None
        body = f"{names[result.loser]} ran out of time. **{winner} wins the match.**"
        return Panel("Match over", body, "Challenge again any time with /gin challenge.")
    lines = []
    for seat, name in enumerate(names):
        parts = [f"{result.points[seat]} hand points"]
        if result.game_bonus[seat]:
            kind = "game bonus, doubled for a shutout" if result.shutout else "game bonus"
            parts.append(f"{result.game_bonus[seat]} {kind}")
        boxes = match.hands_won[seat]
        if not boxes and not result.final[seat]:
            lines.append(f"**{name}: 0** (no hand won)")
            continue
        parts.append(f"{result.box_bonus[seat]} for {boxes} hand{'s' if boxes != 1 else ''} won")
        lines.append(f"**{name}: {result.final[seat]}** = " + " + ".join(parts))
    lines.append(
        f"🏆 **{winner} wins the match**, {result.final[result.winner]} to "
        f"{result.final[1 - result.winner]}" + (" — a shutout!" if result.shutout else ".")
    )
    return Panel("Match over", "\n".join(lines), "Challenge again any time with /gin challenge.")


def _hollywood_over(match: Match, result: MatchResult) -> Panel:
    """Each game's final scores with their breakdown and winner, then the match's."""
    names = [p.name for p in match.players]
    lines = []
    won = [0, 0]
    for game in result.games:
        won[game.winner] += 1
        parts = []
        for seat, name in enumerate(names):
            bits = [f"{game.points[seat]}"]
            if game.game_bonus[seat]:
                kind = "game, doubled for a shutout" if game.shutout else "game"
                bits.append(f"{game.game_bonus[seat]} {kind}")
            if game.box_bonus[seat]:
                bits.append(f"{game.box_bonus[seat]} boxes")
            breakdown = " + ".join(bits)
            parts.append(
                f"{name} {game.final[seat]}" + (f" ({breakdown})" if len(bits) > 1 else "")
            )
        lines.append(
            f"**Game {game.number}:** " + " · ".join(parts) + f" — **{names[game.winner]}** wins it"
        )
    winner = result.winner
    margin = result.margin
    lines.append(
        f"🏆 **{names[winner]} wins the match**, {won[winner]} games to {won[1 - winner]}"
        + (
            f" (final scores {result.final[winner]} to {result.final[1 - winner]}"
            + (f", margin {margin:+d})." if margin is not None else ").")
        )
    )
    return Panel(
        "Match over · Hollywood", "\n".join(lines), "Challenge again any time with /gin challenge."
    )


def last_records(match: Match) -> list[HandRecord]:
    """The finished boards of the last hand played, in board order."""
    if not match.history:
        return []
    last = match.history[-1].number
    return sorted((h for h in match.history if h.number == last), key=lambda h: h.board)


def rules_panel(settings: Settings) -> Panel:
    s = settings
    big_gin = f"on, bonus {s.big_gin_bonus}" if s.big_gin else "off"
    knock = f"{s.knock_limit} or less" if s.knock_limit else "0 (this table plays gin only)"
    body = "\n".join(
        [
            "Each player gets 10 cards. On your turn draw one (stock or discard pile), then "
            "discard one. Make **melds**: sets of 3–4 of a rank, or runs of 3+ in one suit "
            "(aces low). Unmatched cards are **deadwood** (A=1, faces=10).",
            f"**Knock** when your deadwood is {knock}: your opponent lays off cards on your "
            "melds; lower deadwood scores the difference. If the defender ties or beats you "
            f"it's an **undercut** (+{s.undercut_bonus}).",
            f"**Gin** (no deadwood): +{s.gin_bonus} and no lay-offs. **Big Gin** (all 11 "
            f"cards meld): {big_gin}.",
            f"The hand is void if the stock runs down to {s.void_stock} without a knock.",
            f"First to **{s.target}** wins; game bonus {s.game_bonus} (doubled for a "
            f"shutout), {s.box_bonus} per hand won.",
            *variant_rules(s),
        ]
    )
    return Panel("Gin Rummy rules at this table", body, "Commands: /gin hand, /gin draw, …")


# --- challenges, lobbies and server settings -------------------------------------------------

MODE_LABELS = {
    "classic": "two players",
    "three": "three players",
    "teams": "two teams of two",
    "elimination": "elimination",
}


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """One seat of a lobby as the lobby message shows it."""

    name: str
    team: int | None = None
    bot_level: str | None = None
    host: bool = False


def lobby_panel(
    mode: str,
    size: int,
    seats: Sequence[LobbySeat],
    server: ServerSettings,
    *,
    mention: str = "",
    state: str = "open",
) -> Panel:
    """The public lobby: the seats taken and free, and how to join, leave and start."""
    rules = server.rules
    target = rules.team_target if mode == "teams" else rules.target
    goal = "until one player is left" if mode == "elimination" else f"to {target}"
    lines = [f"{mention or 'A table'} is open for **{MODE_LABELS[mode]}**, {goal}."]
    for index in range(size):
        if index < len(seats):
            seat = seats[index]
            text = seat.name
            if seat.bot_level:
                text += f" (bot, {seat.bot_level})"
            if seat.team is not None:
                text += f" · team {seat.team + 1}"
            if seat.host:
                text += " · host"
            lines.append(f"{index + 1}. {text}")
        else:
            lines.append(f"{index + 1}. *free*")
    if state == "open":
        if mode == "elimination":
            how = "The host presses **Start** (at least 2 players); a full table starts by itself."
        else:
            how = "The match starts by itself when every seat is taken."
        lines.append(
            f"Press **Join** (or `/gin join`) to take a seat, **Leave** to give it up. {how} "
            f"The table closes if it isn't started within {duration(server.challenge_seconds)}."
        )
        if mode == "teams":
            lines.append("Pick a side with **Join team 1/2**, or leave the sides to the cut.")
    title = {
        "open": "Gin Rummy table",
        "started": "Gin Rummy table · started",
        "closed": "Gin Rummy table · closed",
    }[state]
    return Panel(title, "\n".join(lines))


# --- challenges and server settings ---------------------------------------------------------


def rules_summary(rules: Settings) -> list[tuple[str, str]]:
    """Every rule setting as (label, value), in the order players care about."""
    big_gin = f"on, bonus {rules.big_gin_bonus}" if rules.big_gin else "off"
    knock = str(rules.knock_limit) if rules.knock_limit else "0 (gin only)"
    return [
        ("Two-player variant", variant_text(rules)),
        ("Target", str(rules.target)),
        ("Gin bonus", str(rules.gin_bonus)),
        ("Undercut bonus", str(rules.undercut_bonus)),
        ("Big Gin", big_gin),
        ("Knock limit", knock),
        ("Hand void with stock left", str(rules.void_stock)),
        (
            "Next dealer",
            f"the {rules.next_dealer.value} of the hand"
            if rules.next_dealer.value != "alternate"
            else "alternate",
        ),
        ("Game bonus / box bonus", f"{rules.game_bonus} / {rules.box_bonus}"),
        (
            "Three players: next to deal and sit out",
            "the loser" if rules.sit_out == "loser" else "the next player (rotate)",
        ),
        (
            "Teams: target / switch opponents",
            f"{rules.team_target} / {'on' if rules.rotate_opponents else 'off'}",
        ),
        (
            "Elimination: sets of identical cards",
            "allowed" if rules.set_suits == "any" else "no, suits must differ",
        ),
    ]


def variant_rules(s: Settings) -> list[str]:
    """The two-player variant's rules, as the rules panel tells them (none for classic)."""
    if s.variant is Variant.OKLAHOMA:
        ace = "gin only" if s.ace is OklahomaAce.GIN else "a knock with 1 or less"
        spades = (
            " A spade upcard doubles every score of its hand (the box bonuses count once)."
            if s.spades_double
            else ""
        )
        return [
            "**Oklahoma:** the first upcard of each hand sets that hand's knock limit (its "
            f"value, face cards 10); an ace upcard means {ace}.{spades}"
        ]
    if s.variant is Variant.HOLLYWOOD:
        return [
            "**Hollywood:** three games are scored at once. Your first hand won scores in "
            "game 1, your second in games 1 and 2, the later ones in all three (only games "
            f"still open). Each game ends at {s.target} with its own bonuses; win two of the "
            "three to win the match."
        ]
    return []


def variant_text(s: Settings) -> str:
    """The variant as a few words: `classic`, `Oklahoma (ace: gin only, spades double)`."""
    if s.variant is Variant.OKLAHOMA:
        ace = "ace: gin only" if s.ace is OklahomaAce.GIN else "ace: knock at 1"
        return f"Oklahoma ({ace}{', spades double' if s.spades_double else ''})"
    if s.variant is Variant.HOLLYWOOD:
        return "Hollywood (three games at once)"
    return "classic"


def challenge_panel(
    challenger: str, opponent: str, server: ServerSettings, changed: set[str] | None = None
) -> Panel:
    """The public challenge, with the settings the opponent is accepting."""
    rules = server.rules
    game = "Gin Rummy" if rules.variant is Variant.CLASSIC else variant_text(rules) + " Gin Rummy"
    lines = [
        f"{challenger} challenges {opponent} to a game of {game} to {rules.target} points.",
        f"Gin bonus {rules.gin_bonus} · undercut bonus {rules.undercut_bonus} · Big Gin "
        + (f"on ({rules.big_gin_bonus})" if rules.big_gin else "off")
        + (
            " · the upcard sets the knock limit"
            if rules.variant is Variant.OKLAHOMA
            else f" · knock at {rules.knock_limit} or less"
        )
        + f" · {duration(server.turn_seconds)} per turn",
    ]
    if changed:
        lines.append(
            "*Changed for this match:* " + ", ".join(sorted(n.replace("_", " ") for n in changed))
        )
    lines.append(
        f"{opponent}, press **Accept** or **Decline** (or use `/gin accept` / `/gin decline`). "
        f"The challenge expires in {duration(server.challenge_seconds)}."
    )
    return Panel("Gin Rummy challenge", "\n".join(lines))


def settings_panel(server: ServerSettings) -> Panel:
    rows = [
        *rules_summary(server.rules),
        ("Turn timer", duration(server.turn_seconds)),
        ("Challenge expiry", duration(server.challenge_seconds)),
        ("Discard hint in private hands", "on" if server.hints else "off"),
        ("Matches before being ranked", str(server.provisional_matches)),
        ("Showdown pictures", "on" if server.images else "off"),
    ]
    body = "\n".join(f"**{label}:** {value}" for label, value in rows)
    return Panel(
        "Gin Rummy settings for this server",
        body,
        "Members with Manage Server can change them with /gin settings set. "
        "Matches already started keep their settings.",
    )
