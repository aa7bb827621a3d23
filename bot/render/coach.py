"""The coach's review as a reader sees it: each costly choice in a sentence, with the
reviewer's own cards at that moment. Only what the review holds is shown, and a review holds
only the reviewer's cards and public ones, so nothing hidden can reach this page."""

from __future__ import annotations

from bot.gin import Card
from bot.gin.coach import Mistake, Review
from bot.gin.hand import Action, ActionKind
from bot.i18n import tr, tr_n
from bot.render.common import Face, Panel

_THROWS = (ActionKind.DISCARD, ActionKind.KNOCK)


def points_text(points: float) -> str:
    """Expected points as a reader takes them: whole, and never less than one."""
    whole = max(1, round(points))
    # TRANSLATORS: how much more a better choice was worth, in expected points.
    return tr_n("about {n} point", "about {n} points", whole)


def review_panel(review: Review, face: Face = str, *, match_id: int | None = None) -> Panel:
    """A hand's review: its costliest choices, largest first, or a word of praise."""
    if match_id is None:
        # TRANSLATORS: the title of a review of one's play in a hand.
        title = tr("Review of hand {number}", number=review.hand_number)
    else:
        # TRANSLATORS: the title of a review of one's play in a hand of a match.
        title = tr(
            "Review of hand {number} (match #{match})", number=review.hand_number, match=match_id
        )
    footer = tr(
        "Expected points, judged from what you could see at the time. Your opponent's "
        "hidden cards stay hidden."
    )
    if not review.mistakes:
        body = tr_n(
            "Nothing to improve: your {n} decision was as good as mine, give or take a point.",
            "Nothing to improve: each of your {n} decisions was as good as mine, give or take "
            "a point.",
            review.decisions,
        )
        return Panel(title, body, footer)
    lines = [
        tr_n(
            "Where I would have played differently ({n} choice):",
            "Where I would have played differently ({n} choices):",
            len(review.mistakes),
        )
    ]
    for mistake in review.mistakes:
        lines.append(mistake_line(mistake, face))
        # TRANSLATORS: the reviewer's own cards when they made that choice.
        lines.append(tr("› your hand: {cards}", cards=" ".join(face(c) for c in mistake.held)))
    return Panel(title, "\n".join(lines), footer)


def mistake_line(mistake: Mistake, face: Face = str) -> str:
    """One choice in a sentence: what was done, what was worth more, and by how much."""
    # TRANSLATORS: where in the play a choice was made: the hand, and the player's own turn.
    where = tr("**Hand {hand}, turn {turn}:**", hand=mistake.hand_number, turn=mistake.turn)
    return f"{where} {_choice(mistake, face)}"


def _choice(mistake: Mistake, face: Face) -> str:
    chosen, better = mistake.chosen, mistake.better
    points = points_text(mistake.points)
    if chosen.kind in _THROWS and better.kind in _THROWS:
        return _throw(chosen, better, points, face)
    upcard = _shown(mistake.upcard, face)
    if chosen.kind is ActionKind.PASS:
        return tr(
            "you passed on {card}; taking it was worth {points} more.", card=upcard, points=points
        )
    if chosen.kind is ActionKind.DRAW_STOCK:
        return tr(
            "you drew from the stock; taking {card} was worth {points} more.",
            card=upcard,
            points=points,
        )
    if chosen.kind is ActionKind.DRAW_DISCARD and better.kind is ActionKind.PASS:
        return tr("you took {card}; passing was worth {points} more.", card=upcard, points=points)
    if chosen.kind is ActionKind.DRAW_DISCARD:
        return tr(
            "you took {card}; drawing from the stock was worth {points} more.",
            card=upcard,
            points=points,
        )
    if better.kind is ActionKind.BIG_GIN:
        return tr("declaring Big Gin was worth {points} more.", points=points)
    return tr("another choice was worth {points} more.", points=points)


def _throw(chosen: Action, better: Action, points: str, face: Face) -> str:
    thrown, kept = _shown(chosen.card, face), _shown(better.card, face)
    knocked, knock = chosen.kind is ActionKind.KNOCK, better.kind is ActionKind.KNOCK
    if not knocked and not knock:
        return tr(
            "you kept {kept} and discarded {thrown}; discarding {kept} was worth {points} more.",
            kept=kept,
            thrown=thrown,
            points=points,
        )
    if not knocked:
        return tr(
            "you discarded {thrown}; knocking and discarding {kept} was worth {points} more.",
            kept=kept,
            thrown=thrown,
            points=points,
        )
    if not knock:
        return tr(
            "you knocked, discarding {thrown}; playing on and discarding {kept} was worth "
            "{points} more.",
            kept=kept,
            thrown=thrown,
            points=points,
        )
    return tr(
        "you knocked, discarding {thrown}; knocking and discarding {kept} instead was worth "
        "{points} more.",
        kept=kept,
        thrown=thrown,
        points=points,
    )


def _shown(card: Card | None, face: Face) -> str:
    # TRANSLATORS: a card the review cannot name (it never names a hidden card).
    return tr("a card") if card is None else face(card)


def hint_text(action: Action, upcard: Card | None, face: Face = str) -> str:
    """The coach's suggestion on a private hand, in a line."""
    card = _shown(action.card, face)
    top = _shown(upcard, face)
    if action.kind is ActionKind.DISCARD:
        # TRANSLATORS: the coach's suggestion on the player's private hand.
        return tr("🎓 Coach: discard {card}.", card=card)
    if action.kind is ActionKind.KNOCK:
        return tr("🎓 Coach: knock, discarding {card}.", card=card)
    if action.kind is ActionKind.DRAW_STOCK:
        return tr("🎓 Coach: draw from the stock.")
    if action.kind is ActionKind.DRAW_DISCARD:
        return tr("🎓 Coach: take {card}.", card=top)
    if action.kind is ActionKind.PASS:
        return tr("🎓 Coach: pass on {card}.", card=top)
    return tr("🎓 Coach: declare Big Gin.")
