"""Which message carries a seat's turn now: the hand-off policy, as a pure function.

A player has one live hand at a time: the message that shows their cards with the buttons of
their turn. It is their DM hand, or, while they play from the channel, the private reply to
their latest move or `/gin hand` there (the "carrier", edited through its interaction's own
token: no call of the REST budget). While a reply carries their hand, their DM hand is
"dormant": their cards as they stand between turns, saying where the turn's buttons are, with
a button to play in the DMs again and no move buttons; older replies are deleted as newer
ones come. After a change of the table each
player's screens are brought up to date by a few deliveries, chosen here from the state of the
game and of their screens alone (no I/O, no Discord, no clock but the ``now`` it is given), so
that every case can be tested by itself:

- ``SEND_DM``: the hand's first DM (or a new one in place of a message that is gone);
- ``EDIT_DM``: the DM hand edited in place: a player watching the game sees its new buttons;
- ``ALERT_DM``: the DM hand sent afresh with a line of text, for the notification: their turn
  began and they are not watching (the older copy is deleted, and a reply that carried their
  hand says it went to the DMs);
- ``EDIT_CARRIER``: the reply that carries their hand shows it as it is now;
- ``DORMANT_DM``: the DM hand becomes (or is brought up to date as) the dormant hand: the
  cards without the buttons (a reply carries their turn now);
- ``SEND_DORMANT``: a new hand's DM, as the dormant hand (its reply carries the new hand);
- ``EDIT_REPLY``: their DMs are closed: the latest private reply is kept up to date.

A turn that begins while its player is watching (they moved moments ago) is shown without a
notification (``Handoff.silent``); if they have not moved ``looking_seconds`` later, they are
not watching after all, and get their alert then.

A delivery that cannot be made falls back (``FALLBACK``): a DM hand that is gone is sent
again; a DM that cannot be sent leaves the private replies to carry the game; a carrier that
cannot be edited is dropped and the policy asked again. For a player whose DMs are closed the
turn is announced by a mention in the channel (``ping_due``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from bot.gin.match import Match

LOOKING_SECONDS = 30.0  # a player who moved this recently needs no "your turn" ping
LOOKING_MOST = 180.0  # ... however many play between their turns


class Delivery(Enum):
    SEND_DM = "send_dm"
    EDIT_DM = "edit_dm"
    ALERT_DM = "alert_dm"
    EDIT_CARRIER = "edit_carrier"
    DORMANT_DM = "dormant_dm"
    SEND_DORMANT = "send_dormant"
    EDIT_REPLY = "edit_reply"


# What is tried when a delivery cannot be made (see the module's docstring).
FALLBACK: Mapping[Delivery, Delivery] = {
    Delivery.EDIT_DM: Delivery.SEND_DM,
    Delivery.SEND_DM: Delivery.EDIT_REPLY,
}


@dataclass(frozen=True)
class SeatState:
    """Everything the policy reads about one seat, as plain values."""

    committing: bool  # a move of the table is being committed (its own sync follows)
    turn_begun: bool  # their turn began and no notification told them yet (``turn_begun``)
    looking: bool  # they are watching the game (``looking``, and not past a silent turn)
    dm_closed: bool  # their DMs were found closed during this hand
    dm_hand: bool  # a DM hand message of this hand is there
    dm_current: bool  # ... and shows the live hand as it should be now
    dm_dormant: bool  # ... and shows the dormant line (a reply carries their hand)
    carrier: bool  # a private reply in the channel carries their hand
    at_table: bool = False  # they have the table open in the Activity: it shows them all


@dataclass(frozen=True)
class Handoff:
    """The policy's answer: the deliveries, the live hand's first, and whether a turn that
    began is shown to a watching player without a notification (``silent``)."""

    deliveries: tuple[Delivery, ...] = ()
    silent: bool = False


def decide(state: SeatState) -> Handoff:
    """The deliveries for one seat's screens after a change of the table."""
    if state.committing or state.at_table:
        return Handoff()
    if state.dm_closed:
        return Handoff((Delivery.EDIT_REPLY,))
    if state.turn_begun and not state.looking:
        return Handoff((Delivery.ALERT_DM,))
    silent = state.turn_begun  # and watching: the edit shows it, a notification may follow
    if state.carrier:
        if not state.dm_hand:
            return Handoff((Delivery.EDIT_CARRIER, Delivery.SEND_DORMANT), silent)
        if not state.dm_dormant:
            return Handoff((Delivery.EDIT_CARRIER, Delivery.DORMANT_DM), silent)
        return Handoff((Delivery.EDIT_CARRIER,), silent)
    if not state.dm_hand:
        return Handoff((Delivery.SEND_DM,), silent)
    if state.dm_current:
        return Handoff((), silent)
    return Handoff((Delivery.EDIT_DM,), silent)


def ping_due(state: SeatState, *, turn_begun_at_first_move: bool) -> bool:
    """Whether a player whose DMs are closed gets a mention in the channel for their turn
    (a hand's first turn too: no DM announces it)."""
    return not state.committing and state.dm_closed and turn_begun_at_first_move


def turn_begun(
    match: Match,
    seat: int,
    pinged: Mapping[int, str],
    *,
    is_bot: bool = False,
    first_too: bool = False,
) -> tuple[int, str] | None:
    """(board, turn key) when this seat's turn has begun since its last notice; not
    mid-turn, and not at a hand's first move unless ``first_too`` (a new hand's DM is its
    own notice)."""
    index = match.board_index(seat)
    if index is None or is_bot:
        return None
    hand = match.boards[index]
    if hand.is_over or hand.turn != seat or (not hand.actions and not first_too):
        return None
    if hand.actions and hand.actions[-1].seat == seat:
        return None
    key = f"{match.hand_number}:{len(hand.actions)}"
    if pinged.get(index) == key:
        return None
    return index, key


def watching_window(looking_seconds: float, others: int) -> float:
    """How long after their move a player still counts as watching the game: the looking
    time for each other player of their board (each has a turn before theirs comes again),
    up to LOOKING_MOST."""
    return min(looking_seconds * max(1, others), max(looking_seconds, LOOKING_MOST))


def looking(
    now: float,
    acted: float,
    others: int,
    *,
    alone_with_bots: bool,
    looking_seconds: float,
    shown_silently: float | None = None,
) -> bool:
    """A player who moved moments ago, or who plays only the bot (whose moves come at
    once), is watching the game: their turn needs no notification of its own. "Moments"
    are ``looking_seconds`` for each other player of their board, since each of those has a
    turn before theirs comes again: waiting for five others is not looking away. A turn
    shown to them silently (``shown_silently``: when) has its own ``looking_seconds`` from
    when it was shown, however long the others took before it: not taken up by then, it
    says they looked away after all."""
    if alone_with_bots:
        return True
    if acted == -math.inf:
        return False
    if shown_silently is not None:
        return now - shown_silently < looking_seconds
    return now - acted < watching_window(looking_seconds, others)
