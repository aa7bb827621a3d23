"""The Discord layer's part of a tournament as stored (``Tournament.screens``): the ids of the
messages it posted and of the threads its matches are played in, read and written by name, so
a restart (or another process) edits the same messages and finds the same threads. The keys
stay what stored tournaments carry: ``signup``, ``standings``, ``end``, ``round:N``,
``thread:R:B``. Also how a tournament's post is made once: its nonce, and how a post made
before a restart is recognised in the channel."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from bot.render.tournaments import DOT
from bot.tournaments import Tournament
from cogs.gin.screens.ledger import Payload

SIGNUP = "signup"
STANDINGS = "standings"
END = "end"
ROUND = "round:"
THREAD = "thread:"


class TournamentIds:
    """A typed view of the kept ids; writes change the dict it wraps (hand it to
    ``TournamentService.keep`` to store them)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def _int(self, key: str) -> int | None:
        value = self.data.get(key)
        return None if value is None else int(value)

    def _set(self, key: str, value: int | None) -> None:
        if value is None:
            self.data.pop(key, None)
        else:
            self.data[key] = value

    @property
    def signup(self) -> int | None:
        """The sign-up message, the tournament's first."""
        return self._int(SIGNUP)

    @signup.setter
    def signup(self, value: int | None) -> None:
        self._set(SIGNUP, value)

    @property
    def standings(self) -> int | None:
        """The standings message, edited after every result."""
        return self._int(STANDINGS)

    @standings.setter
    def standings(self, value: int | None) -> None:
        self._set(STANDINGS, value)

    @property
    def end(self) -> int | None:
        """The last message: the final table, or that it was called off."""
        return self._int(END)

    @end.setter
    def end(self, value: int | None) -> None:
        self._set(END, value)

    def round(self, number: int) -> int | None:
        """A round's message: its pairings and results."""
        return self._int(f"{ROUND}{number}")

    def set_round(self, number: int, message: int | None) -> None:
        self._set(f"{ROUND}{number}", message)

    def thread(self, round_number: int, board: int) -> int | None:
        """The thread a board's match of a round is played in."""
        return self._int(f"{THREAD}{round_number}:{board}")

    def set_thread(self, round_number: int, board: int, thread: int | None) -> None:
        self._set(f"{THREAD}{round_number}:{board}", thread)

    def messages(self) -> list[int]:
        """Every message kept (not the threads)."""
        return [
            int(value)
            for key, value in self.data.items()
            if value is not None and (key in (SIGNUP, STANDINGS, END) or key.startswith(ROUND))
        ]

    def threads(self) -> dict[tuple[int, int], int]:
        """Every match's thread, by (round, board)."""
        found: dict[tuple[int, int], int] = {}
        for key, value in self.data.items():
            if not key.startswith(THREAD) or value is None:
                continue
            round_number, _, board = key[len(THREAD) :].partition(":")
            if round_number.isdigit() and board.isdigit():
                found[int(round_number), int(board)] = int(value)
        return found


Same = Callable[[Payload, Payload], bool]


def nonce_of(tournament_id: int, what: str) -> str:
    """The nonce of a tournament's post: the same for a repeat of the same post."""
    digest = hashlib.sha256(f"{tournament_id}:{what}".encode()).hexdigest()
    return f"t{digest[:24]}"


def same_standings(tournament_id: int) -> Same:
    """A tournament's standings are recognised by its number and their footer (their title
    changes with the rounds)."""
    prefix = f"🏆 #{tournament_id}{DOT}"

    def same(shown: Payload, wanted: Payload) -> bool:
        footer = (shown.get("footer") or {}).get("text")
        return bool(
            str(shown.get("title", "")).startswith(prefix)
            and footer
            and footer == (wanted.get("footer") or {}).get("text")
        )

    return same


def ids_of(tournament: Tournament) -> TournamentIds:
    """The ids of the tournament's messages and threads, as kept."""
    return TournamentIds(tournament.screens)


def keep_standings(kept: dict[str, Any], sent: int) -> None:
    TournamentIds(kept).standings = sent


def keep_end(kept: dict[str, Any], sent: int) -> None:
    TournamentIds(kept).end = sent
