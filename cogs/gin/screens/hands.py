"""A player's private hand as a message: everything it depends on (its key), rendered once
per state of the table, and what the ledger is told when an answer showed it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import discord

from bot.emojis import CardEmojis
from bot.gin.ai.advice import Advice
from bot.i18n import language, speaking, tr
from bot.render.coach import hint_text
from bot.render.hand import elsewhere_panel, hand_panel, resting_cards
from bot.tables import Table, clock
from cogs.gin.people import safe
from cogs.gin.screens.ledger import Key, Ledger, Ref, fingerprint
from cogs.gin.screens.messages import message_payload
from cogs.gin.screens.state import PrivateHand, Registry, SeatScreen
from cogs.gin.views import Suggestion, elsewhere_view, embed, hand_view

NO_EMOJIS = CardEmojis()  # a client without card emojis: every card as text


def wants_hints(table: Table) -> bool:
    """Whether the player's hand shows the coach's suggested move (a practice match
    started with hints on)."""
    return table.coached


def faces_of(client: discord.Client) -> CardEmojis:
    """The card emojis the bot has (text for any it lacks)."""
    faces = getattr(client, "card_emojis", None)
    return faces if isinstance(faces, CardEmojis) else NO_EMOJIS


def has_buttons(key: Key) -> bool:
    """Whether the hand a private key describes has move buttons: the player was to act
    on a board still being played."""
    state = key[2]
    return state[0] not in ("waiting", "out") and not state[2]


ELSEWHERE = "elsewhere"  # the first part of a DM hand's key while a reply carries the turn


def is_elsewhere(key: Key | None) -> bool:
    """Whether a private key describes the DM hand of a hand played from the channel."""
    return key is not None and key[0] == ELSEWHERE


@functools.lru_cache(maxsize=1024)
def _where(channel: str, server: str, lang: str, markdown: bool) -> str:
    """A channel of a server, as a private hand names it (worked out once: every hand's key
    and rendering asks): as it is for a footer, where Discord shows text as it is, escaped
    (``markdown``) for a message's text, where it reads markdown and mentions."""
    if markdown:
        channel, server = safe(channel), safe(server)
    with speaking(lang):
        # TRANSLATORS: where a table is played: a channel of a Discord server.
        return tr("#{channel} in {server}", channel=channel, server=server)


def to_act(table: Table, seat: int) -> bool:
    """Whether it is this seat's turn on its board."""
    match = table.match
    board = None if match is None else match.board_of(seat)
    return board is not None and board.turn == seat and not board.is_over


def sits_out(table: Table, seat: int) -> bool:
    """Whether the player deals and sits this hand out (three players): their DM of the
    hand says so, and that they will be told when they play again."""
    match = table.match
    return (
        match is not None
        and not match.is_over
        and match.mode.dealer_sits_out
        and match.board_of(seat) is None
        and seat not in match.dropped  # left the match: nothing new to say each hand
    )


def opponent_name(table: Table, seat: int) -> str | None:
    """The opponent's name on a two-player board; None when several play one board."""
    match = table.match
    board = None if match is None else match.board_of(seat)
    if match is None or board is None or len(board.seats) != 2:
        return None
    return table.players[match.opponent_of(seat)].name


class Hands:
    """Renders each seat's private hand, and keeps the note it shows."""

    def __init__(self, client: discord.Client, ledger: Ledger, screens: Registry) -> None:
        self.client = client
        self.ledger = ledger
        self.screens = screens
        # Asks the coach for a seat's suggestion (off the loop); the hand is shown again
        # once it is known.
        self.advise: Callable[[Table, int], None] | None = None

    def _seat(self, table: Table, seat: int) -> SeatScreen:
        return self.screens(table.id).seat(seat)

    @property
    def faces(self) -> CardEmojis:
        return faces_of(self.client)

    def where(self, table: Table) -> str:
        """Where the table is played, for a private hand's footer (in the language in
        force): as written, since a footer shows no markdown (nothing when not known)."""
        return self._where(table, markdown=False)

    def where_text(self, table: Table) -> str:
        """Where the table is played, for a message's text: markdown escaped."""
        return self._where(table, markdown=True)

    def _where(self, table: Table, *, markdown: bool) -> str:
        channel = self.client.get_channel(int(table.channel_id))
        name = getattr(channel, "name", None)
        guild = getattr(getattr(channel, "guild", None), "name", None)
        if name and guild:
            return _where(name, guild, language(), markdown)
        return f"<#{table.channel_id}>" if markdown else ""

    def note(self, table: Table, seat: int) -> str:
        """The last thing that happened, for the player's hand, in the language in force
        ("" when there is nothing to say)."""
        note = self._seat(table, seat).note
        return "" if note is None else note()

    def set_note(self, table: Table, seat: int, note: Callable[[], str] | None) -> None:
        self._seat(table, seat).note = note

    def advice(self, table: Table, seat: int) -> Advice | None:
        """The coach's suggestion for the seat's turn at a table with hints, once worked
        out; asked for (once a turn) while it is not."""
        if not wants_hints(table) or not to_act(table, seat):
            return None
        screen = self._seat(table, seat)
        token = table.token(seat)
        if screen.advice is not None and screen.advice[0] == token:
            return screen.advice[1]
        if screen.advising != token and self.advise is not None:
            screen.advising = token
            self.advise(table, seat)
        return None

    def key(self, table: Table, seat: int, note: str | None = None) -> Key:
        """Everything the player's private hand message depends on, the language it is
        written in included (``note``: a note of its own instead of their last one). A
        waiting player's key does not change with other players' moves (their hand shows no
        one else's play), so a move costs DM edits for the mover and the next to act only,
        however many play."""
        match = table.match
        assert match is not None
        board = match.board_of(seat)
        if board is None:
            state: tuple[Any, ...] = ("out", seat in match.out, seat in match.dropped)
        else:
            acting = board.turn == seat and not board.is_over
            state = (
                table.token(seat) if acting else "waiting",
                board.phase if acting else None,
                board.is_over,
                tuple(sorted(board.hands.get(seat, ()))),
            )
        return (
            match.hand_number,
            match.is_over,
            state,
            self.note(table, seat) if note is None else note,
            self.where(table),
            table.server.hints,
            language(),
            self.advice(table, seat),
        )

    def render(self, table: Table, seat: int, key: Key | None = None) -> PrivateHand:
        """The player's private hand message for the table as it is now (``key``: its
        ``key``, when the caller has it already)."""
        match = table.match
        assert match is not None
        key = key or self.key(table, seat)
        screen = self._seat(table, seat)
        cached = screen.rendered
        if cached is not None and cached.key == key:
            return cached
        note, where, advice = key[3], key[4], key[7]
        faces = self.faces
        board = match.board_of(seat)
        upcard = None if board is None else board.upcard
        coach = "" if advice is None else hint_text(advice, upcard, faces.card)
        # One suggestion at a time: with the coach on, its move is the hint, the menu's ★
        # and the highlighted button (none while it is being worked out); without it, the
        # server's plain hint (the discard leaving the least deadwood).
        coached = wants_hints(table)
        panel = hand_panel(
            match,
            seat,
            where=where,
            note=note,
            hint=table.server.hints and not coached,
            face=faces.card,
            ends=clock.turn_ends(table, seat),
            advice=coach,
        )
        embeds = [embed(panel)]
        suggestion = Suggestion(advice.action if advice else None) if coached else None
        view = hand_view(table, seat, faces.card_emoji, suggestion)
        payload = {"content": "", **message_payload(embeds, view)}  # no turn alert's text
        rendered = PrivateHand(key, embeds, view, payload, fingerprint(payload))
        screen.rendered = rendered
        return rendered

    def elsewhere_key(self, table: Table, seat: int) -> Key:
        """What the DM hand of a hand played from the channel depends on: the cards held
        between turns (so it is edited once a turn at most), not each move."""
        match = table.match
        assert match is not None
        where = self.where(table)
        board = match.board_of(seat)
        cards = () if board is None else resting_cards(board, seat)
        return (
            ELSEWHERE,
            match.hand_number,
            match.is_over,
            where,
            language(),
            self.where_text(table),
            cards,
        )

    def render_elsewhere(self, table: Table, seat: int) -> PrivateHand:
        """The DM hand while a private reply in the channel carries the turn: the cards,
        where the buttons are, and a button to play here again."""
        match = table.match
        assert match is not None
        key = self.elsewhere_key(table, seat)
        panel = elsewhere_panel(match, seat, where=key[3], where_text=key[5], face=self.faces.card)
        embeds = [embed(panel)]
        # Sitting the hand out, there is nothing to play here either.
        view = None if match.board_of(seat) is None else elsewhere_view(table)
        payload = {"content": "", **message_payload(embeds, view)}
        return PrivateHand(key, embeds, view, payload, fingerprint(payload))

    def drop_rendered(self, table: Table) -> None:
        """The rendered hands were shown; the ledger's keys tell later syncs so."""
        for screen in self.screens(table.id).seats.values():
            screen.rendered = None

    # --- what moves tell the screens -------------------------------------------------------

    def remember(
        self,
        table: Table,
        seat: int,
        ref: Ref,
        embeds: list[discord.Embed],
        view: discord.ui.View | None,
    ) -> None:
        """Record what a message (an id, or a private reply's reference) shows after it was
        edited outside a sync, by the answer to a move."""
        rendered = self._seat(table, seat).rendered
        if rendered is not None and rendered.embeds is embeds:
            self.ledger.record(ref, rendered.shown, rendered.key)
        else:
            self.ledger.record(ref, fingerprint(message_payload(embeds, view)))
