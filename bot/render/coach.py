"""The coach's words as a reader sees them: the hint on a private hand, and the review, each
costly choice in a sentence with a reason the reader can check and their own cards then.
Only what the review holds is shown, and a review holds only the reviewer's cards and public
ones, so nothing hidden can reach this page."""

from __future__ import annotations

from bot.gin import Card
from bot.gin.ai.advice import Advice, Facts
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
    """A hand's review: its costliest choices (at most three) in turn order, each with its
    reason, or a word of praise."""
    if match_id is None:
        # TRANSLATORS: the title of a review of one's play in a hand.
        title = tr("Review of hand {number}", number=review.hand_number)
    else:
        # TRANSLATORS: the title of a review of one's play in a hand of a match.
        title = tr(
            "Review of hand {number} (match #{match})", number=review.hand_number, match=match_id
        )
    footer = tr(
        "Expected points, judged from what you could see at the time, and judged again over "
        "ten times the imagined deals: only choices that stood clear both times are named. "
        "Your opponent's hidden cards stay hidden."
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
        why = why_line(mistake, face)
        if why:
            lines.append(why)
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


def why_line(mistake: Mistake, face: Face = str) -> str:
    """The reason for one choice, in facts the reader can check ("" when none was kept)."""
    chosen, better = mistake.chosen_facts, mistake.better_facts
    if chosen is None or better is None:
        return ""
    thrown, kept = _shown(mistake.chosen.card, face), _shown(mistake.better.card, face)
    upcard = _shown(mistake.upcard, face)
    was, should = mistake.chosen.kind, mistake.better.kind
    if should is ActionKind.BIG_GIN:
        return tr("› why: all eleven of your cards meld.")
    if was is ActionKind.DISCARD and should is ActionKind.DISCARD and _alike(chosen, better):
        return _safer(chosen, better, thrown, kept)
    if was is ActionKind.DISCARD and should is ActionKind.DISCARD:
        # TRANSLATORS: the reason of a review's choice: deadwood kept and how many unseen
        # cards would join a meld, after the better discard and after the one made.
        return tr(
            "› why: discarding {kept} leaves deadwood {better_left} and {better_joining} "
            "unseen cards that join a meld; discarding {thrown} left deadwood {chosen_left} "
            "and {chosen_joining}.",
            kept=kept,
            thrown=thrown,
            better_left=better.left,
            better_joining=better.joining,
            chosen_left=chosen.left,
            chosen_joining=chosen.joining,
        )
    if was is ActionKind.KNOCK and should is ActionKind.KNOCK:
        return tr(
            "› why: knocking with {kept} keeps deadwood {better_left}; with {thrown}, "
            "{chosen_left}.",
            kept=kept,
            thrown=thrown,
            better_left=better.left,
            chosen_left=chosen.left,
        )
    if should is ActionKind.KNOCK:
        return tr(
            "› why: your deadwood was {left} after discarding {kept}, low enough to knock, and "
            "about {risk} in 10 of the hands your opponent may hold would undercut it.",
            left=better.left,
            kept=kept,
            risk=better.undercut or 0,
        )
    if was is ActionKind.KNOCK:
        return _knocked(chosen, better, kept)
    return _drew(was, better, chosen, upcard)


def _alike(chosen: Facts, better: Facts) -> bool:
    """Whether two throws leave the same deadwood and the same cards to meld with."""
    return (chosen.left, chosen.joining) == (better.left, better.joining)


def _safer(chosen: Facts, better: Facts, thrown: str, kept: str) -> str:
    """The reason between two throws that leave the same hand's worth: the danger of the card
    thrown to the opponent, when it differs, else what the played-out deals found."""
    if chosen.near is not None and better.near is not None and chosen.near > better.near:
        # TRANSLATORS: two discards leave the same deadwood; the one made can sit in a meld
        # with more cards the player has not seen (same rank, or near it in its suit).
        return tr(
            "› why: both leave deadwood {left} and {joining} unseen cards that join a meld, "
            "but {thrown} can meld with {chosen_near} cards you have not seen (its rank, or "
            "near it in its suit) and {kept} with {better_near}: {thrown} is likelier to help "
            "your opponent.",
            left=chosen.left,
            joining=chosen.joining,
            thrown=thrown,
            kept=kept,
            chosen_near=chosen.near,
            better_near=better.near,
        )
    # TRANSLATORS: two discards leave the same deadwood and the same chances; the search
    # that played both out over many imagined deals found the other one better.
    return tr(
        "› why: both leave deadwood {left} and {joining} unseen cards that join a meld; "
        "played out over many imagined deals, discarding {kept} scored better.",
        left=chosen.left,
        joining=chosen.joining,
        kept=kept,
    )


def _knocked(chosen: Facts, better: Facts, kept: str) -> str:
    risk = chosen.undercut or 0
    if better.gin_cards:
        return tr_n(
            "› why: after discarding {kept}, {n} unseen card gives you gin; your knock at "
            "deadwood {left} is undercut by about {risk} in 10 of the hands your opponent "
            "may hold.",
            "› why: after discarding {kept}, {n} unseen cards give you gin; your knock at "
            "deadwood {left} is undercut by about {risk} in 10 of the hands your opponent "
            "may hold.",
            better.gin_cards,
            kept=kept,
            left=chosen.left,
            risk=risk,
        )
    return tr(
        "› why: your knock at deadwood {left} is undercut by about {risk} in 10 of the hands "
        "your opponent may hold.",
        left=chosen.left,
        risk=risk,
    )


def _drew(was: ActionKind, better: Facts, chosen: Facts, upcard: str) -> str:
    took = was is ActionKind.DRAW_DISCARD
    joins = better.joins if not took else chosen.joins
    left = better.left if not took else chosen.left
    if not took and joins:
        return tr("› why: {card} joins a meld in your hand.", card=upcard)
    if not took:
        return tr(
            "› why: taking {card} brings your deadwood down to {left}.", card=upcard, left=left
        )
    if not joins:
        return tr("› why: {card} joins nothing in your hand.", card=upcard)
    return tr(
        "› why: {card} joins a meld, but after taking it your deadwood is still {left}.",
        card=upcard,
        left=left,
    )


def _shown(card: Card | None, face: Face) -> str:
    # TRANSLATORS: a card the review cannot name (it never names a hidden card).
    return tr("a card") if card is None else face(card)


def hint_text(advice: Advice, upcard: Card | None, face: Face = str) -> str:
    """The coach's suggestion on a private hand, in a line, with a fact the player can check.

    A knock the expert passes up is said outright ("don't knock yet"), with the reason."""
    action, facts = advice.action, advice.facts
    card = _shown(action.card, face)
    top = _shown(upcard, face)
    if action.kind is ActionKind.DISCARD and advice.knock is not None:
        return _dont_knock(card, facts, advice.knock)
    if action.kind is ActionKind.DISCARD:
        # TRANSLATORS: the coach's suggestion on the player's private hand, with its reason:
        # the deadwood kept and how many cards not yet seen would join a meld.
        return tr_n(
            "🎓 Coach: discard {card}: it leaves deadwood {left}, and {n} unseen card joins "
            "a meld.",
            "🎓 Coach: discard {card}: it leaves deadwood {left}, and {n} unseen cards join "
            "a meld.",
            facts.joining or 0,
            card=card,
            left=facts.left,
        )
    if action.kind is ActionKind.KNOCK and facts.left == 0:
        return tr("🎓 Coach: go gin, discarding {card}.", card=card)
    if action.kind is ActionKind.KNOCK:
        return tr(
            "🎓 Coach: knock, discarding {card} (deadwood {left}).", card=card, left=facts.left
        )
    if action.kind is ActionKind.DRAW_STOCK and facts.joins is False:
        return tr("🎓 Coach: draw from the stock: {card} joins nothing.", card=top)
    if action.kind is ActionKind.DRAW_STOCK:
        return tr("🎓 Coach: draw from the stock.")
    if action.kind is ActionKind.DRAW_DISCARD and facts.joins:
        return tr("🎓 Coach: take {card}: it joins a meld.", card=top)
    if action.kind is ActionKind.DRAW_DISCARD:
        return tr(
            "🎓 Coach: take {card}: your deadwood goes down to {left}.", card=top, left=facts.left
        )
    if action.kind is ActionKind.PASS and facts.joins is False:
        return tr("🎓 Coach: pass on {card}: it joins nothing.", card=top)
    if action.kind is ActionKind.PASS:
        return tr("🎓 Coach: pass on {card}.", card=top)
    return tr("🎓 Coach: declare Big Gin.")


def _dont_knock(card: str, facts: Facts, knock: Facts) -> str:
    if facts.gin_cards:
        # TRANSLATORS: the coach advises against knocking now; {n} cards not yet seen
        # would give the player gin after this discard.
        return tr_n(
            "🎓 Coach: don't knock yet: discard {card}; {n} card gives you gin.",
            "🎓 Coach: don't knock yet: discard {card}; {n} cards give you gin.",
            facts.gin_cards,
            card=card,
        )
    if knock.undercut is not None:
        # TRANSLATORS: {risk} is a whole number from 0 to 10 ("about 4 in 10").
        return tr(
            "🎓 Coach: don't knock yet: discard {card}; a knock at deadwood {left} would be "
            "undercut by about {risk} in 10 of the hands your opponent may hold.",
            card=card,
            left=knock.left,
            risk=knock.undercut,
        )
    return tr("🎓 Coach: don't knock yet: discard {card}.", card=card)
