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
from bot.gin.modes import MODES, Mode
from bot.i18n import N_, number, tr, translate
from bot.render.common import Face, Panel, arrangement_text, ordinal
from bot.tables.records import HistoryRow, LeaderRow, PlayerStats, TableRow

DOT = " · "  # between the parts of a title or a footer

SORT_TITLES = {"rating": N_("by rating"), "wins": N_("by matches won")}
# The "points" sort ranks by the final scores of the match-over messages added up, per mode
# (a teams player shares the team's; elimination has no points, its final score is the
# number of players placed below).
POINTS_TITLES = {
    "teams": N_("by team final scores"),
    "elimination": N_("by players outlasted"),
}
BY_FINAL_SCORES = N_("by final scores")
# A leaderboard line's total, per mode, with its figure.
SCORE_TOTALS = {
    "teams": N_("team final scores {score}"),
    "elimination": N_("players outlasted {score}"),
}
FINAL_SCORES = N_("final scores {score}")
_OWN_NOTE = N_("final scores: each match's score with its bonuses, as its result gave it, added up")
SCORE_NOTES = {
    "classic": _OWN_NOTE,
    "three": _OWN_NOTE,
    "teams": N_("team final scores: the team's score with its bonuses in each match, added up"),
    "elimination": N_("players outlasted: the players placed below, added up over the matches"),
}
# How a match ended, said after its result when it was not by reaching the target.
REASONS = {"resign": N_("{result} (resigned)"), "forfeit": N_("{result} (out of time)")}
VARIANT_NAMES = {"oklahoma": "Oklahoma", "hollywood": "Hollywood"}  # the variants' own names
MODE_NAMES = {
    # TRANSLATORS: a mode of play, in a title ("Stats for Ann · three players").
    "three": N_("three players"),
    # TRANSLATORS: a mode of play, in a title ("Stats for Ann · teams").
    "teams": N_("teams"),
    # TRANSLATORS: a mode of play, in a title ("Stats for Ann · elimination").
    "elimination": N_("elimination"),
}
STATUSES = {
    # TRANSLATORS: a match's state, in a replay's title.
    "finished": N_("finished"),
    # TRANSLATORS: a match's state, in a replay's title.
    "playing": N_("in progress"),
    # TRANSLATORS: a match's state, in a replay's title (cancelled, or closed unfinished).
    "cancelled": N_("closed"),
}


def _name(name: str | None, user_id: str) -> str:
    return name or f"<@{user_id}>"


def _percent(rate: float) -> str:
    """A rate of 0..1 as a whole percentage, without its sign (the sentence has it)."""
    return f"{rate * 100:.0f}"


def _page(page: int, pages: int) -> str:
    return tr("Page {page} of {pages}", page=page + 1, pages=pages)


def _titled(title: str, mode: str, *more: str) -> str:
    """A title, then the mode's name (none for classic) and any further parts."""
    named = MODE_NAMES.get(mode)
    parts = [title, *([translate(named)] if named else []), *more]
    return DOT.join(parts)


def _mode(name: str) -> Mode:
    """The mode a record names; a name no mode has (an old or forged page button) reads as
    the two-player game, as these pages always have."""
    return MODES.get(name, MODES["classic"])


def _not_yet(who: str) -> str:
    return tr("{who} hasn't finished a match of this kind in this server yet.", who=who)


def sort_title(sort: str, mode: str = "classic") -> str:
    """What a leaderboard is sorted by, as its title ends: "by rating"."""
    if sort == "points":
        return translate(POINTS_TITLES.get(mode, BY_FINAL_SCORES))
    title = SORT_TITLES.get(sort)
    return translate(title) if title else sort


def leaderboard_panel(
    rows: Sequence[LeaderRow],
    page: int,
    pages: int,
    sort: str,
    *,
    vs_bot: bool = False,
    mode: str = "classic",
) -> Panel:
    if vs_bot:
        # TRANSLATORS: the game's name, heading the leaderboard of players against the bot.
        title = _titled(tr("Gin Rummy"), mode, tr("players against the bot"))
    else:
        title = _titled(tr("Gin Rummy leaderboard"), mode, sort_title(sort, mode))
    if not rows:
        body = (
            tr("Nobody has finished a match against the bot yet. Try `/gin practice`.")
            if vs_bot
            else tr("No finished matches yet. Start one with `/gin challenge`.")
        )
        return Panel(title, body, _page(page, pages))
    lines = []
    total = SCORE_TOTALS.get(mode, FINAL_SCORES)
    for i, row in enumerate(rows):
        name = _name(row.name, row.user_id)
        if row.provisional:
            # TRANSLATORS: a leaderboard player with too few matches for a settled rating.
            name = tr("{name} *(provisional)*", name=name)
        parts = [
            tr(
                "{won} won of {played} ({percent}%)",
                won=row.won,
                played=row.played,
                percent=_percent(row.win_rate),
            ),
            translate(total, {"score": number(row.final_scores)}),
        ]
        if row.rating is not None:
            parts.append(tr("rating {rating}", rating=number(row.rating, 1)))
        lines.append(
            tr(
                "**{place}.** {name} — {record}",
                place=page * 10 + i + 1,
                name=name,
                record=DOT.join(parts),
            )
        )
    footer = [_page(page, pages), translate(SCORE_NOTES.get(mode, SCORE_NOTES["classic"]))]
    if not vs_bot:
        footer.append(tr("ratings count uncertainty: a few lucky wins don't top the table"))
    return Panel(title, "\n".join(lines), DOT.join(footer))


def history_panel(
    who: str, rows: Sequence[HistoryRow], page: int, pages: int, mode: str = "classic"
) -> Panel:
    title = _titled(tr("Recent matches of {who}", who=who), mode)
    if not rows:
        return Panel(title, _not_yet(who))
    chosen = _mode(mode)
    lines = [_history_line(row, chosen) for row in rows]
    footer = [_page(page, pages)]
    if chosen.has_target:  # elimination's scores are players outlasted
        footer.append(tr("scores are final scores, bonuses included"))
    footer.append("/gin replay match:<id>")
    return Panel(title, "\n".join(lines), DOT.join(footer))


def _history_line(row: HistoryRow, mode: Mode) -> str:
    """One match of a player's history: its number, day, opponent or place, and score."""
    match, day = row.match_id, row.finished_at[:10]
    if row.opponent_id is None:  # more than two players: the place tells the result
        if not mode.has_target:  # the final score counts the players placed below
            score = tr("outlasted {score}", score=row.final_score)
        elif mode.team_play:
            score = tr("team final score {score}", score=row.final_score)
        else:
            score = tr("final score {score}", score=row.final_score)
        line = tr(
            "`#{match}` {day} · **{place}** of {players} · {score}",
            match=match,
            day=day,
            place=ordinal(row.place),
            players=row.players,
            score=score,
        )
    else:
        opponent = tr("the bot") if row.vs_bot else _name(row.opponent_name, row.opponent_id)
        scores = {
            "match": match,
            "day": day,
            "opponent": opponent,
            "score": row.final_score,
            "other": row.opponent_final_score,
        }
        if row.won:
            line = tr("`#{match}` {day} · vs {opponent} · **won** {score}–{other}", **scores)
        else:
            line = tr("`#{match}` {day} · vs {opponent} · **lost** {score}–{other}", **scores)
    reason = REASONS.get(row.reason)
    return translate(reason, {"result": line}) if reason else line


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
    known = STATUSES.get(row.status)
    status = translate(known) if known else row.status
    mode_name = getattr(row, "mode", "classic")
    mode = _mode(mode_name)
    if len(names) == 2:
        who = tr("{first} vs {second}", first=names[0], second=names[1])
    else:
        who = ", ".join(names)
    variant = VARIANT_NAMES.get(str((row.settings or {}).get("rules", {}).get("variant")))
    title = _titled(
        tr("Replay of match #{match}", match=row.id),
        mode_name,
        *([variant] if variant else []),
        tr("{players} ({status})", players=who, status=status),
    )
    if len(title) > 250:
        title = title[:249] + "…"
    if not hands:
        return Panel(title, tr("No hand of this match has finished yet."))
    lines = []
    for hand in hands:
        result = HandResult.from_dict(hand.result["result"])
        board = int(getattr(hand, "board", 0))
        dealer = names[hand.dealer_seat]
        if not mode.knocking:  # the hand's gin took its player out
            lines.append(
                tr("**Round {number}** · {dealer} dealt", number=hand.number, dealer=dealer)
            )
            if result.winner is None:
                lines.append(tr("nobody went gin and was out."))
                winner = tr("nobody")
            else:
                winner = names[result.winner]
                lines.append(tr("{winner} went gin and was out.", winner=winner))
            if result.knocker_arrangement is not None:
                shown = arrangement_text(result.knocker_arrangement, face)
                lines.append(f"› {winner}: {shown}")
            continue
        if mode.team_play:
            lines.append(
                tr(
                    "**Hand {number}, game {game}** · {dealer} dealt",
                    number=hand.number,
                    game=board + 1,
                    dealer=dealer,
                )
            )
        else:
            lines.append(
                tr("**Hand {number}** · {dealer} dealt", number=hand.number, dealer=dealer)
            )
        lines.extend(_hand_lines(names, result, face))
    return Panel(title, "\n".join(lines), _page(page, pages))


# What the knocker did in each outcome, and who scored what.
_OUTCOMES = {
    Outcome.KNOCK: N_("{knocker} knocked and won; **{winner} scored {points}**."),
    Outcome.UNDERCUT: N_("{knocker} knocked and was undercut; **{winner} scored {points}**."),
    Outcome.GIN: N_("{knocker} went gin; **{winner} scored {points}**."),
    Outcome.BIG_GIN: N_("{knocker} went Big Gin; **{winner} scored {points}**."),
}


def _hand_lines(names: Sequence[str], result: HandResult, face: Face = str) -> list[str]:
    if result.left is not None:
        return [tr("{name} left the match; the hand was not played out.", name=names[result.left])]
    if result.outcome is Outcome.VOID:
        return [tr("Void: the stock ran out; no cards were shown.")]
    assert result.knocker is not None and result.defender is not None
    knocker, defender = names[result.knocker], names[result.defender]
    winner = names[result.winner] if result.winner is not None else tr("nobody")
    lines = [
        translate(
            _OUTCOMES[result.outcome],
            {"knocker": knocker, "winner": winner, "points": result.points},
        )
    ]
    if result.knocker_arrangement is not None:
        lines.append(
            tr(
                "› {player}: {cards} (deadwood {deadwood})",
                player=knocker,
                cards=arrangement_text(result.knocker_arrangement, face),
                deadwood=result.knocker_deadwood,
            )
        )
    if result.defender_arrangement is not None:
        shown = {
            "player": defender,
            "cards": arrangement_text(result.defender_arrangement, face),
            "deadwood": result.defender_deadwood,
        }
        if result.layoffs:
            laid = " ".join(face(c) for c, _ in result.layoffs)
            lines.append(
                tr("› {player}: {cards}, laid off {laid} (deadwood {deadwood})", laid=laid, **shown)
            )
        else:
            lines.append(tr("› {player}: {cards} (deadwood {deadwood})", **shown))
    return lines


def stats_panel(who: str, stats: PlayerStats | None, mode: str = "classic") -> Panel:
    """A player's record in one mode: matches, rating, streaks, the hands (games of teams
    hands, elimination rounds) and what happened in them, and the scores, each labelled."""
    title = _titled(tr("Stats for {who}", who=who), mode)
    if stats is None or stats.played == 0:
        return Panel(title, _not_yet(who))
    if stats.rating is None:
        # TRANSLATORS: a player's rating when they have none yet.
        rating = tr("unrated")
    else:
        rating = number(stats.rating, 1)
        if stats.mu is not None and stats.sigma is not None:
            rating = tr(
                "{rating} (skill {mu} ± {sigma})",
                rating=rating,
                mu=number(stats.mu, 1),
                sigma=number(stats.sigma, 1),
            )
    lines = [
        tr(
            "**Matches:** {played} played · {won} won · {lost} lost ({percent}%)",
            played=stats.played,
            won=stats.won,
            lost=stats.lost,
            percent=_percent(stats.win_rate),
        ),
        tr("**Rating:** {rating}", rating=rating),
        tr(
            "**Win streak:** {current} now · best {best}",
            current=stats.current_streak,
            best=stats.best_streak,
        ),
    ]
    final_scores = number(stats.final_scores)
    average = number(stats.avg_final_score, 1)
    chosen = _mode(mode)
    if not chosen.knocking:  # no knocks, so no undercuts, and no points: only gins count
        lines += [
            tr(
                "**Rounds:** {played} played · {gins} won by going gin",
                played=stats.hands_played,
                gins=stats.gins,
            ),
            tr(
                "**Players outlasted:** {total} in all · {average} per match",
                total=final_scores,
                average=average,
            ),
        ]
        return Panel(title, "\n".join(lines), tr("Matches against the bot count here."))
    if chosen.team_play:
        played = tr(
            "**Games:** {played} played · {won} won (your game of each hand)",
            played=stats.hands_played,
            won=stats.hands_won,
        )
    else:
        played = tr(
            "**Hands:** {played} played · {won} won",
            played=stats.hands_played,
            won=stats.hands_won,
        )
    lines += [
        played,
        tr(
            "**Knocks:** {knocks} ({knock_rate}%) · **gins:** {gins} ({gin_rate}%) · "
            "**Big Gins:** {big_gins}",
            knocks=stats.knocks,
            knock_rate=_percent(stats.knock_rate),
            gins=stats.gins,
            gin_rate=_percent(stats.gin_rate),
            big_gins=stats.big_gins,
        ),
        tr(
            "**Undercuts made:** {made} ({rate}%) · **undercuts suffered:** {suffered}",
            made=stats.undercuts_made,
            rate=_percent(stats.undercut_rate),
            suffered=stats.undercuts_suffered,
        ),
    ]
    hand_points = number(stats.hand_points)
    if chosen.team_play:
        lines += [
            tr(
                "**Team final scores:** {total} in all · {average} per match (bonuses included)",
                total=final_scores,
                average=average,
            ),
            tr("**Team hand points:** {total} in all (before bonuses)", total=hand_points),
        ]
        footer = tr("Rates are per game played; matches against the bot count here.")
    else:
        lines += [
            tr(
                "**Final scores:** {total} in all · {average} per match (bonuses included)",
                total=final_scores,
                average=average,
            ),
            tr(
                "**Hand points:** {total} in all · {average} per hand (before bonuses)",
                total=hand_points,
                average=number(stats.avg_hand_points, 1),
            ),
        ]
        footer = tr("Rates are per hand played; matches against the bot count here.")
    return Panel(title, "\n".join(lines), footer)
