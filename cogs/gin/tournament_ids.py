"""The Discord layer's part of a tournament as stored (``Tournament.screens``): the ids of the
messages it posted and of the threads its matches are played in, read and written by name, so
a restart (or another process) edits the same messages and finds the same threads. The keys
stay what stored tournaments carry: ``signup``, ``standings``, ``end``, ``round:N``,
``thread:R:B``."""

from __future__ import annotations

from typing import Any

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
