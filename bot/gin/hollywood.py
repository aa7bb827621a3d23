"""Hollywood (RULES.md 12): three games of a two-player match scored at once from its hands.

Which games a hand counts in: the hand's winner scores in every open game they have already
scored in, and in the first open game they have not scored in yet. With every game open that
is the rule book's wording (a player's first hand won goes to game 1, the second to games 1
and 2, the third and later to all three); when a game ended before a player scored in it
(they were shut out of it), their next hand won is their first in the next open game.

Each game ends as soon as a player's score in it reaches the target, with its own game bonus
(doubled when the other player scored no hand in it), box bonuses for the hands each player
scored in it, and a winner: the higher final score, ties to the player who reached the
target. The match ends when all three games have; whoever won two or three of them wins it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.gin.settings import Settings

GAMES = 3


@dataclass(frozen=True, slots=True)
class GameResult:
    """One ended game: points, bonuses and final scores per player (seat 0 and 1)."""

    number: int  # 1 to 3
    winner: int
    reached: int  # the player who reached the target
    hand_number: int  # the hand that ended it
    points: tuple[int, ...]
    game_bonus: tuple[int, ...]
    box_bonus: tuple[int, ...]
    shutout: bool
    final: tuple[int, ...]

    @property
    def loser(self) -> int:
        return 1 - self.winner

    @property
    def margin(self) -> int:
        """The winner's final score less the loser's."""
        return self.final[self.winner] - self.final[self.loser]

    def difference(self, seat: int) -> int:
        """This player's final score less the other's (negative for the loser)."""
        return self.final[seat] - self.final[1 - seat]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            "reached": self.reached,
            "hand_number": self.hand_number,
            "points": list(self.points),
            "game_bonus": list(self.game_bonus),
            "box_bonus": list(self.box_bonus),
            "shutout": self.shutout,
            "final": list(self.final),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        return cls(
            number=int(data["number"]),
            winner=int(data["winner"]),
            reached=int(data["reached"]),
            hand_number=int(data["hand_number"]),
            points=tuple(data["points"]),
            game_bonus=tuple(data["game_bonus"]),
            box_bonus=tuple(data["box_bonus"]),
            shutout=bool(data["shutout"]),
            final=tuple(data["final"]),
        )


@dataclass(eq=True)
class HollywoodGame:
    """One of the three games as it stands: each player's score and hands (boxes) in it."""

    number: int
    scores: list[int] = field(default_factory=lambda: [0, 0])
    boxes: list[int] = field(default_factory=lambda: [0, 0])
    result: GameResult | None = None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        return None if self.result is None else self.result.winner

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "scores": list(self.scores),
            "boxes": list(self.boxes),
            "result": None if self.result is None else self.result.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HollywoodGame:
        result = data.get("result")
        return cls(
            number=int(data["number"]),
            scores=list(data["scores"]),
            boxes=list(data["boxes"]),
            result=None if result is None else GameResult.from_dict(result),
        )


def new_games() -> list[HollywoodGame]:
    return [HollywoodGame(number) for number in range(1, GAMES + 1)]


def games_for(games: list[HollywoodGame], seat: int) -> tuple[int, ...]:
    """The numbers of the games a hand won by ``seat`` scores in now (see the module's rule)."""
    open_games = [g for g in games if not g.is_over]
    chosen = [g.number for g in open_games if g.boxes[seat] > 0]
    fresh = next((g.number for g in open_games if g.boxes[seat] == 0), None)
    if fresh is not None:
        chosen.append(fresh)
    return tuple(sorted(chosen))


def score_hand(
    games: list[HollywoodGame], settings: Settings, seat: int, points: int, hand_number: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Add a hand won by ``seat`` to the games it counts in and end those it takes to the
    target. Returns the numbers of the games scored in and of the games that ended."""
    scored = games_for(games, seat)
    ended: list[int] = []
    for game in games:
        if game.number not in scored:
            continue
        game.scores[seat] += points
        game.boxes[seat] += 1
        if game.scores[seat] >= settings.target:
            game.result = end_game(game, seat, settings, hand_number)
            ended.append(game.number)
    return scored, tuple(ended)


def end_game(game: HollywoodGame, reached: int, settings: Settings, hand_number: int) -> GameResult:
    """The game's bonuses and winner once ``reached`` got to the target in it."""
    other = 1 - reached
    shutout = game.boxes[other] == 0
    game_bonus = [0, 0]
    game_bonus[reached] = settings.game_bonus * (2 if shutout else 1)
    box_bonus = tuple(settings.box_bonus * game.boxes[s] for s in (0, 1))
    final = tuple(game.scores[s] + game_bonus[s] + box_bonus[s] for s in (0, 1))
    winner = reached if final[reached] >= final[other] else other
    return GameResult(
        number=game.number,
        winner=winner,
        reached=reached,
        hand_number=hand_number,
        points=tuple(game.scores),
        game_bonus=tuple(game_bonus),
        box_bonus=box_bonus,
        shutout=shutout,
        final=final,
    )


def match_winner(results: tuple[GameResult, ...]) -> int:
    """The player who won two or three of the games."""
    won = sum(1 for r in results if r.winner == 0)
    return 0 if won * 2 > len(results) else 1


__all__ = [
    "GAMES",
    "GameResult",
    "HollywoodGame",
    "end_game",
    "games_for",
    "match_winner",
    "new_games",
    "score_hand",
]
