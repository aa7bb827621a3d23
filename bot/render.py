"""What a player or a spectator sees, as text, from engine state. All user-facing game text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.gin import Card
from bot.gin.cards import format_cards
from bot.gin.hand import Action, ActionKind, Hand, HandResult, Outcome, Phase
from bot.gin.match import EndReason, Match, MatchResult
from bot.gin.melds import Arrangement, arrange, discard_options
from bot.gin.settings import Settings
from bot.server_settings import ServerSettings, duration

LOG_LINES = 8


@dataclass(frozen=True, slots=True)
class Panel:
    """A titled block of text; cogs show it as an embed."""

    title: str
    body: str
    footer: str = ""

    @property
    def text(self) -> str:
        return "\n".join(part for part in (self.title, self.body, self.footer) if part)


def cards(items: Sequence[int]) -> str:
    return format_cards(items) if items else "—"


def arrangement_text(arrangement: Arrangement) -> str:
    """Melds then deadwood, separated by middle dots: `7♥ 8♥ 9♥ · K♠ K♦ K♣ · 2♣ 5♦`."""
    parts = [format_cards(m) for m in arrangement.melds]
    if arrangement.deadwood:
        parts.append(format_cards(arrangement.deadwood))
    return " · ".join(parts) if parts else "—"


def scores_line(match: Match) -> str:
    a, b = match.players
    return f"{a.name} {match.scores[0]} · {b.name} {match.scores[1]} (to {match.settings.target})"


# --- the private hand ---------------------------------------------------------------------


def hand_panel(
    match: Match, seat: int, *, where: str = "", note: str = "", hint: bool = True
) -> Panel:
    """A player's own hand, arranged, with deadwood, what they may do now and a discard hint."""
    hand = match.hand
    other = match.players[1 - seat].name
    title = f"Your hand · vs {other} · hand {match.hand_number}"
    lines = []
    if note:
        lines.append(f"**{note}**")
    my_cards = hand.hands.get(seat, [])
    arrangement = arrange(my_cards)
    lines.append(f"**Hand:** {arrangement_text(arrangement)}")
    lines.append(_deadwood_line(hand, seat, arrangement))
    upcard = hand.upcard
    pile = f"Discard pile: {upcard if upcard is not None else 'empty'}"
    if hand.turn == seat:  # while waiting, the stock count would only churn the message
        pile += f" · Stock: {len(hand.stock)}"
    lines.append(pile)
    lines.append(_status_line(match, seat, hint=hint))
    footer = scores_line(match) + (f" · {where}" if where else "")
    return Panel(title, "\n".join(lines), footer)


def _deadwood_line(hand: Hand, seat: int, arrangement: Arrangement) -> str:
    deadwood = arrangement.deadwood_value
    if len(hand.hands.get(seat, [])) == 11:
        return f"Deadwood: {deadwood} with 11 cards."
    limit = hand.settings.knock_limit
    if deadwood == 0:
        return "Deadwood: 0 — gin! Draw, then discard a card to go gin."
    if deadwood <= limit:
        return f"Deadwood: {deadwood} — you can knock after your next draw."
    return f"Deadwood: {deadwood} (knock at {limit} or less)."


def _status_line(match: Match, seat: int, *, hint: bool) -> str:
    hand = match.hand
    if hand.is_over:
        return "This hand is over."
    if hand.turn != seat:
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
        return f"**Your turn:** draw from the stock or take {upcard} from the discard pile."
    text = "**Your turn:** discard a card"
    kinds = {a.kind for a in hand.legal_actions()}  # one pass: each knock check is a solve
    if ActionKind.BIG_GIN in kinds:
        text += ", or declare **Big Gin**: all 11 cards meld!"
    elif ActionKind.KNOCK in kinds:
        text += ", or knock"
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
    options = discard_options(hand.hands[hand.turn])
    if hand.taken_from_discard is not None:
        options.pop(hand.taken_from_discard, None)
    if not options:
        return None
    card = min(options, key=lambda c: (options[c], -c.value, -int(c)))
    return card, options[card]


def discard_choices(hand: Hand, seat: int) -> list[tuple[Card, int, bool]]:
    """Each card the player may discard, the deadwood it leaves, and whether they could knock."""
    if hand.phase is not Phase.DISCARD or hand.turn != seat:
        return []
    options = discard_options(hand.hands[seat])
    limit = hand.settings.knock_limit
    return [
        (card, options[card], options[card] <= limit)
        for card in sorted(options)
        if card != hand.taken_from_discard
    ]


# --- the public table -------------------------------------------------------------------


def describe_action(match: Match, action: Action) -> str:
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
        return f"{name} knocked."
    return f"{name} declared Big Gin!"


def table_panel(match: Match) -> Panel:
    """The public table: only what anyone at a real table could see."""
    hand = match.hand
    dealer = match.players[hand.dealer].name
    a, b = match.players[0].name, match.players[1].name
    title = f"Gin Rummy · {a} vs {b} · hand {match.hand_number}"
    lines = [f"**Score:** {scores_line(match)}", f"**Hand {match.hand_number}** · {dealer} dealt"]
    if match.is_over:
        lines.append("The match is over.")
    elif hand.is_over:
        lines.append("This hand is over: see the showdown below.")
    else:
        who = match.players[hand.turn].name
        doing = {
            Phase.UPCARD: "take or pass the upcard",
            Phase.DRAW: "draw",
            Phase.DISCARD: "discard",
        }[hand.phase]
        lines.append(f"**Turn:** {who} — {doing}")
    upcard = hand.upcard
    lines.append(
        f"**Stock:** {len(hand.stock)} cards · **Discard pile:** "
        f"{upcard if upcard is not None else 'empty'}"
    )
    events = [describe_action(match, a) for a in hand.public_actions()]
    if events:
        shown = events[-LOG_LINES:]
        more = len(events) - len(shown)
        log = "\n".join(f"• {e}" for e in shown)
        if more:
            log = f"… {more} earlier\n" + log
        lines.append(log)
    return Panel(title, "\n".join(lines), "Your cards come by DM · /gin hand shows them again")


# --- the showdown and the end of the match ------------------------------------------------


def showdown_panel(match: Match, number: int, result: HandResult) -> Panel:
    """Both hands, the lay-offs, the deadwood and the score, with its reason."""
    names = [p.name for p in match.players]
    title = f"Hand {number}: " + _headline(names, result)
    if result.outcome is Outcome.VOID:
        return Panel(title, "Nobody scores; the same dealer deals again.", scores_line(match))
    assert result.knocker is not None and result.defender is not None
    knocker, defender = names[result.knocker], names[result.defender]
    lines = []
    if result.knocker_arrangement is not None:
        lines.append(
            f"**{knocker}:** {arrangement_text(result.knocker_arrangement)} — deadwood "
            f"{result.knocker_deadwood}"
        )
    if result.defender_arrangement is not None:
        own = arrangement_text(result.defender_arrangement)
        lines.append(f"**{defender}:** {own} — deadwood {result.defender_deadwood}")
    if result.layoffs and result.knocker_arrangement is not None:
        melds = result.knocker_arrangement.melds
        laid = ", ".join(f"{card} on {format_cards(melds[i])}" for card, i in result.layoffs)
        lines.append(f"{defender} laid off {laid}.")
    elif result.outcome in (Outcome.GIN, Outcome.BIG_GIN):
        lines.append("No lay-offs against gin.")
    if result.knock_discard is not None:
        lines.append(f"{knocker} discarded {result.knock_discard} face down.")
    lines.append(_score_reason(names, result, match.settings))
    return Panel(title, "\n".join(lines), scores_line(match))


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


def match_over_panel(match: Match, result: MatchResult) -> Panel:
    """Final scores with the bonus breakdown and the winner."""
    names = [p.name for p in match.players]
    winner = names[result.winner]
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
        parts = [f"{result.points[seat]} points"]
        if result.game_bonus[seat]:
            kind = "game bonus, doubled for a shutout" if result.shutout else "game bonus"
            parts.append(f"{result.game_bonus[seat]} {kind}")
        boxes = match.hands_won[seat]
        parts.append(f"{result.box_bonus[seat]} for {boxes} hand{'s' if boxes != 1 else ''} won")
        lines.append(f"**{name}: {result.final[seat]}** = " + " + ".join(parts))
    lines.append(
        f"🏆 **{winner} wins the match**, {result.final[result.winner]} to "
        f"{result.final[1 - result.winner]}" + (" — a shutout!" if result.shutout else ".")
    )
    return Panel("Match over", "\n".join(lines), "Challenge again any time with /gin challenge.")


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
        ]
    )
    return Panel("Gin Rummy rules at this table", body, "Commands: /gin hand, /gin draw, …")


# --- challenges and server settings ---------------------------------------------------------


def rules_summary(rules: Settings) -> list[tuple[str, str]]:
    """Every rule setting as (label, value), in the order players care about."""
    big_gin = f"on, bonus {rules.big_gin_bonus}" if rules.big_gin else "off"
    knock = str(rules.knock_limit) if rules.knock_limit else "0 (gin only)"
    return [
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
    ]


def challenge_panel(
    challenger: str, opponent: str, server: ServerSettings, changed: set[str] | None = None
) -> Panel:
    """The public challenge, with the settings the opponent is accepting."""
    rules = server.rules
    lines = [
        f"{challenger} challenges {opponent} to a game of Gin Rummy to {rules.target} points.",
        f"Gin bonus {rules.gin_bonus} · undercut bonus {rules.undercut_bonus} · Big Gin "
        + (f"on ({rules.big_gin_bonus})" if rules.big_gin else "off")
        + f" · knock at {rules.knock_limit} or less · {duration(server.turn_seconds)} per turn",
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
    ]
    body = "\n".join(f"**{label}:** {value}" for label, value in rows)
    return Panel(
        "Gin Rummy settings for this server",
        body,
        "Members with Manage Server can change them with /gin settings set. "
        "Matches already started keep their settings.",
    )
