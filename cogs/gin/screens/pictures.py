"""The words on a showdown picture, in the channel's language (the picture itself is drawn by
``bot.art``, which knows no language)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.art.showdown import ShowdownPicture, picture_from_result
from bot.gin.hand import HandResult, Outcome
from bot.i18n import tr, tr_n


def showdown_picture(outcome: HandResult, names: Sequence[str]) -> ShowdownPicture | None:
    """The picture of a hand's showdown, worded in the language in force."""
    if outcome.knocker is None or outcome.defender is None:
        return None
    knocker = names[outcome.knocker] if 0 <= outcome.knocker < len(names) else "?"
    defender = names[outcome.defender] if 0 <= outcome.defender < len(names) else "?"
    values = {
        "knocker": knocker,
        "defender": defender,
        "knocked": outcome.knocker_deadwood,
        "kept": outcome.defender_deadwood,
        "points": outcome.points,
    }
    return picture_from_result(
        outcome,
        names,
        title=_title(outcome.outcome, knocker),
        result=_result(outcome.outcome, values),
        details=_details,
    )


def _title(outcome: Outcome, knocker: str) -> str:
    if outcome is Outcome.KNOCK:
        return tr("{knocker} knocks and wins", knocker=knocker)
    if outcome is Outcome.UNDERCUT:
        return tr("{knocker} knocks and is undercut", knocker=knocker)
    if outcome is Outcome.GIN:
        return tr("{knocker} goes gin", knocker=knocker)
    if outcome is Outcome.BIG_GIN:
        return tr("{knocker} goes Big Gin", knocker=knocker)
    return tr("Showdown")


def _result(outcome: Outcome, values: dict[str, object]) -> str:
    if outcome is Outcome.KNOCK:
        return tr(
            "{knocker} knocks with {knocked} · {defender} {kept} · {knocker} scores {points}",
            **values,
        )
    if outcome is Outcome.UNDERCUT:
        return tr(
            "{knocker} knocks with {knocked} · {defender} {kept} · "
            "{defender} undercuts and scores {points}",
            **values,
        )
    if outcome is Outcome.BIG_GIN:
        return tr(
            "{knocker} goes Big Gin · {defender} {kept} · {knocker} scores {points}", **values
        )
    return tr("{knocker} goes gin · {defender} {kept} · {knocker} scores {points}", **values)


def _details(deadwood: int, laid_off: int) -> str:
    text = tr("  ·  deadwood {deadwood}", deadwood=deadwood)
    if laid_off:
        text += tr_n(
            "  ·  laid off {n} card (outlined in gold)",
            "  ·  laid off {n} cards (outlined in gold)",
            laid_off,
        )
    return text
