"""What every screen shares: the panel, cards and melds as text, names, places and scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.gin import Card
from bot.gin.cards import format_cards
from bot.gin.hand import Hand
from bot.gin.match import Match
from bot.gin.melds import Arrangement
from bot.i18n import tr, tr_n

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
    totals = " · ".join(
        # TRANSLATORS: a player who left the match (elimination, three players).
        tr("~~{name}~~ left", name=p.name)
        if s in match.dropped
        else f"{p.name} {_points(match, s)}"
        for s, p in enumerate(match.players)
    )
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
