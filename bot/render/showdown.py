"""The showdown of each hand: melds, lay-offs and points, for every mode."""

from __future__ import annotations

from collections.abc import Sequence

from bot.gin import Card
from bot.gin.hand import HandResult, Outcome
from bot.gin.match import Match
from bot.gin.settings import Settings
from bot.i18n import tr, tr_n
from bot.render.common import Face, Panel, arrangement_text, ordinal, scores_line, team_label


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
        if result.left is not None:  # three players: left unplayed, the two others play on
            body = tr("Nobody scores this hand; the two others play on.")
        elif team:
            body = tr("Nobody scores.")
        else:
            body = tr("Nobody scores; the same dealer deals again.")
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
        laid = ", ".join(
            # TRANSLATORS: one card laid off on a meld of the knocker's, "7♥ on 8♥ 9♥ 10♥".
            tr("{card} on {meld}", card=face(card), meld=" ".join(face(c) for c in meld))
            for card, meld in laid_off(result.knocker_arrangement.melds, result.layoffs)
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


def laid_off(
    melds: Sequence[Sequence[Card]], layoffs: Sequence[tuple[Card, int]]
) -> list[tuple[Card, list[Card]]]:
    """Each card laid off with the meld as it lay when the card landed on it: a card laid
    off on a card laid off before it goes on the meld that card made ("3♥ on 4♥ 5♥ 6♥ 7♥"
    after "4♥ on 5♥ 6♥ 7♥")."""
    grown = [list(meld) for meld in melds]
    steps = []
    for card, index in layoffs:
        steps.append((card, list(grown[index])))
        grown[index] = sorted([*grown[index], card], key=lambda c: (c.rank, c.suit))
    return steps


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
    if result.left is not None:
        # TRANSLATORS: a showdown's headline: a player resigned (or ran out of time) while
        # playing the hand, so it ends there.
        return tr("{name} left the match — the hand is not played out", name=names[result.left])
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
