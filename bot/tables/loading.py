"""Tables read back from the store: after a restart, and when another process changed one;
and the match as it was before a change that could not be committed."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import orjson

from bot.gin.match import HandRecord, Match, Player
from bot.server_settings import ServerSettings
from bot.store import Store, TableRow
from bot.tables.model import KEPT_HANDS, Seat, Status, Table, TableMeta, screens_part


async def table_from_row(store: Store, row: TableRow) -> Table:
    """The table a stored row describes, its last finished hand with it."""
    match = None
    state = row.state
    if state is not None:
        history = state.get("history")
        if history is None:  # finished hands are stored one row each
            history = [hand.result for hand in await store.hands(row.id)]
        match = Match.from_dict({**state, "history": history})
        keep_last_hand(match)
    display = dict(row.display)
    mode = getattr(row, "mode", "classic")
    table = Table(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        status=Status(row.status),
        seats=loaded_seats(row, display, match),
        server=ServerSettings.from_dict(row.settings),
        mode_name=mode,
        size=int(display.get("size", 2)),
        host=str(display.get("host", row.challenger_id)),
        match=match,
        move_count=row.move_count,
        meta=TableMeta.from_dict(display),
        screen_ids=screens_part(display),
        deadline=None if row.deadline is None else datetime.fromisoformat(row.deadline),
        vs_bot=row.vs_bot,
        created_at=datetime.fromisoformat(row.created_at),
        committed=None if state is None else orjson.dumps(state).decode(),
    )
    table.vs_bot = table.vs_bot or bool(table.bot_seats)
    return table


def loaded_seats(row: TableRow, display: dict[str, Any], match: Match | None) -> list[Seat]:
    """The seats of a table read back from the store: from the display when it saved them,
    else (tables saved by an older version) from the challenge and the match."""
    saved = display.get("seats")
    if saved:
        seats = [Seat.from_dict(s) for s in saved]
    else:
        names = display.get("names", {})
        level = display.get("bot_level", "normal") if row.vs_bot else None
        seats = [
            Seat(Player(row.challenger_id, names.get("0", row.challenger_id))),
            Seat(Player(row.opponent_id, names.get("1", row.opponent_id)), bot_level=level),
        ]
    if match is not None:  # the match's order and names are the ones that count
        by_id = {seat.player.id: seat for seat in seats}
        seats = [replace(by_id.get(p.id, Seat(p)), player=p) for p in match.players]
    return seats


def keep_last_hand(match: Match) -> None:
    """An open table keeps in memory only the last finished hand (both its boards, for
    teams): its showdown is what the screens still show."""
    if match.history:
        last = match.history[-1].number
        match.history[:] = [h for h in match.history[-KEPT_HANDS:] if h.number == last]


Snapshot = tuple[str, list[HandRecord]]


def snapshot(table: Table, match: Match) -> Snapshot:
    """What ``restore`` needs to undo a change: the committed state and the finished hands."""
    state = table.committed or orjson.dumps(match.to_dict(history=False)).decode()
    return state, list(match.history)


def restore(state: str, history: list[HandRecord]) -> Match:
    """The match as it was before a change that could not be committed."""
    match = Match.from_dict(orjson.loads(state))
    match.history = history
    return match
