"""The store interface of tournaments and seasons, beside ``Store``: both stores implement it
(``bot.store.tournaments``), so the tournament service runs on SQLite or PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Protocol

from bot.store.errors import StoreError
from bot.store.rows import (
    CLASSIC,
    HandRow,
    JsonObject,
    LeaderRow,
    LeaderSort,
    RatingRow,
    ResultRow,
    TableRow,
)
from bot.store.tournament_rows import (
    DecidedBy,
    EntrantStatus,
    PairingRow,
    PostKind,
    ScheduleRow,
    SeasonPostRow,
    SeasonSettingsRow,
    TournamentEntry,
    TournamentFormat,
    TournamentRecord,
    TournamentRow,
    TournamentState,
)


class TournamentBusy(StoreError):
    """The channel already has an open tournament (signing up or running)."""

    def __init__(self, channel_id: str, tournament_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an open tournament ({tournament_id})")
        self.channel_id = channel_id
        self.tournament_id = tournament_id


class NoSuchTournament(StoreError):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"no tournament {tournament_id}")
        self.tournament_id = tournament_id


class LockedTournament(Protocol):
    """One tournament held by ``TournamentStore.lock_tournament`` for a transaction: every
    write here commits together when the block ends, or none does."""

    @property
    def id(self) -> int: ...

    async def read(self) -> TournamentRecord:
        """The tournament as it stands now, this block's own writes included."""
        ...

    async def set_state(self, state: TournamentState, now: str) -> None:
        """A new state; 'running' sets the start time, 'finished' and 'cancelled' the end
        time (each only the first time)."""
        ...

    async def set_round(self, number: int, now: str) -> None: ...

    async def set_settings(self, settings: JsonObject, now: str) -> None: ...

    async def set_deadline(self, deadline: str | None, now: str) -> None:
        """The next timer event (None: none); its claim goes with the old one."""
        ...

    async def join(self, user_id: str, now: str, name: str | None = None) -> bool:
        """Enter a player (again, after leaving during sign-up) under ``name`` (None: the
        one kept, if any); False if already in, or dropped."""
        ...

    async def set_status(
        self, user_id: str, status: EntrantStatus, was: EntrantStatus, now: str
    ) -> bool:
        """Move an entrant from ``was`` to ``status``; False if they were not ``was``."""
        ...

    async def set_seeds(self, seeds: Mapping[str, int]) -> None: ...

    async def set_places(self, places: Mapping[str, int]) -> None: ...

    async def add_round(
        self, number: int, seed: str | None, deadline: str | None, now: str
    ) -> None:
        """A round under way, with its pairings to add."""
        ...

    async def finish_round(self, number: int, now: str) -> bool: ...

    async def add_pairings(self, pairings: Sequence[PairingRow]) -> None:
        """Pairings of a round added with ``add_round`` (a bye may come decided)."""
        ...

    async def set_table(self, round_number: int, board: int, table_id: int) -> bool:
        """The match a waiting pairing is played in; False unless it was waiting."""
        ...

    async def decide(
        self,
        round_number: int,
        board: int,
        winner_id: str | None,
        decided_by: DecidedBy,
        scores: tuple[int | None, int | None],
        detail: JsonObject,
        now: str,
    ) -> bool:
        """A pairing's result; False (nothing written) if it already had one."""
        ...


class TournamentStore(Protocol):
    """Tournaments, seasons and divisions, and the reads of finished matches the tournament
    service needs. Times are ISO-8601 UTC text from the caller, as in ``Store``; the store
    never reads a clock."""

    async def create_tournament(
        self,
        guild_id: str,
        channel_id: str,
        organiser_id: str,
        format: TournamentFormat,
        settings: JsonObject,
        now: str,
        *,
        signup_closes_at: str | None = None,
    ) -> int:
        """A tournament taking sign-ups; ``TournamentBusy`` if the channel has one open. Its
        deadline is the sign-up's close."""
        ...

    def lock_tournament(self, tournament_id: int) -> AbstractAsyncContextManager[LockedTournament]:
        """``async with store.lock_tournament(id) as locked:`` holds the tournament for the
        block, as ``Store.lock_table`` holds a table: on PostgreSQL its row is locked (``FOR
        UPDATE``), so another process's writer of the same tournament waits; on SQLite the
        database is. ``NoSuchTournament`` if there is none."""
        ...

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None: ...

    async def tournament_in_channel(self, channel_id: str) -> TournamentRow | None:
        """The channel's open tournament, if any."""
        ...

    async def open_tournaments(self) -> list[TournamentRow]: ...

    async def pairing_of_table(self, table_id: int) -> PairingRow | None: ...

    async def due_tournament_deadlines(self, now: str) -> list[tuple[int, str]]: ...

    async def claim_tournament_deadline(
        self, tournament_id: int, deadline: str, claimant: str, now: str, until: str
    ) -> bool:
        """``Store.claim_deadline`` for a tournament's deadline."""
        ...

    async def next_tournament_deadline(self) -> str | None: ...

    async def guild_tournaments(
        self, guild_id: str, limit: int, offset: int
    ) -> tuple[list[TournamentRow], int]: ...

    async def player_tournaments(
        self, guild_id: str, user_id: str, limit: int, offset: int
    ) -> tuple[list[TournamentEntry], int]: ...

    async def season_schedules(self, guild_id: str) -> list[ScheduleRow]: ...

    async def add_season_schedule(self, row: ScheduleRow) -> None: ...

    async def get_season_settings(self, guild_id: str) -> SeasonSettingsRow | None: ...

    async def set_season_settings(self, row: SeasonSettingsRow, now: str) -> None: ...

    async def posting_guilds(self) -> list[SeasonSettingsRow]:
        """The settings of every server that has a standings channel."""
        ...

    async def season_leaderboard(
        self,
        guild_id: str,
        since: str,
        until: str,
        limit: int,
        offset: int,
        *,
        sort: LeaderSort = "wins",
        provisional_below: int = 0,
        mode: str = CLASSIC,
        division: tuple[str, int] | None = None,
    ) -> tuple[list[LeaderRow], int]:
        """``Store.leaderboard`` over the matches finished in ``[since, until)``; with
        ``division`` (a season's key, a division) only that division's members."""
        ...

    async def first_result_at(self, guild_id: str) -> str | None: ...

    async def division_members(self, guild_id: str, season: str) -> dict[str, int]: ...

    async def set_division_members(
        self, guild_id: str, season: str, members: Mapping[str, int]
    ) -> bool:
        """A season's divisions, written once: False (nothing written) if it has some."""
        ...

    async def last_division_season(self, guild_id: str, before: str) -> str | None: ...

    async def claim_season_post(
        self, guild_id: str, kind: PostKind, slot: str, claimant: str, now: str, until: str
    ) -> bool:
        """True for one claimant of a post not made yet (until ``until``; a claim that
        lapses without the post can be taken again)."""
        ...

    async def season_post_made(
        self, guild_id: str, kind: PostKind, slot: str, claimant: str, message_id: str, now: str
    ) -> bool: ...

    async def get_season_post(
        self, guild_id: str, kind: PostKind, slot: str
    ) -> SeasonPostRow | None: ...

    # ``Store``'s own: the players' names, and what the service reads of the matches its
    # pairings are played in.

    async def upsert_player(self, user_id: str, name: str, now: str) -> None: ...

    async def get_table(self, match_id: int) -> TableRow | None: ...

    async def results(self, match_id: int) -> list[ResultRow]: ...

    async def hands(self, match_id: int) -> list[HandRow]: ...

    async def get_ratings(
        self, guild_id: str, user_ids: Sequence[str], mode: str = CLASSIC
    ) -> dict[str, RatingRow]: ...


if TYPE_CHECKING:
    from bot.store.postgres import PostgresStore
    from bot.store.sqlite import SqliteStore

    def _both_stores(sqlite: SqliteStore, postgres: PostgresStore) -> list[TournamentStore]:
        """Never called: mypy checks here that both stores implement the interface."""
        return [sqlite, postgres]
