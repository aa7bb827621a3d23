"""Who has a table open in the Activity right now: the web side tells, the Discord side asks.

A player looking at their table in the Activity needs no DM push for their turn, and a
process with a table open in someone's Activity keeps following that table even when another
process shows its messages. Counted per socket: a player with the Activity open on a phone
and a desktop is at the table until both close.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

Listener = Callable[[int, str], None]


class Presence:
    """Open Activity sockets, by table and user."""

    def __init__(self) -> None:
        self._open: dict[int, Counter[str]] = {}
        self._channels: Counter[str] = Counter()  # open pages by channel, with a table or not
        self._listeners: list[Listener] = []

    def look(self, channel_id: str) -> None:
        """A page opened in this channel (its table, if any, is told with ``arrive``)."""
        self._channels[channel_id] += 1

    def look_away(self, channel_id: str) -> None:
        if self._channels[channel_id] <= 1:
            del self._channels[channel_id]
        else:
            self._channels[channel_id] -= 1

    def watches(self, channel_id: str) -> bool:
        """Whether a page is open here in this channel: a table opened there elsewhere is
        worth following here."""
        return self._channels[channel_id] > 0

    def watching(self) -> bool:
        return bool(self._channels)

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Hear (table id, user id) when a user opens a table or closes their last page of
        it; the answer stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _tell(self, table_id: int, user_id: str) -> None:
        for listener in list(self._listeners):
            listener(table_id, user_id)

    def arrive(self, table_id: int, user_id: str) -> None:
        users = self._open.setdefault(table_id, Counter())
        users[user_id] += 1
        if users[user_id] == 1:
            self._tell(table_id, user_id)

    def leave(self, table_id: int, user_id: str) -> None:
        users = self._open.get(table_id)
        if users is None or users[user_id] <= 0:
            return
        users[user_id] -= 1
        if users[user_id] > 0:
            return
        del users[user_id]
        if not users:
            del self._open[table_id]
        self._tell(table_id, user_id)

    def at_table(self, table_id: int, user_id: str) -> bool:
        """Whether this user has the table open in the Activity."""
        users = self._open.get(table_id)
        return users is not None and users[user_id] > 0

    def followed(self, table_id: int) -> bool:
        """Whether anyone has the table open in the Activity here."""
        return table_id in self._open

    def users(self, table_id: int) -> set[str]:
        return set(self._open.get(table_id, ()))
