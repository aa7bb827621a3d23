"""The coach: where a player's choices in a finished hand cost them expected points.

A finished two-player knocking hand is replayed from its deal and its actions; at each of the
reviewer's decisions the reviewer's own ``PlayerView`` (their cards and what was public, never
the opponent's hidden cards or the stock's order) is judged. The coach speaks with the
expert's voice: a choice is a candidate only when the expert (``decide_expert``, what the
``expert`` level plays) would have chosen otherwise and its search finds the expert's move
worth more (``first_look``); a candidate is named only when a second judging, with ten times
the worlds and another seed, still finds it worth at least a point more with two standard
errors taken off (``second_look``). At most three a hand, in turn order, each with facts the
player can check. (``review_hand`` judges with any *valuer* instead, the same way once.)

Pure like the rest of the engine: no I/O, no clock, and chance only through the ``Random``
given. Valuing is slow (each decision plays many imagined hands), so callers run a review off
their event loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from bot.gin.ai.advice import RISK_SAMPLES, Facts, facts_of, margin
from bot.gin.ai.expert import decide_expert, sample_worlds
from bot.gin.ai.players import Level, decide
from bot.gin.ai.view import PlayerView, is_two_player_hand, view_for
from bot.gin.cards import Card
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import HandRecord
from bot.gin.settings import Settings

Valuer = Callable[[PlayerView, random.Random], Mapping[Action, float]]
"""What each legal action of the seat to act is worth to it, in expected points of the hand
(its points won less its points lost), judged from its view alone."""

THRESHOLD = 1.0  # a choice must cost at least this many expected points to be named
LIMIT = 3  # the most choices a review names (the costliest, shown in turn order)
FIRST_SAMPLES = 60  # worlds of the first look at a choice the expert would not make
SECOND_SAMPLES = 600  # worlds of the second look, with another seed, before naming it
CLEAR_BY = 2.0  # standard errors a named choice's cost stands clear of the threshold by
ROLLOUT_SAMPLES = 24  # imagined deals per decision of the rollout valuer
ROLLOUT_LEVEL = Level.EASY  # fast and plain: each rollout plays a whole hand out
MAX_ROLLOUT_MOVES = 400  # far beyond any hand: a stuck rollout counts as a void hand

_DECISIONS = (Phase.UPCARD, Phase.DRAW, Phase.DISCARD)


@dataclass(frozen=True, slots=True)
class Mistake:
    """One decision where another legal action was worth more than the one played.

    ``held`` is the reviewer's hand as they decided (11 cards when discarding); ``upcard``
    the top of the discard pile then. Every card here is the reviewer's own or public.
    """

    hand_number: int
    turn: int
    """The reviewer's turn in the hand, from 1 (a turn is a draw and its discard)."""
    held: tuple[Card, ...]
    upcard: Card | None
    chosen: Action
    better: Action
    points: float
    """How many expected points ``better`` was worth more than ``chosen``."""
    error: float = 0.0
    """The standard error of ``points`` (0 when the valuer gives none)."""
    chosen_facts: Facts | None = None
    """What the player can check about the move they made (and ``better_facts``, the
    better one): deadwood kept, cards that join a meld or give gin, undercut risk."""
    better_facts: Facts | None = None

    @property
    def is_draw(self) -> bool:
        """A choice of where to draw from (or whether to take the first upcard)."""
        return self.chosen.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD, ActionKind.PASS)


@dataclass(frozen=True, slots=True)
class Review:
    """A hand's review for one seat: the costliest choices, and how many were judged."""

    hand_number: int
    board: int
    seat: int
    decisions: int
    """The reviewer's decisions that had a choice (more than one legal action)."""
    mistakes: tuple[Mistake, ...]

    @property
    def points_lost(self) -> float:
        """The expected points the named mistakes cost, together."""
        return sum(m.points for m in self.mistakes)


def reviewable(record: HandRecord) -> bool:
    """Whether the coach can review this hand: a two-player hand with knocking, one deck."""
    rules = record.rules
    return len(record.seats) == 2 and rules.knocking and rules.decks == 1


@dataclass(frozen=True, slots=True)
class Decision:
    """One of the reviewer's decisions with a choice: their view then, and what they did."""

    hand_number: int
    turn: int
    view: PlayerView
    chosen: Action
    moves: int = 0
    """The moves made in the hand before this one (what a table's move token counts)."""


def decisions(
    record: HandRecord, settings: Settings, seat: int, scores: tuple[int, ...] | None = None
) -> list[Decision]:
    """Replay ``record`` and collect each decision of ``seat`` that had more than one legal
    action, as the seat's own view. Cheap: the judging is what costs.

    ``scores`` are the running totals by seat before the hand (they change what a knock is
    worth near the target); left out, the hand is judged on its own.
    """
    if not reviewable(record):
        raise ValueError("the coach reviews two-player hands with knocking and one deck")
    if seat not in record.seats:
        raise ValueError(f"seat {seat} did not play hand {record.number}")
    last = max((*record.seats, record.dealer))
    names = tuple(f"Seat {s}" for s in range(last + 1))
    hand = Hand.deal(record.seats, record.dealer, names, settings, record.seed, record.rules)
    found: list[Decision] = []
    turn = 0
    passed = False  # the seat passed the first upcard: its draw after everyone passed is
    # the same turn
    for action in record.actions:
        if action.kind is ActionKind.LEAVE:
            hand.remove_seat(action.seat)
            continue
        if action.seat == seat and hand.phase in _DECISIONS:
            if hand.phase is not Phase.DISCARD and not (passed and hand.stock_only):
                turn += 1
            passed = action.kind is ActionKind.PASS
            view = _with_scores(view_for(hand, seat), scores)
            if len(view.legal_actions) > 1:
                moves = len(hand.actions)
                found.append(Decision(record.number, max(turn, 1), view, action, moves))
        hand.apply(action)
    return found


def judge(decision: Decision, values: Mapping[Action, float]) -> Mistake | None:
    """The decision as a mistake when another legal action was worth more (None if not)."""
    chosen = decision.chosen
    if chosen not in values:
        return None
    # Ties go to the action played: only a real difference is a mistake.
    best = max(values, key=lambda a: (values[a], a == chosen))
    if best == chosen:
        return None
    view = decision.view
    return Mistake(
        hand_number=decision.hand_number,
        turn=decision.turn,
        held=view.hand,
        upcard=view.upcard,
        chosen=chosen,
        better=best,
        points=values[best] - values[chosen],
    )


def summarize(
    record: HandRecord,
    seat: int,
    judged: int,
    mistakes: Iterable[Mistake | None],
    *,
    threshold: float = THRESHOLD,
    limit: int = LIMIT,
) -> Review:
    """The review: of the mistakes worth naming, the ``limit`` costliest, in turn order."""
    found = [m for m in mistakes if m is not None and m.points >= threshold]
    found.sort(key=lambda m: (-m.points, m.turn))
    shown = sorted(found[:limit], key=lambda m: m.turn)
    return Review(record.number, record.board, seat, judged, tuple(shown))


# --- the expert's review: two looks at each choice the expert would not make -----------------


def first_look(
    decision: Decision, rng: random.Random, samples: int = FIRST_SAMPLES
) -> Mistake | None:
    """The choice as a candidate mistake: the expert's move from the same view, when it is
    another and the search finds it worth more (None otherwise)."""
    view = decision.view
    better = decide_expert(view, rng)
    if better == decision.chosen or decision.chosen not in view.legal_actions:
        return None
    found = margin(view, better, decision.chosen, rng, samples)
    if found.points <= 0.0:
        return None
    return Mistake(
        hand_number=decision.hand_number,
        turn=decision.turn,
        held=view.hand,
        upcard=view.upcard,
        chosen=decision.chosen,
        better=better,
        points=found.points,
        error=found.error,
    )


def second_look(
    decision: Decision,
    candidate: Mistake,
    rng: random.Random,
    samples: int = SECOND_SAMPLES,
    *,
    threshold: float = THRESHOLD,
    clear_by: float = CLEAR_BY,
) -> Mistake | None:
    """The candidate judged again over new worlds: kept, with the new figure and its facts,
    only when the expert's move still wins by ``threshold`` with ``clear_by`` errors off."""
    view = decision.view
    again = margin(view, candidate.better, candidate.chosen, rng, samples)
    if not again.clear_of(threshold, clear_by):
        return None
    knocks = (candidate.chosen.kind, candidate.better.kind)
    worlds = sample_worlds(view, rng, RISK_SAMPLES) if ActionKind.KNOCK in knocks else None
    return replace(
        candidate,
        points=again.points,
        error=again.error,
        chosen_facts=facts_of(view, candidate.chosen, worlds),
        better_facts=facts_of(view, candidate.better, worlds),
    )


def look_seeds(seed: str, index: int) -> tuple[str, str]:
    """The seeds of the two looks at a hand's ``index``-th decision: never the same."""
    return f"{seed}/{index}", f"{seed}/{index}/again"


def expert_review(
    record: HandRecord,
    settings: Settings,
    seat: int,
    seed: str,
    *,
    scores: tuple[int, ...] | None = None,
    first: int = FIRST_SAMPLES,
    second: int = SECOND_SAMPLES,
) -> Review:
    """The expert's review of ``seat``'s play in one go (the bot's coach runs the same looks
    one decision at a time in its workers)."""
    found = decisions(record, settings, seat, scores)
    named = []
    for index, decision in enumerate(found):
        once, twice = look_seeds(seed, index)
        candidate = first_look(decision, random.Random(once), first)
        if candidate is not None:
            named.append(second_look(decision, candidate, random.Random(twice), second))
    return summarize(record, seat, len(found), named)


def review_hand(
    record: HandRecord,
    settings: Settings,
    seat: int,
    valuer: Valuer,
    rng: random.Random,
    *,
    scores: tuple[int, ...] | None = None,
    threshold: float = THRESHOLD,
    limit: int = LIMIT,
) -> Review:
    """Replay ``record`` and judge each decision of ``seat`` with ``valuer``, in one go."""
    found = decisions(record, settings, seat, scores)
    judged = [judge(d, valuer(d.view, rng)) for d in found]
    return summarize(record, seat, len(found), judged, threshold=threshold, limit=limit)


def _with_scores(view: PlayerView, scores: tuple[int, ...] | None) -> PlayerView:
    if scores is None or len(scores) <= max(view.seat, view.opponent):
        return view
    finish = None if view.points_to_finish is None else view.settings.target - scores[view.seat]
    return replace(view, scores=scores, points_to_finish=finish)


# --- a valuer of its own: imagined deals played out ------------------------------------------


def rollout_values(
    view: PlayerView, rng: random.Random, samples: int = ROLLOUT_SAMPLES
) -> dict[Action, float]:
    """Each legal action's expected points, by dealing the unseen cards at random in a way
    consistent with the view, playing each imagined hand out with a fast policy after the
    action, and averaging the seat's net points. Every action is tried on the same imagined
    deals, so their differences are measured, not their noise."""
    totals = dict.fromkeys(view.legal_actions, 0.0)
    for _ in range(samples):
        world = imagined_hand(view, rng)
        seed = rng.random()
        for action in view.legal_actions:
            trial = _copy(world)
            trial.apply(action)
            totals[action] += _play_out(trial, view.seat, random.Random(seed))
    return {action: total / samples for action, total in totals.items()}


def imagined_hand(view: PlayerView, rng: random.Random) -> Hand:
    """A hand the seat cannot tell from the real one: its own cards and everything public as
    they are, the unseen cards dealt at random between the opponent's hidden cards and the
    stock."""
    unseen = list(view.unseen)
    rng.shuffle(unseen)
    held = 10 + (1 if view.turn == view.opponent and view.phase is Phase.DISCARD else 0)
    hidden = held - len(view.opponent_known)
    opponent = [*view.opponent_known, *unseen[:hidden]]
    stock = unseen[hidden : hidden + view.stock_size]
    seats = (view.opponent, view.seat) if view.dealer == view.seat else (view.seat, view.opponent)
    last = max(*seats, view.dealer)
    passes = [a.seat for a in view.history if a.kind is ActionKind.PASS]
    drawn = any(a.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD) for a in view.history)
    return Hand(
        seats=seats,
        dealer=view.dealer,
        names=tuple(f"Seat {s}" for s in range(last + 1)),
        settings=view.settings,
        seed="imagined",
        hands={view.seat: list(view.hand), view.opponent: opponent},
        stock=stock,
        discard_pile=list(view.discard_pile),
        phase=view.phase,
        turn=view.turn,
        passed=passes if view.phase is Phase.UPCARD else [],
        stock_only=len(passes) >= 2 and not drawn,
        taken_from_discard=view.taken_from_discard,
        actions=list(view.history),
        first_upcard=_first_upcard(view),
    )


def _first_upcard(view: PlayerView) -> Card | None:
    """The hand's first upcard (Oklahoma reads its knock limit from it): taken by the first
    draw from the pile if that came before any discard, else still at the pile's bottom."""
    for action in view.history:
        if action.kind is ActionKind.DISCARD:
            break
        if action.kind is ActionKind.DRAW_DISCARD and action.card is not None:
            return action.card
    return view.discard_pile[0] if view.discard_pile else None


def _copy(hand: Hand) -> Hand:
    return replace(
        hand,
        hands={s: list(cards) for s, cards in hand.hands.items()},
        stock=list(hand.stock),
        discard_pile=list(hand.discard_pile),
        passed=list(hand.passed),
        actions=list(hand.actions),
    )


def _play_out(hand: Hand, seat: int, rng: random.Random) -> float:
    """The seat's net points once both players play the hand out with the rollout policy."""
    for _ in range(MAX_ROLLOUT_MOVES):
        if hand.is_over:
            break
        hand.apply(decide(view_for(hand, hand.turn), ROLLOUT_LEVEL, rng))
    result = hand.result
    if result is None or result.winner is None:
        return 0.0
    return float(result.points if result.winner == seat else -result.points)


__all__ = [
    "LIMIT",
    "THRESHOLD",
    "Decision",
    "Mistake",
    "Review",
    "Valuer",
    "decisions",
    "expert_review",
    "first_look",
    "imagined_hand",
    "is_two_player_hand",
    "judge",
    "look_seeds",
    "review_hand",
    "reviewable",
    "rollout_values",
    "second_look",
    "summarize",
]
