"""What players see of recorded play: leaderboards, match history, replays and stats.

Every figure says what it counts. A match's score here is always its final score, bonuses
included, the one its match-over message gave (``final scores``, added up over matches); the
points won in hands before any bonus are called ``hand points``. Undercuts are "made" (the
defender scored one) or "suffered" (the player's knock was undercut), never just undercuts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.gin.hand import HandResult, Outcome
from bot.render import Face, Panel, arrangement_text
from bot.store import HistoryRow, LeaderRow, PlayerStats, TableRow

SORT_TITLES = {"rating": "by rating", "wins": "by matches won"}
# The name of the total the "points" sort ranks by, per mode: the final scores of the
# match-over messages added up (a teams player shares the team's; elimination has no points,
# its final score is the number of players placed below).
SCORE_LABELS = {"teams": "team final scores", "elimination": "players outlasted"}
FINAL_SCORES = "final scores"
_OWN_NOTE = "final scores: each match's score with its bonuses, as its result gave it, added up"
SCORE_NOTES = {
    "classic": _OWN_NOTE,
    "three": _OWN_NOTE,
    "teams": "team final scores: the team's score with its bonuses in each match, added up",
    "elimination": "players outlasted: the players placed below, added up over the matches",
}
REASONS = {"target": "", "resign": " (resigned)", "forfeit": " (out of time)", "last_left": ""}
VARIANT_NAMES = {"oklahoma": " · Oklahoma", "hollywood": " · Hollywood"}
MODE_NAMES = {
    "classic": "",
    "three": " · three players",
    "teams": " · teams",
    "elimination": " · elimination",
}


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _name(name: str | None, user_id: str) -> str:
    return name or f"<@{user_id}>"


def score_label(mode: str) -> str:
    """What the leaderboard's score total is called in a mode."""
    return SCORE_LABELS.get(mode, FINAL_SCORES)


def sort_title(sort: str, mode: str = "classic") -> str:
    if sort == "points":
        return f"by {score_label(mode)}"
    return SORT_TITLES.get(sort, sort)


def leaderboard_panel(
    rows: Sequence[LeaderRow],
    page: int,
    pages: int,
    sort: str,
    *,
    vs_bot: bool = False,
    mode: str = "classic",
) -> Panel:
    named = MODE_NAMES.get(mode, "")
    if vs_bot:
        title = f"Gin Rummy{named} · players against the bot"
    else:
        title = f"Gin Rummy leaderboard{named} · {sort_title(sort, mode)}"
    if not rows:
        body = (
            "Nobody has finished a match against the bot yet. Try `/gin practice`."
            if vs_bot
            else "No finished matches yet. Start one with `/gin challenge`."
        )
        return Panel(title, body, f"Page {page + 1} of {pages}")
    lines = []
    label = score_label(mode)
    for i, row in enumerate(rows):
        place = page * 10 + i + 1
        rating = "" if row.rating is None else f" · rating {row.rating:.1f}"
        mark = " *(provisional)*" if row.provisional else ""
        lines.append(
            f"**{place}.** {_name(row.name, row.user_id)}{mark} — {row.won} won of {row.played} "
            f"({row.win_rate:.0%}) · {label} {row.final_scores}{rating}"
        )
    footer = f"Page {page + 1} of {pages} · {SCORE_NOTES.get(mode, SCORE_NOTES['classic'])}"
    if not vs_bot:
        footer += " · ratings count uncertainty: a few lucky wins don't top the table"
    return Panel(title, "\n".join(lines), footer)


def history_panel(
    who: str, rows: Sequence[HistoryRow], page: int, pages: int, mode: str = "classic"
) -> Panel:
    title = f"Recent matches of {who}{MODE_NAMES.get(mode, '')}"
    if not rows:
        return Panel(title, f"{who} hasn't finished a match of this kind in this server yet.")
    lines = []
    for row in rows:
        reason = REASONS.get(row.reason, "")
        if row.opponent_id is None:  # more than two players: the place tells the result
            if mode == "elimination":
                score = f"outlasted {row.final_score}"
            else:
                score = f"{'team ' if mode == 'teams' else ''}final score {row.final_score}"
            lines.append(
                f"`#{row.match_id}` {row.finished_at[:10]} · **{_ordinal(row.place)}** of "
                f"{row.players} · {score}{reason}"
            )
            continue
        opponent = "the bot" if row.vs_bot else _name(row.opponent_name, row.opponent_id)
        result = "won" if row.won else "lost"
        lines.append(
            f"`#{row.match_id}` {row.finished_at[:10]} · vs {opponent} · **{result}** "
            f"{row.final_score}–{row.opponent_final_score}{reason}"
        )
    note = "" if mode == "elimination" else " · scores are final scores, bonuses included"
    return Panel(
        title, "\n".join(lines), f"Page {page + 1} of {pages}{note} · /gin replay match:<id>"
    )


def replay_panel(
    row: TableRow,
    names: Sequence[str],
    hands: Sequence[Any],
    page: int,
    pages: int,
    face: Face = str,
) -> Panel:
    """One page of a match replay: each finished hand's result, and the hands at the showdown.

    Only finished hands are recorded, so a hand still being played is never shown; a void
    hand had no showdown, so its cards stay hidden.
    """
    status = {"finished": "finished", "playing": "in progress", "cancelled": "closed"}.get(
        row.status, row.status
    )
    mode = getattr(row, "mode", "classic")
    who = " vs ".join(names) if len(names) == 2 else ", ".join(names)
    variant = VARIANT_NAMES.get(str((row.settings or {}).get("rules", {}).get("variant")), "")
    title = f"Replay of match #{row.id}{MODE_NAMES.get(mode, '')}{variant} · {who} ({status})"
    if len(title) > 250:
        title = title[:249] + "…"
    if not hands:
        return Panel(title, "No hand of this match has finished yet.")
    lines = []
    for hand in hands:
        result = HandResult.from_dict(hand.result["result"])
        board = int(getattr(hand, "board", 0))
        if mode == "elimination":
            winner = names[result.winner] if result.winner is not None else "nobody"
            lines.append(f"**Round {hand.number}** · {names[hand.dealer_seat]} dealt")
            lines.append(f"{winner} went gin and was out.")
            if result.knocker_arrangement is not None:
                shown = arrangement_text(result.knocker_arrangement, face)
                lines.append(f"› {winner}: {shown}")
            continue
        game = f", game {board + 1}" if mode == "teams" else ""
        lines.append(f"**Hand {hand.number}{game}** · {names[hand.dealer_seat]} dealt")
        lines.extend(_hand_lines(names, result, face))
    return Panel(title, "\n".join(lines), f"Page {page + 1} of {pages}")


def _hand_lines(names: Sequence[str], result: HandResult, face: Face = str) -> list[str]:
    if result.outcome is Outcome.VOID:
        return ["Void: the stock ran out; no cards were shown."]
    assert result.knocker is not None and result.defender is not None
    knocker, defender = names[result.knocker], names[result.defender]
    what = {
        Outcome.KNOCK: "knocked and won",
        Outcome.UNDERCUT: "knocked and was undercut",
        Outcome.GIN: "went gin",
        Outcome.BIG_GIN: "went Big Gin",
    }[result.outcome]
    winner = names[result.winner] if result.winner is not None else "nobody"
    lines = [f"{knocker} {what}; **{winner} scored {result.points}**."]
    if result.knocker_arrangement is not None:
        lines.append(
            f"› {knocker}: {arrangement_text(result.knocker_arrangement, face)} "
            f"(deadwood {result.knocker_deadwood})"
        )
    if result.defender_arrangement is not None:
        laid = ""
        if result.layoffs:
            laid = ", laid off " + " ".join(face(c) for c, _ in result.layoffs)
        lines.append(
            f"› {defender}: {arrangement_text(result.defender_arrangement, face)}{laid} "
            f"(deadwood {result.defender_deadwood})"
        )
    return lines


def stats_panel(who: str, stats: PlayerStats | None, mode: str = "classic") -> Panel:
    """A player's record in one mode: matches, rating, streaks, the hands (games of teams
    hands, elimination rounds) and what happened in them, and the scores, each labelled."""
    title = f"Stats for {who}{MODE_NAMES.get(mode, '')}"
    if stats is None or stats.played == 0:
        return Panel(title, f"{who} hasn't finished a match of this kind in this server yet.")
    rating = "unrated" if stats.rating is None else f"{stats.rating:.1f}"
    if stats.rating is not None and stats.mu is not None and stats.sigma is not None:
        rating += f" (skill {stats.mu:.1f} ± {stats.sigma:.1f})"
    lines = [
        f"**Matches:** {stats.played} played · {stats.won} won · {stats.lost} lost "
        f"({stats.win_rate:.0%})",
        f"**Rating:** {rating}",
        f"**Win streak:** {stats.current_streak} now · best {stats.best_streak}",
    ]
    if mode == "elimination":  # no knocks, so no undercuts, and no points: only gins count
        lines += [
            f"**Rounds:** {stats.hands_played} played · {stats.gins} won by going gin",
            f"**Players outlasted:** {stats.final_scores} in all · "
            f"{stats.avg_final_score:.1f} per match",
        ]
        return Panel(title, "\n".join(lines), "Matches against the bot count here.")
    hands = "Games" if mode == "teams" else "Hands"
    lines += [
        f"**{hands}:** {stats.hands_played} played · {stats.hands_won} won"
        + (" (your game of each hand)" if mode == "teams" else ""),
        f"**Knocks:** {stats.knocks} ({stats.knock_rate:.0%}) · **gins:** {stats.gins} "
        f"({stats.gin_rate:.0%}) · **Big Gins:** {stats.big_gins}",
        f"**Undercuts made:** {stats.undercuts_made} ({stats.undercut_rate:.0%}) · "
        f"**undercuts suffered:** {stats.undercuts_suffered}",
    ]
    if mode == "teams":
        lines += [
            f"**Team final scores:** {stats.final_scores} in all · "
            f"{stats.avg_final_score:.1f} per match (bonuses included)",
            f"**Team hand points:** {stats.hand_points} in all (before bonuses)",
        ]
        footer = "Rates are per game played; matches against the bot count here."
    else:
        lines += [
            f"**Final scores:** {stats.final_scores} in all · {stats.avg_final_score:.1f} "
            "per match (bonuses included)",
            f"**Hand points:** {stats.hand_points} in all · {stats.avg_hand_points:.1f} "
            "per hand (before bonuses)",
        ]
        footer = "Rates are per hand played; matches against the bot count here."
    return Panel(title, "\n".join(lines), footer)
