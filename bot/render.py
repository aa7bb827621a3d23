"""What a player or a spectator sees, as text, from engine state. All user-facing game text.

Every mode shares these screens: a seat's private hand, the public table, the showdown of
each hand (each board of a teams hand; each round of elimination) and the match's result.
Every sentence is made in the language in force (``bot.i18n``); card names stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.gin import Card
from bot.gin.cards import format_cards
from bot.gin.hand import Action, ActionKind, Hand, HandResult, Outcome, Phase
from bot.gin.match import EndReason, HandRecord, Match, MatchResult
from bot.gin.melds import Arrangement, min_deadwood
from bot.gin.modes import find_mode
from bot.gin.settings import OklahomaAce, Settings, Variant
from bot.i18n import LANGUAGES, N_, number, tr, tr_n, translate
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
    # TRANSLATORS: the discard pile when it holds no card.
    return tr("empty") if card is None else face(card)


def on_off(flag: bool) -> str:
    """A setting switched on or off, as a settings line shows it."""
    # TRANSLATORS: a setting's value, switched on.
    on = tr("on")
    # TRANSLATORS: a setting's value, switched off.
    return on if flag else tr("off")


def ordinal(place: int) -> str:
    """A place as a short ordinal: `1st`, `2nd`, `11th`, `23rd`."""
    if place == 1:
        # TRANSLATORS: first place, as a short ordinal (French "1er", German "1.").
        return tr("1st")
    last = 0 if 10 <= place % 100 <= 20 else place % 10
    if last == 1:
        # TRANSLATORS: a place as a short ordinal, for 21st, 31st… (1st is its own sentence).
        return tr("{place}st", place=place)
    if last == 2:
        # TRANSLATORS: a place as a short ordinal, for 2nd, 22nd, 32nd…
        return tr("{place}nd", place=place)
    if last == 3:
        # TRANSLATORS: a place as a short ordinal, for 3rd, 23rd, 33rd…
        return tr("{place}rd", place=place)
    # TRANSLATORS: a place as a short ordinal, for 4th… 20th, 24th… (German "{place}.").
    return tr("{place}th", place=place)


def side_name(match: Match, side: int) -> str:
    """A player's name, or a team's: its two partners."""
    if match.mode.team_play:
        names = [p.name for s, p in enumerate(match.players) if match.side_of(s) == side]
        if len(names) == 2:
            # TRANSLATORS: a team named by its two partners, "Ann & Cal".
            return tr("{first} & {second}", first=names[0], second=names[1])
        return " & ".join(names)
    return match.players[side].name


def team_label(match: Match, side: int) -> str:
    return tr("Team {number} ({names})", number=side + 1, names=side_name(match, side))


def scores_line(match: Match) -> str:
    """The running totals as the mode keeps them."""
    mode = match.mode
    if not mode.has_target:
        out = [f"{match.players[s].name} {ordinal(i)}" for i, s in enumerate(match.out, 1)]
        still = ", ".join(match.players[s].name for s in match.in_play)
        if out:
            # TRANSLATORS: elimination's standings: who went out (and is safe), with their
            # places, then who still plays.
            return tr("Out (safe): {out} · In play: {players}", out=", ".join(out), players=still)
        return tr("In play: {players}", players=still)
    if mode.team_play:
        scores = " · ".join(f"{side_name(match, s)} {_points(match, s)}" for s in (0, 1))
        return _to_target(scores, mode.target(match.settings))
    if match.is_hollywood:
        return hollywood_line(match)
    totals = " · ".join(f"{p.name} {_points(match, s)}" for s, p in enumerate(match.players))
    return _to_target(totals, mode.target(match.settings))


def _to_target(scores: str, target: int) -> str:
    # TRANSLATORS: the running scores ("Alice 22 · Bob 40"), then the points they play to.
    return tr("{scores} · to {target}", scores=scores, target=target)


def hollywood_line(match: Match) -> str:
    """Hollywood's three games side by side, each ended one with its winner:
    `Alice–Bob: game 1 104–37 (Alice won) · game 2 40–12 · game 3 0–0 · to 100`."""
    names = [p.name for p in match.players]
    parts = []
    for game in match.games:
        first, second = game.scores[0], game.scores[1]
        if game.result is None:
            # TRANSLATORS: a Hollywood game's running score, "game 2 40–12".
            score = tr(
                "game {number} {first}–{second}", number=game.number, first=first, second=second
            )
        else:
            winner = names[game.result.winner]
            # TRANSLATORS: a Hollywood game that is over, its score and who won it.
            score = tr(
                "game {number} {first}–{second} ({winner} won)",
                number=game.number,
                first=first,
                second=second,
                winner=winner,
            )
        parts.append(score)
    games = " · ".join(parts)
    # TRANSLATORS: the two players, their three Hollywood games, then the points each game
    # plays to.
    return tr(
        "{first}–{second}: {games} · to {target}",
        first=names[0],
        second=names[1],
        games=games,
        target=match.settings.target,
    )


def variant_line(hand: Hand, face: Face = str) -> str | None:
    """Oklahoma: what this hand's first upcard made of it (its knock limit, spades double)."""
    knock_card = hand.knock_card
    if knock_card is None:
        return None
    upcard = face(knock_card.card)
    if knock_card.limit == 0:
        if knock_card.doubled:
            return tr(
                "**Oklahoma:** the upcard was {upcard}: gin only this hand · **spades double**: "
                "every score of this hand counts twice.",
                upcard=upcard,
            )
        return tr("**Oklahoma:** the upcard was {upcard}: gin only this hand.", upcard=upcard)
    if knock_card.doubled:
        return tr(
            "**Oklahoma:** the upcard was {upcard}: knock at {limit} or less · **spades "
            "double**: every score of this hand counts twice.",
            upcard=upcard,
            limit=knock_card.limit,
        )
    return tr(
        "**Oklahoma:** the upcard was {upcard}: knock at {limit} or less.",
        upcard=upcard,
        limit=knock_card.limit,
    )


def _points(match: Match, side: int) -> str:
    """A side's points toward the target and its boxes (hands won) so far: `22 (1 box)`."""
    boxes = match.hands_won[side]
    if not boxes:
        return str(match.scores[side])
    # TRANSLATORS: points toward the target, then the hands won so far ("boxes").
    return tr_n("{points} ({n} box)", "{points} ({n} boxes)", boxes, points=match.scores[side])


# --- the private hand ---------------------------------------------------------------------


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
    meter = _deadwood_line(hand, seat, arrangement)
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
    lines.append(_status_line(match, hand, seat, hint=hint))
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


def elsewhere_panel(match: Match, seat: int, *, where: str) -> Panel:
    """A DM hand while its player plays from the channel: where their hand is now (their
    latest private reply there), and how to play here again. No cards, no turn: the reply
    is the one live hand."""
    hand = match.board_of(seat)
    footer = scores_line(match) + (f" · {where}" if where else "")
    title = (
        tr("Gin Rummy · hand {number}", number=match.hand_number)
        if hand is None
        else _hand_title(match, seat, hand)
    )
    body = tr(
        "You're playing this hand in {where}: your cards and your turn are on your latest "
        "private reply there. Press **Play here** to play it in this DM instead.",
        where=where,
    )
    return Panel(title, body, footer)


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


def _deadwood_line(hand: Hand, seat: int, arrangement: Arrangement) -> str | None:
    """The knock meter: how far the deadwood is from a knock (or gin, at a gin-only table)."""
    deadwood = arrangement.deadwood_value
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


def _status_line(match: Match, hand: Hand, seat: int, *, hint: bool) -> str:
    if match.is_over:  # ended mid-hand: a resignation, a forfeit (the result comes apart)
        return tr("This match is over.")
    if hand.is_over:
        if match.mode.team_play and not match.is_over:
            return tr("Your game of this hand is over: waiting for the other game to finish.")
        return tr("This hand is over.")
    if hand.turn != seat:
        if len(hand.seats) > 2:
            return tr("Waiting for your turn; the table in the channel shows the play.")
        waiting = match.players[hand.turn].name
        if hand.phase is Phase.UPCARD:
            return tr("Waiting for {name} to take or pass the upcard.", name=waiting)
        return tr("Waiting for {name} to play.", name=waiting)
    upcard = hand.upcard
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
        lines = [tr("**Your turn:** discard a card, or declare **Big Gin**: all 11 cards meld!.")]
    elif ActionKind.KNOCK in kinds and not hand.rules.knocking:
        lines = [tr("**Your turn:** discard a card, or go **gin**!.")]
    elif ActionKind.KNOCK in kinds:
        lines = [tr("**Your turn:** discard a card, or knock.")]
    else:
        lines = [tr("**Your turn:** discard a card.")]
    if hint:
        best = best_discard_hint(hand)
        if best is not None:
            card, left = best
            lines.append(
                tr("Hint: discarding {card} leaves deadwood {left}.", card=card, left=left)
            )
    if hand.taken_from_discard is not None:
        lines.append(
            tr(
                "(You can't discard {card}, just taken from the pile.)",
                card=hand.taken_from_discard,
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


# --- the public table -------------------------------------------------------------------


def describe_action(match: Match, action: Action, hand: Hand | None = None) -> str:
    """One public action as a sentence, showing only what a spectator saw."""
    name = match.players[action.seat].name
    kind = action.kind
    if kind is ActionKind.PASS:
        return tr("{name} passed on the upcard.", name=name)
    if kind is ActionKind.DRAW_STOCK:
        return tr("{name} drew from the stock.", name=name)
    if kind is ActionKind.DRAW_DISCARD:
        return tr("{name} took {card} from the discard pile.", name=name, card=action.card)
    if kind is ActionKind.DISCARD:
        return tr("{name} discarded {card}.", name=name, card=action.card)
    if kind is ActionKind.KNOCK:
        if hand is not None and not hand.rules.knocking:
            return tr("{name} went gin!", name=name)
        return tr("{name} knocked.", name=name)
    if kind is ActionKind.LEAVE:
        return tr("{name} left the match.", name=name)
    return tr("{name} declared Big Gin!", name=name)


def table_title(match: Match) -> str:
    n = match.hand_number
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


def _to_do(name: str, hand: Hand) -> str:
    """What the player to act is to do, as a teams game's line shows it: "Bob to draw"."""
    if hand.phase is Phase.UPCARD:
        return tr("{name} to take or pass the upcard", name=name)
    if hand.phase is Phase.DRAW:
        return tr("{name} to draw", name=name)
    if hand.rules.knocking:
        return tr("{name} to discard", name=name)
    return tr("{name} to discard or go gin", name=name)


def _log(match: Match, hand: Hand, lines: int) -> str:
    events = [describe_action(match, a, hand) for a in hand.public_actions()]
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
    lines = [tr("**Score:** {scores}", scores=scores_line(match))]
    mode = match.mode
    if mode.team_play:
        dealers = side_name(match, match.dealing_side)
        # TRANSLATORS: the hand's number, then the team that deals it ("Ann & Cal deal").
        lines.append(tr("**Hand {number}** · {team} deal", number=match.hand_number, team=dealers))
        for index, hand in enumerate(match.boards):
            lines.append(_board_line(match, hand, index + 1, face))
            log = _log(match, hand, BOARD_LOG_LINES)
            if log:
                lines.append(log)
        return Panel(table_title(match), "\n".join(lines), footer)
    hand = match.hand
    dealer = match.players[hand.dealer].name
    n = match.hand_number
    if mode.plays_rounds:
        lines.append(tr("**Round {number}** · {dealer} dealt", number=n, dealer=dealer))
        lines.append(_elimination_seats(match, hand))
    elif mode.dealer_sits_out:
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
    log = _log(match, hand, LOG_LINES)
    if log:
        lines.append(log)
    return Panel(table_title(match), "\n".join(lines), footer)


def _board_line(match: Match, hand: Hand, game: int, face: Face = str) -> str:
    """One game of a teams hand: its two players, whose turn, the stock and the pile."""
    a, b = (match.players[s].name for s in hand.seats)
    if hand.is_over:
        state = tr("over, waiting for the other game")
    else:
        state = _to_do(match.players[hand.turn].name, hand)
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
            # TRANSLATORS: a player who left an elimination match.
            parts.append(tr("~~{name}~~ left", name=player.name))
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
    mode = match.mode
    if not mode.knocking:  # a gin took its player out: there is no showdown
        return _gin_out_panel(match, number, result, face)
    headline = _headline(names, result)
    if mode.team_play:
        # TRANSLATORS: a showdown's title: the hand, which of its two games, what happened.
        title = tr(
            "Hand {number}, game {game}: {headline}",
            number=number,
            game=board + 1,
            headline=headline,
        )
    else:
        # TRANSLATORS: a showdown's title: the hand, then what happened ("Bob goes gin").
        title = tr("Hand {number}: {headline}", number=number, headline=headline)
    footer = scores_line(match)
    team = team_hand_line(match, number) if mode.team_play else ""
    if result.outcome is Outcome.VOID:
        body = tr("Nobody scores.") if team else tr("Nobody scores; the same dealer deals again.")
        return Panel(title, "\n".join(x for x in (body, team) if x), footer)
    assert result.knocker is not None and result.defender is not None
    knocker, defender = names[result.knocker], names[result.defender]
    lines = []
    if result.knocker_arrangement is not None:
        lines.append(
            _showdown_hand(
                knocker,
                arrangement_text(result.knocker_arrangement, face),
                result.knocker_deadwood,
            )
        )
    if result.defender_arrangement is not None:
        own = arrangement_text(result.defender_arrangement, face)
        lines.append(_showdown_hand(defender, own, result.defender_deadwood))
    if result.layoffs and result.knocker_arrangement is not None:
        melds = result.knocker_arrangement.melds
        laid = ", ".join(
            # TRANSLATORS: one card laid off on a meld of the knocker's, "7♥ on 8♥ 9♥ 10♥".
            tr("{card} on {meld}", card=face(card), meld=" ".join(face(c) for c in melds[i]))
            for card, i in result.layoffs
        )
        lines.append(tr("{name} laid off {cards}.", name=defender, cards=laid))
    elif result.outcome in (Outcome.GIN, Outcome.BIG_GIN):
        lines.append(tr("No lay-offs against gin."))
    if result.knock_discard is not None:
        lines.append(_face_down(knocker, result.knock_discard))
    lines.append(_score_reason(names, result, match.settings))
    if team:
        lines.append(team)
    if match.is_hollywood:
        lines.extend(_hollywood_hand_lines(match, number, result))
    return Panel(title, "\n".join(lines), footer)


def _showdown_hand(name: str, arrangement: str, deadwood: int) -> str:
    """A player's hand at the showdown: `**Bob:** 7♥ 8♥ 9♥ · 2♣ — deadwood 2`."""
    return tr(
        "**{name}:** {cards} — deadwood {deadwood}",
        name=name,
        cards=arrangement,
        deadwood=deadwood,
    )


def _face_down(name: str, card: Card) -> str:
    return tr("{name} discarded {card} face down.", name=name, card=card)


def _hollywood_hand_lines(match: Match, number: int, result: HandResult) -> list[str]:
    """Where a Hollywood hand's points went ("+18 in games 1 and 2"), and the games it
    ended, each with its final score."""
    if result.winner is None:
        return []
    record = next((r for r in match.history if r.number == number), None)
    names = [p.name for p in match.players]
    lines = []
    if record is not None and record.games:
        lines.append(
            # TRANSLATORS: the points a Hollywood hand's winner scored, and the games they
            # count in ("in game 1", "in games 1 and 2").
            tr(
                "{name} +{points} in {games}.",
                name=names[result.winner],
                points=result.points,
                games=_games_text(record.games),
            )
        )
    for game in match.games:
        ended = game.result
        if ended is None or ended.hand_number != number:
            continue
        values = {
            "number": ended.number,
            "name": names[ended.winner],
            "won": ended.final[ended.winner],
            "lost": ended.final[ended.loser],
        }
        if ended.shutout:
            lines.append(
                tr(
                    "**Game {number} is over:** {name} wins it, {won} to {lost} (a shutout).",
                    **values,
                )
            )
        else:
            lines.append(
                tr("**Game {number} is over:** {name} wins it, {won} to {lost}.", **values)
            )
    return lines


def _games_text(games: Sequence[int]) -> str:
    """The Hollywood games a hand scored in: `game 1`, `games 1 and 2`, `games 1, 2 and 3`."""
    numbers = [str(g) for g in games]
    if len(numbers) == 1:
        # TRANSLATORS: the one Hollywood game a hand scores in, in "Bob +18 in game 1."
        return tr("game {number}", number=numbers[0])
    # TRANSLATORS: the Hollywood games a hand scores in, in "Bob +18 in games 1, 2 and 3.";
    # {numbers} is one number or several joined by commas.
    return tr("games {numbers} and {last}", numbers=", ".join(numbers[:-1]), last=numbers[-1])


def _gin_out_panel(match: Match, number: int, result: HandResult, face: Face = str) -> Panel:
    assert result.winner is not None
    name = match.players[result.winner].name
    place = match.out.index(result.winner) + 1 if result.winner in match.out else 1
    lines = []
    if result.knocker_arrangement is not None:
        melds = arrangement_text(result.knocker_arrangement, face)
        lines.append(tr("**{name}:** {cards}", name=name, cards=melds))
    if result.knock_discard is not None:
        lines.append(_face_down(name, result.knock_discard))
    left = len(match.in_play)
    if match.is_over:
        lines.append(tr("One player is left: the match is over."))
    else:
        lines.append(
            tr_n(
                "{n} player plays on: the next round is dealt.",
                "{n} players play on: the next round is dealt.",
                left,
            )
        )
    # TRANSLATORS: {place} is a short ordinal ("2nd").
    title = tr(
        "Round {number}: {name} goes gin and is out in {place} place",
        number=number,
        name=name,
        place=ordinal(place),
    )
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
        return tr("The two games cancel out: nobody scores this hand.")
    winner = 0 if net[0] > net[1] else 1
    partners = [s for s in range(len(match.players)) if match.side_of(s) == winner]
    parts = []
    for seat in partners:
        points = result_of.get(seat)
        name = match.players[seat].name
        if points is None:
            # TRANSLATORS: a partner whose game of the hand was void (nobody scored in it).
            parts.append(tr("{name} void", name=name))
        else:
            parts.append(f"{name} {'+' if points > 0 else '−'}{abs(points)}")
    # TRANSLATORS: each partner's result in their game ("Ann +16, Cal −10"), then what the
    # team scores for the hand.
    return tr(
        "{results}: **{team} scores {points}**.",
        results=", ".join(parts),
        team=team_label(match, winner),
        points=abs(net[0] - net[1]),
    )


def _headline(names: list[str], result: HandResult) -> str:
    if result.outcome is Outcome.VOID:
        return tr("void hand — the stock ran out")
    assert result.knocker is not None
    knocker = names[result.knocker]
    if result.outcome is Outcome.KNOCK:
        return tr("{name} knocks and wins", name=knocker)
    if result.outcome is Outcome.UNDERCUT:
        return tr("{name} knocks and is undercut", name=knocker)
    if result.outcome is Outcome.GIN:
        return tr("{name} goes gin", name=knocker)
    return tr("{name} goes Big Gin", name=knocker)


def _score_reason(names: list[str], result: HandResult, settings: Settings) -> str:
    """Who scores how much, and why: `**Bob scores 12** (knock: 15 − 3).`; Oklahoma's
    spade upcard doubles it."""
    assert result.winner is not None
    values = {
        "name": names[result.winner],
        "points": result.points,
        "knocker": result.knocker_deadwood,
        "defender": result.defender_deadwood,
    }
    doubled = result.multiplier > 1  # Oklahoma's spade upcard
    if result.outcome is Outcome.KNOCK:
        if doubled:
            return tr(
                "**{name} scores {points}** (knock: {defender} − {knocker}, doubled by the "
                "spade upcard).",
                **values,
            )
        return tr("**{name} scores {points}** (knock: {defender} − {knocker}).", **values)
    if result.outcome is Outcome.UNDERCUT:
        bonus = settings.undercut_bonus
        if doubled:
            return tr(
                "**{name} scores {points}** (undercut: {knocker} − {defender} + {bonus} bonus, "
                "doubled by the spade upcard).",
                bonus=bonus,
                **values,
            )
        return tr(
            "**{name} scores {points}** (undercut: {knocker} − {defender} + {bonus} bonus).",
            bonus=bonus,
            **values,
        )
    if result.outcome is Outcome.GIN:
        bonus = settings.gin_bonus
        if doubled:
            return tr(
                "**{name} scores {points}** (gin: {defender} + {bonus} bonus, doubled by the "
                "spade upcard).",
                bonus=bonus,
                **values,
            )
        return tr(
            "**{name} scores {points}** (gin: {defender} + {bonus} bonus).", bonus=bonus, **values
        )
    bonus = settings.big_gin_bonus
    if doubled:
        return tr(
            "**{name} scores {points}** (Big Gin: {defender} + {bonus} bonus, doubled by the "
            "spade upcard).",
            bonus=bonus,
            **values,
        )
    return tr(
        "**{name} scores {points}** (Big Gin: {defender} + {bonus} bonus).", bonus=bonus, **values
    )


OVER_FOOTER = N_("Play again any time: /gin challenge, /gin open or /gin practice.")
CHALLENGE_AGAIN = N_("Challenge again any time with /gin challenge.")


def match_over_panel(match: Match, result: MatchResult) -> Panel:
    """Every player's place and final score with its breakdown, and the winner."""
    mode = match.mode
    if mode.two_player_game:
        return _classic_over(match, result)
    names = [p.name for p in match.players]
    lines = []
    if result.reason in (EndReason.RESIGN, EndReason.FORFEIT) and result.loser is not None:
        if result.reason is EndReason.RESIGN:
            lines.append(tr("{name} resigned.", name=names[result.loser]))
        else:
            lines.append(tr("{name} ran out of time.", name=names[result.loser]))
    if not mode.has_target:  # placed by going out, staying in, or leaving
        for seat in sorted(range(len(names)), key=lambda s: result.placings[s]):
            place = result.placings[seat]
            values = {"place": ordinal(place), "name": names[seat]}
            if seat in match.out and place == 1:
                # TRANSLATORS: a line of elimination's final standings ("1st. **Ann** — …").
                lines.append(tr("{place}. **{name}** — went out first", **values))
            elif seat in match.out:
                # TRANSLATORS: a line of elimination's final standings ("2nd. **Bob** — …").
                lines.append(tr("{place}. **{name}** — went out", **values))
            elif seat in match.dropped:
                # TRANSLATORS: a line of elimination's final standings ("5th. **Cal** — …").
                lines.append(tr("{place}. **{name}** — left the match", **values))
            else:
                # TRANSLATORS: a line of elimination's final standings: the player who was
                # still in when everyone else had gone out.
                lines.append(tr("{place}. **{name}** — last one left", **values))
        lines.append(tr("🏆 **{name} wins the match.**", name=names[result.winner]))
        return Panel(tr("Match over"), "\n".join(lines), translate(OVER_FOOTER))
    sides = sorted(range(len(result.final)), key=lambda side: place_of_side(match, result, side))
    for side in sides:
        place = place_of_side(match, result, side)
        label = team_label(match, side) if mode.team_play else names[side]
        # TRANSLATORS: a line of the final standings: place, player or team, final score,
        # then how it adds up ("119 hand points + 100 game bonus + …").
        line = tr(
            "{place}. **{name}: {score}** = {breakdown}",
            place=ordinal(place),
            name=label,
            score=number(result.final[side]),
            breakdown=_breakdown(match, result, side),
        )
        lines.append(line)
    winner = (
        team_label(match, match.side_of(result.winner)) if mode.team_play else names[result.winner]
    )
    if result.shutout:
        lines.append(tr("🏆 **{name} wins the match** — a shutout!", name=winner))
    else:
        lines.append(tr("🏆 **{name} wins the match**.", name=winner))
    return Panel(tr("Match over"), "\n".join(lines), translate(OVER_FOOTER))


def place_of_side(match: Match, result: MatchResult, side: int) -> int:
    seat = next(s for s in range(len(match.players)) if match.side_of(s) == side)
    return result.placings[seat]


def _score_parts(points: int, game_bonus: int, shutout: bool) -> list[str]:
    """A final score's hand points and game bonus, as its breakdown adds them up."""
    parts = [tr_n("{n} hand point", "{n} hand points", points, n=number(points))]
    if game_bonus:
        if shutout:
            # TRANSLATORS: part of a final score's breakdown, "… + 200 game bonus, doubled …".
            parts.append(
                tr("{points} game bonus, doubled for a shutout", points=number(game_bonus))
            )
        else:
            # TRANSLATORS: part of a final score's breakdown, "119 hand points + 100 game bonus".
            parts.append(tr("{points} game bonus", points=number(game_bonus)))
    return parts


def _boxes_part(bonus: int, boxes: int) -> str:
    # TRANSLATORS: part of a final score's breakdown: the box bonus, for the hands won.
    return tr_n(
        "{points} for {n} hand won", "{points} for {n} hands won", boxes, points=number(bonus)
    )


def _breakdown(match: Match, result: MatchResult, side: int) -> str:
    parts = _score_parts(result.points[side], result.game_bonus[side], result.shutout)
    boxes = match.hands_won[side]
    if result.box_bonus[side]:  # none after a resignation or a forfeit: no bonuses then
        parts.append(_boxes_part(result.box_bonus[side], boxes))
    return " + ".join(parts)


def _classic_over(match: Match, result: MatchResult) -> Panel:
    names = [p.name for p in match.players]
    winner = names[result.winner]
    if result.games and result.reason not in (EndReason.RESIGN, EndReason.FORFEIT):
        return _hollywood_over(match, result)
    if result.reason is EndReason.RESIGN:
        assert result.loser is not None
        body = tr(
            "{name} resigned. **{winner} wins the match.**", name=names[result.loser], winner=winner
        )
        return Panel(tr("Match over"), body, translate(CHALLENGE_AGAIN))
    if result.reason is EndReason.FORFEIT:
        assert result.loser is not None
        body = tr(
            "{name} ran out of time. **{winner} wins the match.**",
            name=names[result.loser],
            winner=winner,
        )
        return Panel(tr("Match over"), body, translate(CHALLENGE_AGAIN))
    lines = []
    for seat, name in enumerate(names):
        boxes = match.hands_won[seat]
        if not boxes and not result.final[seat]:
            lines.append(tr("**{name}: 0** (no hand won)", name=name))
            continue
        parts = _score_parts(result.points[seat], result.game_bonus[seat], result.shutout)
        parts.append(_boxes_part(result.box_bonus[seat], boxes))
        lines.append(
            tr(
                "**{name}: {score}** = {breakdown}",
                name=name,
                score=number(result.final[seat]),
                breakdown=" + ".join(parts),
            )
        )
    values = {
        "name": winner,
        "won": number(result.final[result.winner]),
        "lost": number(result.final[1 - result.winner]),
    }
    if result.shutout:
        lines.append(tr("🏆 **{name} wins the match**, {won} to {lost} — a shutout!", **values))
    else:
        lines.append(tr("🏆 **{name} wins the match**, {won} to {lost}.", **values))
    return Panel(tr("Match over"), "\n".join(lines), translate(CHALLENGE_AGAIN))


def _hollywood_over(match: Match, result: MatchResult) -> Panel:
    """Each game's final scores with their breakdown and winner, then the match's."""
    names = [p.name for p in match.players]
    lines = []
    won = [0, 0]
    for game in result.games:
        won[game.winner] += 1
        parts = []
        for seat, name in enumerate(names):
            bits = [number(game.points[seat])]
            if game.game_bonus[seat]:
                bonus = number(game.game_bonus[seat])
                if game.shutout:
                    # TRANSLATORS: part of a Hollywood game's breakdown: its game bonus,
                    # doubled ("37 + 200 game, doubled for a shutout").
                    bits.append(tr("{points} game, doubled for a shutout", points=bonus))
                else:
                    # TRANSLATORS: part of a Hollywood game's breakdown: its game bonus.
                    bits.append(tr("{points} game", points=bonus))
            if game.box_bonus[seat]:
                # TRANSLATORS: part of a Hollywood game's breakdown: its box bonus, in points.
                bits.append(tr("{points} boxes", points=number(game.box_bonus[seat])))
            final = number(game.final[seat])
            if len(bits) > 1:
                breakdown = " + ".join(bits)
                parts.append(f"{name} {final} ({breakdown})")
            else:
                parts.append(f"{name} {final}")
        # TRANSLATORS: a Hollywood game's final scores, then who won it.
        line = tr(
            "**Game {number}:** {scores} — **{name}** wins it",
            number=game.number,
            scores=" · ".join(parts),
            name=names[game.winner],
        )
        lines.append(line)
    winner = result.winner
    margin = result.margin
    values = {
        "name": names[winner],
        "lost": won[1 - winner],
        "score": number(result.final[winner]),
        "other": number(result.final[1 - winner]),
    }
    if margin is not None:
        # TRANSLATORS: Hollywood's result: games won to games lost, then the final scores
        # and their margin ("+35").
        line = tr_n(
            "🏆 **{name} wins the match**, {n} game to {lost} (final scores {score} to {other}, "
            "margin {margin}).",
            "🏆 **{name} wins the match**, {n} games to {lost} (final scores {score} to {other}, "
            "margin {margin}).",
            won[winner],
            margin=("+" if margin >= 0 else "") + number(margin),
            **values,
        )
    else:
        # TRANSLATORS: Hollywood's result: games won to games lost, then the final scores.
        line = tr_n(
            "🏆 **{name} wins the match**, {n} game to {lost} (final scores {score} to {other}).",
            "🏆 **{name} wins the match**, {n} games to {lost} (final scores {score} to {other}).",
            won[winner],
            **values,
        )
    lines.append(line)
    return Panel(tr("Match over · Hollywood"), "\n".join(lines), translate(CHALLENGE_AGAIN))


def last_records(match: Match) -> list[HandRecord]:
    """The finished boards of the last hand played, in board order."""
    if not match.history:
        return []
    last = match.history[-1].number
    return sorted((h for h in match.history if h.number == last), key=lambda h: h.board)


def rules_panel(settings: Settings) -> Panel:
    s = settings
    if s.knock_limit:
        knock = tr(
            "**Knock** when your deadwood is {limit} or less: your opponent lays off cards on "
            "your melds; lower deadwood scores the difference. If the defender ties or beats "
            "you it's an **undercut** (+{bonus}).",
            limit=s.knock_limit,
            bonus=s.undercut_bonus,
        )
    else:
        knock = tr(
            "**Knock** when your deadwood is 0 (this table plays gin only): your opponent lays "
            "off cards on your melds; lower deadwood scores the difference. If the defender "
            "ties or beats you it's an **undercut** (+{bonus}).",
            bonus=s.undercut_bonus,
        )
    if s.big_gin:
        gin = tr(
            "**Gin** (no deadwood): +{bonus} and no lay-offs. **Big Gin** (all 11 cards meld): "
            "on, bonus {big_gin}.",
            bonus=s.gin_bonus,
            big_gin=s.big_gin_bonus,
        )
    else:
        gin = tr(
            "**Gin** (no deadwood): +{bonus} and no lay-offs. **Big Gin** (all 11 cards meld): "
            "off.",
            bonus=s.gin_bonus,
        )
    body = "\n".join(
        [
            tr(
                "Each player gets 10 cards. On your turn draw one (stock or discard pile), then "
                "discard one. Make **melds**: sets of 3–4 of a rank, or runs of 3+ in one suit "
                "(aces low). Unmatched cards are **deadwood** (A=1, faces=10)."
            ),
            knock,
            gin,
            tr(
                "The hand is void if the stock runs down to {stock} without a knock.",
                stock=s.void_stock,
            ),
            tr(
                "First to **{target}** wins; game bonus {game_bonus} (doubled for a shutout), "
                "{box_bonus} per hand won.",
                target=s.target,
                game_bonus=s.game_bonus,
                box_bonus=s.box_bonus,
            ),
            *variant_rules(s),
        ]
    )
    return Panel(tr("Gin Rummy rules at this table"), body, tr("Commands: /gin hand, /gin draw, …"))


# --- challenges, lobbies and server settings -------------------------------------------------

# The modes by name, as a lobby names them (translate where shown: ``translate(MODE_LABELS[m])``).
MODE_LABELS = {
    # TRANSLATORS: a mode, in "A table is open for **two players**, to 100."
    "classic": N_("two players"),
    # TRANSLATORS: a mode, in "A table is open for **three players**, to 100."
    "three": N_("three players"),
    # TRANSLATORS: a mode, in "A table is open for **two teams of two**, to 125."
    "teams": N_("two teams of two"),
    # TRANSLATORS: a mode, in "A table is open for **elimination**, until one player is left."
    "elimination": N_("elimination"),
}

# The bots' levels, as a lobby's seat names them.
BOT_LEVELS: Mapping[str, str] = {
    # TRANSLATORS: how well the bot plays, in "Gin Bot (bot, easy)".
    "easy": N_("easy"),
    # TRANSLATORS: how well the bot plays, in "Gin Bot (bot, normal)".
    "normal": N_("normal"),
    # TRANSLATORS: how well the bot plays, in "Gin Bot (bot, hard)".
    "hard": N_("hard"),
    # TRANSLATORS: how well the bot plays, in "Gin Bot (bot, expert)".
    "expert": N_("expert"),
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
    chosen = find_mode(mode)
    target = chosen.target(server.rules)
    lines = [_lobby_opening(mode, target, mention)]
    for index in range(size):
        if index < len(seats):
            lines.append(f"{index + 1}. {_lobby_seat(seats[index])}")
        else:
            # TRANSLATORS: a lobby's seat nobody has taken yet.
            lines.append(tr("{number}. *free*", number=index + 1))
    if state == "open":
        if chosen.host_starts_early:
            how = tr(
                "The host presses **Start** (at least 2 players); a full table starts by itself."
            )
        else:
            how = tr("The match starts by itself when every seat is taken.")
        join = tr("Press **Join** (or `/gin join`) to take a seat, **Leave** to give it up.")
        closes = tr(
            "The table closes if it isn't started within {duration}.",
            duration=duration(server.challenge_seconds),
        )
        lines.append(f"{join} {how} {closes}")
        if chosen.team_play:
            lines.append(tr("Pick a side with **Join team 1/2**, or leave the sides to the cut."))
    if state == "started":
        title = tr("Gin Rummy table · started")
    elif state == "closed":
        title = tr("Gin Rummy table · closed")
    else:
        title = tr("Gin Rummy table")
    return Panel(title, "\n".join(lines))


def _lobby_opening(mode: str, target: int, mention: str) -> str:
    """A lobby's first line: whose table it is, the mode and how far it plays."""
    label = translate(MODE_LABELS[mode])
    has_target = find_mode(mode).has_target
    if mention and not has_target:
        # TRANSLATORS: {host} is the host's mention (their table); {mode} is "elimination".
        return tr(
            "{host} is open for **{mode}**, until one player is left.", host=mention, mode=label
        )
    if mention:
        # TRANSLATORS: {host} is the host's mention (their table); {mode} is "two teams of two"…
        return tr(
            "{host} is open for **{mode}**, to {target}.", host=mention, mode=label, target=target
        )
    if not has_target:
        return tr("A table is open for **{mode}**, until one player is left.", mode=label)
    return tr("A table is open for **{mode}**, to {target}.", mode=label, target=target)


def _lobby_seat(seat: LobbySeat) -> str:
    """A taken seat: who sits there, a bot's level, their team, the host."""
    if seat.bot_level:
        level = BOT_LEVELS.get(seat.bot_level)
        shown = seat.bot_level if level is None else translate(level)
        # TRANSLATORS: a seat taken by the bot, and how well it plays ("easy").
        parts = [tr("{name} (bot, {level})", name=seat.name, level=shown)]
    else:
        parts = [seat.name]
    if seat.team is not None:
        parts.append(tr("team {number}", number=seat.team + 1))
    if seat.host:
        # TRANSLATORS: marks the seat of the player who opened the table.
        parts.append(tr("host"))
    return " · ".join(parts)


# --- challenges and server settings ---------------------------------------------------------


def rules_summary(rules: Settings) -> list[tuple[str, str]]:
    """Every rule setting as (label, value), in the order players care about."""
    big_gin = tr("on, bonus {bonus}", bonus=rules.big_gin_bonus) if rules.big_gin else on_off(False)
    # TRANSLATORS: the knock limit setting at 0: only gin ends a hand.
    knock = str(rules.knock_limit) if rules.knock_limit else tr("0 (gin only)")
    if rules.next_dealer.value == "loser":
        next_dealer = tr("the loser of the hand")
    elif rules.next_dealer.value == "winner":
        next_dealer = tr("the winner of the hand")
    else:
        # TRANSLATORS: the next dealer setting: the players take turns to deal.
        next_dealer = tr("alternate")
    # TRANSLATORS: three players: who deals next and sits the hand out ("the next player
    # (rotate)": the deal passes to the left every hand).
    sit_out = tr("the loser") if rules.sit_out == "loser" else tr("the next player (rotate)")
    # TRANSLATORS: elimination, played with several decks: whether a set may hold identical cards.
    set_suits = tr("allowed") if rules.set_suits == "any" else tr("no, suits must differ")
    return [
        (tr("Two-player variant"), variant_text(rules)),
        (tr("Target"), str(rules.target)),
        (tr("Gin bonus"), str(rules.gin_bonus)),
        (tr("Undercut bonus"), str(rules.undercut_bonus)),
        (tr("Big Gin"), big_gin),
        (tr("Knock limit"), knock),
        (tr("Hand void with stock left"), str(rules.void_stock)),
        (tr("Next dealer"), next_dealer),
        (tr("Game bonus / box bonus"), f"{rules.game_bonus} / {rules.box_bonus}"),
        (tr("Three players: next to deal and sit out"), sit_out),
        (
            tr("Teams: target / switch opponents"),
            f"{rules.team_target} / {on_off(rules.rotate_opponents)}",
        ),
        (tr("Elimination: sets of identical cards"), set_suits),
    ]


def variant_rules(s: Settings) -> list[str]:
    """The two-player variant's rules, as the rules panel tells them (none for classic)."""
    if s.variant is Variant.OKLAHOMA:
        if s.ace is OklahomaAce.GIN:
            text = tr(
                "**Oklahoma:** the first upcard of each hand sets that hand's knock limit (its "
                "value, face cards 10); an ace upcard means gin only."
            )
        else:
            text = tr(
                "**Oklahoma:** the first upcard of each hand sets that hand's knock limit (its "
                "value, face cards 10); an ace upcard means a knock with 1 or less."
            )
        if s.spades_double:
            spades = tr(
                "A spade upcard doubles every score of its hand (the box bonuses count once)."
            )
            text = f"{text} {spades}"
        return [text]
    if s.variant is Variant.HOLLYWOOD:
        return [
            tr(
                "**Hollywood:** three games are scored at once. Your first hand won scores in "
                "game 1, your second in games 1 and 2, the later ones in all three (only games "
                "still open). Each game ends at {target} with its own bonuses; win two of the "
                "three to win the match.",
                target=s.target,
            )
        ]
    return []


def variant_text(s: Settings) -> str:
    """The variant as a few words: `classic`, `Oklahoma (ace: gin only, spades double)`."""
    if s.variant is Variant.OKLAHOMA:
        if s.ace is OklahomaAce.GIN:
            if s.spades_double:
                return tr("Oklahoma (ace: gin only, spades double)")
            return tr("Oklahoma (ace: gin only)")
        if s.spades_double:
            return tr("Oklahoma (ace: knock at 1, spades double)")
        return tr("Oklahoma (ace: knock at 1)")
    if s.variant is Variant.HOLLYWOOD:
        return tr("Hollywood (three games at once)")
    # TRANSLATORS: the two-player variant: plain Gin Rummy, neither Oklahoma nor Hollywood.
    return tr("classic")


def challenge_panel(
    challenger: str, opponent: str, server: ServerSettings, changed: set[str] | None = None
) -> Panel:
    """The public challenge, with the settings the opponent is accepting."""
    rules = server.rules
    if rules.variant is Variant.CLASSIC:
        invitation = tr_n(
            "{challenger} challenges {opponent} to a game of Gin Rummy to {n} point.",
            "{challenger} challenges {opponent} to a game of Gin Rummy to {n} points.",
            rules.target,
            challenger=challenger,
            opponent=opponent,
        )
    else:
        # TRANSLATORS: {variant} is "Oklahoma (ace: gin only)" or "Hollywood (three games at
        # once)".
        invitation = tr_n(
            "{challenger} challenges {opponent} to a game of {variant} Gin Rummy to {n} point.",
            "{challenger} challenges {opponent} to a game of {variant} Gin Rummy to {n} points.",
            rules.target,
            challenger=challenger,
            opponent=opponent,
            variant=variant_text(rules),
        )
    terms = [
        tr("Gin bonus {bonus}", bonus=rules.gin_bonus),
        tr("undercut bonus {bonus}", bonus=rules.undercut_bonus),
        tr("Big Gin on ({bonus})", bonus=rules.big_gin_bonus)
        if rules.big_gin
        else tr("Big Gin off"),
        tr("the upcard sets the knock limit")
        if rules.variant is Variant.OKLAHOMA
        else tr("knock at {limit} or less", limit=rules.knock_limit),
        # TRANSLATORS: the turn timer, "2 minutes per turn".
        tr("{duration} per turn", duration=duration(server.turn_seconds)),
    ]
    lines = [invitation, " · ".join(terms)]
    if changed:
        # The settings' names as the challenge command's options spell them (kept in English).
        names = ", ".join(sorted(n.replace("_", " ") for n in changed))
        lines.append(tr("*Changed for this match:* {settings}", settings=names))
    lines.append(
        tr(
            "{opponent}, press **Accept** or **Decline** (or use `/gin accept` / `/gin decline`). "
            "The challenge expires in {duration}.",
            opponent=opponent,
            duration=duration(server.challenge_seconds),
        )
    )
    return Panel(tr("Gin Rummy challenge"), "\n".join(lines))


def settings_panel(server: ServerSettings) -> Panel:
    rows = [
        *rules_summary(server.rules),
        (tr("Turn timer"), duration(server.turn_seconds)),
        (tr("Challenge expiry"), duration(server.challenge_seconds)),
        (tr("Discard hint in private hands"), on_off(server.hints)),
        (tr("Matches before being ranked"), str(server.provisional_matches)),
        (tr("Showdown pictures"), on_off(server.images)),
        (
            # TRANSLATORS: the setting of the language the channel's messages are in.
            tr("Channel language"),
            LANGUAGES.get(server.language) or tr("the server's Discord language"),
        ),
    ]
    # TRANSLATORS: a settings line, "**Target:** 100".
    body = "\n".join(tr("**{label}:** {value}", label=label, value=value) for label, value in rows)
    return Panel(
        tr("Gin Rummy settings for this server"),
        body,
        tr(
            "Members with Manage Server can change them with /gin settings set. "
            "Matches already started keep their settings."
        ),
    )
