"""What each player sees and hears over a whole match, checked after every move: how many of
their messages claim it is their turn, how many notifications each turn brought, and whether
every hand's showdown reached the channel.

A message "claims the turn" when its newest version is green (a hand whose player is to
act), shows a turn's countdown, or carries move buttons of the table: those are the screens a
player could take for the live one. A notification is a message created for them: a DM, or a
channel message whose mentions ping them (an edit never notifies; a private reply in the
channel neither). Used by ``tests.e2e.test_screen_audit`` and ``tests.e2e.screenaudit``.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field

from bot.tables import Table
from tests.fakediscord import FakeDiscord, Message, User

YOUR_TURN = 0x57F287  # discord.Colour.brand_green(): a hand whose player is to act
REPLY_SECONDS = 15 * 60  # a private reply can be edited (and so matters) this long
SHOWDOWN = re.compile(r"^(Hand (\d+)(?:, game (\d))?|Round (\d+)): ")
BETWEEN = "between turns"


def claims_turn(message: Message, table_id: int) -> bool:
    """Whether the message, as it reads now, tells its reader it is their turn."""
    if message.deleted:
        return False
    payload = message.payload
    embeds = payload.get("embeds") or []
    if any(embed.get("color") == YOUR_TURN for embed in embeds):
        return True
    if "⏱️" in message.text:
        return True
    moves = (f"gin:mv:{table_id}:", f"gin:sel:{table_id}:")
    return any(custom_id.startswith(moves) for custom_id in message.custom_ids())


def turn_of(table: Table, seat: int) -> str | None:
    """The seat's turn now, as "hand:board:moves" once it has begun (before they moved in it)."""
    match = table.match
    if match is None or match.is_over:
        return None
    index = match.board_index(seat)
    if index is None:
        return None
    board = match.boards[index]
    if board.is_over or board.turn != seat:
        return None
    if board.actions and board.actions[-1].seat == seat:
        return None  # mid-turn: it began earlier
    return f"{match.hand_number}:{index}:{len(board.actions)}"


@dataclass
class Figures:
    """What the audit found over a match."""

    checks: int = 0
    most_live: int = 0  # the most turn-claiming messages one player had at one check
    too_many_live: list[str] = field(default_factory=list)  # (who, when, which) at fault
    live_after_end: list[str] = field(default_factory=list)
    turns: set[str] = field(default_factory=set)  # (user:turn) of every turn seen begun
    notified: Counter[str] = field(default_factory=Counter)  # (user:turn) -> notifications
    between: Counter[str] = field(default_factory=Counter)  # user -> notifications off-turn
    showdowns: int = 0
    hands: int = 0

    @property
    def most_per_turn(self) -> int:
        return max(self.notified.values(), default=0)

    @property
    def unannounced(self) -> list[str]:
        """Turns that brought no notification (right for a player who was watching)."""
        return sorted(turn for turn in self.turns if not self.notified[turn])

    def summary(self, name: str) -> str:
        return (
            f"{name}: {self.hands} hands, {self.showdowns} showdowns in the channel; "
            f"{self.checks} looks, at most {self.most_live} live hand(s) a player, "
            f"{len(self.live_after_end)} after the end; {len(self.turns)} turns, at most "
            f"{self.most_per_turn} notification(s) a turn, {len(self.unannounced)} with none; "
            f"{sum(self.between.values())} notifications between turns"
        )


class ScreenAudit:
    """Watches one table's players through the fake Discord."""

    def __init__(self, fake: FakeDiscord, users: list[User], channel_id: int) -> None:
        self.fake = fake
        self.users = users
        self.channel_id = channel_id
        self.figures = Figures()
        self._seen: set[int] = set()  # messages already counted as notifications
        self._started = time.monotonic()

    def mine(self, user: User) -> list[Message]:
        """Every message of the bot that this user sees: their DMs, and their private
        replies in the table's channel while those may still be edited."""
        dm = self.fake.dm_messages(user)
        now = time.monotonic()
        store = self.fake.store
        replies = [
            m
            for m in (store.messages[i] for i in store.channel_messages.get(self.channel_id, []))
            if m.ephemeral
            and m.interaction_id is not None
            and self.fake.interactions[m.interaction_id].user.id == user.id
            and now - m.created_at < REPLY_SECONDS
        ]
        return [m for m in [*dm, *replies] if not m.deleted]

    def live(self, table: Table, user: User) -> list[Message]:
        return [m for m in self.mine(user) if claims_turn(m, table.id)]

    def check(self, table: Table, when: str = "", *, dealt: bool = False) -> None:
        """After a move (and its screens): at most one message claims each player's turn,
        none once the match is over; new notifications counted against each player's turn
        (``dealt``: the first look, once the match is dealt: its DMs are the first turn's
        notice, what the channel said before, a challenge's mention, is no turn's)."""
        figures = self.figures
        figures.checks += 1
        match = table.match
        over = match is None or match.is_over
        for user in self.users:
            seat = table.seat_of(str(user.id))
            live = self.live(table, user)
            figures.most_live = max(figures.most_live, len(live))
            texts = [m.text[:80] for m in live]
            if over and live:
                figures.live_after_end.append(f"{user.username} {when}: {texts}")
            elif len(live) > 1:
                figures.too_many_live.append(f"{user.username} {when}: {texts}")
            turn = None if seat is None else turn_of(table, seat)
            if dealt:
                figures.between[user.username] += len(self.notifications(user, dms=False))
            heard = len(self.notifications(user))
            if turn is None:
                figures.between[user.username] += heard
                continue
            figures.turns.add(f"{user.username}:{turn}")
            if heard:
                figures.notified[f"{user.username}:{turn}"] += heard

    def notifications(self, user: User, *, dms: bool = True) -> list[Message]:
        """The messages that notified this user since the last look (``dms``: their DMs
        among them)."""
        found = []
        for message in self.fake.dm_messages(user) if dms else []:
            if message.id not in self._seen and message.author.id == self.fake.bot.id:
                self._seen.add(message.id)
                found.append(message)
        for message in self.fake.channel_messages(self.channel_id):
            if message.id in self._seen or message.ephemeral:
                continue
            if user.id in self.fake.notified(message).users:
                self._seen.add(message.id)
                found.append(message)
        return found

    def count_showdowns(self, hands: int) -> None:
        """Showdowns in the channel against the hands played (``hands``: each board of a
        hand counts apart, as the store keeps them)."""
        shown = set()
        for message in self.fake.channel_messages(self.channel_id):
            for embed in message.embeds:
                title = SHOWDOWN.match(str(embed.get("title") or ""))
                if title is not None:
                    shown.add((title[2] or title[4], title[3]))
        self.figures.showdowns = len(shown)
        self.figures.hands = hands
