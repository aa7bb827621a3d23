"""The end of a match: the winner, the scores with their bonuses, every player's place."""

from __future__ import annotations

from dataclasses import replace

from bot.gin.match import EndReason, HandRecord, Match, MatchResult, TieBreak, TieRule
from bot.i18n import N_, number, tr, tr_n, translate
from bot.render.common import Panel, ordinal, team_label

OVER_FOOTER = N_("Play again any time: /gin challenge, /gin open or /gin practice.")


CHALLENGE_AGAIN = N_("Challenge again any time with /gin challenge.")


PRACTICE_AGAIN = N_("Play again with the button, or any time with /gin practice.")


def match_over_panel(
    match: Match, result: MatchResult, *, friendly: bool = True, practice: bool = False
) -> Panel:
    """Every player's place and final score with its breakdown, and the winner; a match of
    a tournament (not ``friendly``) has no word on playing again: what its result means for
    the tournament follows it. A practice match's result in the channel (``practice``)
    points to its Play again button."""
    panel = _match_over(match, result)
    if not friendly:
        return replace(panel, footer="")
    return replace(panel, footer=translate(PRACTICE_AGAIN)) if practice else panel


def _match_over(match: Match, result: MatchResult) -> Panel:
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
        values = {
            "place": ordinal(place),
            "name": label,
            "score": number(result.final[side]),
            "breakdown": _breakdown(match, result, side),
        }
        if not mode.team_play and side in match.dropped:
            # TRANSLATORS: a line of the final standings (three players): a player who left
            # the match, placed below those who played on, with their points.
            lines.append(
                tr("{place}. **{name}: {score}** = {breakdown} — left the match", **values)
            )
        else:
            # TRANSLATORS: a line of the final standings: place, player or team, final score,
            # then how it adds up ("119 hand points + 100 game bonus + …").
            lines.append(tr("{place}. **{name}: {score}** = {breakdown}", **values))
    lines.extend(tie_lines(match, result))
    winner = (
        team_label(match, match.side_of(result.winner)) if mode.team_play else names[result.winner]
    )
    if result.shutout:
        lines.append(tr("🏆 **{name} wins the match** — a shutout!", name=winner))
    else:
        lines.append(tr("🏆 **{name} wins the match**.", name=winner))
    return Panel(tr("Match over"), "\n".join(lines), translate(OVER_FOOTER))


def tie_lines(match: Match, result: MatchResult) -> list[str]:
    """Each tie on final score that a rule decided, and how (``MatchResult.tie_breaks``)."""
    return [_tie_line(match, result, tie) for tie in result.tie_breaks]


def _tie_line(match: Match, result: MatchResult, tie: TieBreak) -> str:
    def name(side: int) -> str:
        return team_label(match, side) if match.mode.team_play else match.players[side].name

    values = {
        "above": name(tie.above),
        "below": name(tie.below),
        "score": number(result.final[tie.above]),
    }
    if tie.rule is TieRule.TARGET:
        # TRANSLATORS: a tie on final score, decided by who reached the target.
        return tr(
            "⚖️ {above} and {below} tie on {score}: {above} reached the target, so places higher.",
            **values,
        )
    if tie.rule is TieRule.HANDS:
        # TRANSLATORS: a tie on final score, decided by hands won ("4 to 2").
        return tr(
            "⚖️ {above} and {below} tie on {score}: {above} won more hands ({won} to {lost}), "
            "so places higher.",
            won=match.hands_won[tie.above],
            lost=match.hands_won[tie.below],
            **values,
        )
    # TRANSLATORS: a tie on final score and on hands won: a shared place ("2nd").
    return tr(
        "⚖️ {above} and {below} tie on {score} and on hands won: they share {place} place.",
        place=ordinal(place_of_side(match, result, tie.above)),
        **values,
    )


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
    lines.extend(tie_lines(match, result))
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
        values = {"number": game.number, "scores": " · ".join(parts), "name": names[game.winner]}
        if game.final[0] == game.final[1]:
            # TRANSLATORS: a Hollywood game's final scores, level: the winner is the player
            # who reached the target.
            line = tr(
                "**Game {number}:** {scores} — level: **{name}** wins it, having reached the "
                "target",
                **values,
            )
        else:
            # TRANSLATORS: a Hollywood game's final scores, then who won it.
            line = tr("**Game {number}:** {scores} — **{name}** wins it", **values)
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
