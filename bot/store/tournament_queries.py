"""The statements of tournaments and seasons, parameterised like ``queries.py`` and written in
SQL that SQLite and PostgreSQL read alike."""

from __future__ import annotations

from bot.store import queries as q

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, format, settings, state, round,"
    " signup_closes_at, deadline, created_at, started_at, finished_at, updated_at"
)
# Open tournaments, spelled exactly like the partial indexes so SQLite can use them.
OPEN = "state IN ('signup', 'running')"

CREATE_TOURNAMENT = """
INSERT INTO tournaments
    (guild_id, channel_id, organiser_id, format, settings, state, signup_closes_at, deadline,
     created_at, updated_at)
VALUES (?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?)
RETURNING id
"""

GET_TOURNAMENT = "SELECT " + TOURNAMENT_COLUMNS + " FROM tournaments WHERE id = ?"
OPEN_IN_CHANNEL = (
    "SELECT " + TOURNAMENT_COLUMNS + " FROM tournaments WHERE channel_id = ? AND " + OPEN
)
# No ORDER BY, so SQLite reads the partial index; the caller sorts the few rows.
OPEN_TOURNAMENTS = "SELECT " + TOURNAMENT_COLUMNS + " FROM tournaments WHERE " + OPEN

ENTRANTS = """
SELECT tournament_id, user_id, status, seed, place, joined_at, left_at, name
FROM tournament_entrants WHERE tournament_id = ? ORDER BY joined_at, user_id
"""
ROUNDS = """
SELECT tournament_id, number, seed, deadline, state, started_at, finished_at
FROM tournament_rounds WHERE tournament_id = ? ORDER BY number
"""
PAIRING_COLUMNS = (
    "tournament_id, round, board, player_a, player_b, table_id, state, winner_id, decided_by,"
    " score_a, score_b, detail, decided_at"
)
PAIRINGS = (
    "SELECT " + PAIRING_COLUMNS + " FROM tournament_pairings WHERE tournament_id = ?"
    " ORDER BY round, board"
)
PAIRING_OF_TABLE = "SELECT " + PAIRING_COLUMNS + " FROM tournament_pairings WHERE table_id = ?"

# started_at and finished_at are set once: the first start and the end stay as they were.
SET_STATE = """
UPDATE tournaments SET state = ?, started_at = COALESCE(started_at, ?),
    finished_at = COALESCE(finished_at, ?), updated_at = ?
WHERE id = ?
"""
SET_ROUND = "UPDATE tournaments SET round = ?, updated_at = ? WHERE id = ?"
SET_SETTINGS = "UPDATE tournaments SET settings = ?, updated_at = ? WHERE id = ?"
# A new deadline (or none) drops the old one's claim, as a table's does.
SET_DEADLINE = """
UPDATE tournaments SET deadline = ?, deadline_claim = NULL, deadline_claim_until = NULL,
    updated_at = ?
WHERE id = ?
"""

# A player who left during sign-up may join again; anyone else already in stays as they are
# (no row comes back).
JOIN = """
INSERT INTO tournament_entrants (tournament_id, user_id, status, joined_at, name)
VALUES (?, ?, 'joined', ?, ?)
ON CONFLICT (tournament_id, user_id) DO UPDATE
    SET status = 'joined', joined_at = excluded.joined_at, left_at = NULL,
        name = COALESCE(excluded.name, tournament_entrants.name)
    WHERE tournament_entrants.status = 'left'
RETURNING user_id
"""
SET_ENTRANT_STATUS = """
UPDATE tournament_entrants SET status = ?, left_at = ?
WHERE tournament_id = ? AND user_id = ? AND status = ?
RETURNING user_id
"""
SET_SEED = "UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ? AND user_id = ?"
SET_PLACE = "UPDATE tournament_entrants SET place = ? WHERE tournament_id = ? AND user_id = ?"

ADD_ROUND = """
INSERT INTO tournament_rounds (tournament_id, number, seed, deadline, state, started_at)
VALUES (?, ?, ?, ?, 'playing', ?)
"""
FINISH_ROUND = """
UPDATE tournament_rounds SET state = 'finished', finished_at = ?
WHERE tournament_id = ? AND number = ? AND state = 'playing'
RETURNING number
"""
ADD_PAIRING = """
INSERT INTO tournament_pairings
    (tournament_id, round, board, player_a, player_b, is_bye, table_id, state, winner_id,
     decided_by, score_a, score_b, detail, decided_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
# Only a pairing still waiting for its match takes one.
SET_PAIRING_TABLE = """
UPDATE tournament_pairings SET table_id = ?, state = 'playing'
WHERE tournament_id = ? AND round = ? AND board = ? AND state = 'waiting'
RETURNING board
"""
# A result is recorded once: a second one (the same match heard twice, or a time limit racing
# the match's end) changes nothing.
DECIDE_PAIRING = """
UPDATE tournament_pairings
SET state = 'decided', winner_id = ?, decided_by = ?, score_a = ?, score_b = ?, detail = ?,
    decided_at = ?
WHERE tournament_id = ? AND round = ? AND board = ? AND state <> 'decided'
RETURNING board
"""

# Timers: the same shape as the tables' (see queries.CLAIM_DEADLINE).
DUE_DEADLINES = (
    "SELECT id, deadline FROM tournaments WHERE " + OPEN + " AND deadline IS NOT NULL"
    " AND deadline <= :now AND (deadline_claim IS NULL OR deadline_claim_until <= :now)"
    " ORDER BY deadline, id"
)
NEXT_DEADLINE = "SELECT MIN(deadline) FROM tournaments WHERE " + OPEN + " AND deadline IS NOT NULL"
CLAIM_DEADLINE = (
    "UPDATE tournaments SET deadline_claim = :claimant, deadline_claim_until = :until"
    " WHERE id = :id AND " + OPEN + " AND deadline = :deadline AND deadline <= :now"
    " AND (deadline_claim IS NULL OR deadline_claim_until <= :now) RETURNING id"
)

GUILD_TOURNAMENTS = (
    "SELECT " + TOURNAMENT_COLUMNS + " FROM tournaments WHERE guild_id = ?"
    " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?"
)
GUILD_TOURNAMENTS_SIZE = "SELECT COUNT(*) FROM tournaments WHERE guild_id = ?"

# A player's tournaments in a guild, newest first; sign-ups they left are not theirs.
PLAYER_TOURNAMENTS = """
SELECT t.id, t.channel_id, t.format, t.state, t.created_at, t.finished_at, e.status, e.seed,
       e.place,
       (SELECT COUNT(*) FROM tournament_entrants AS n
        WHERE n.tournament_id = t.id AND n.status <> 'left') AS entrants
FROM tournament_entrants AS e JOIN tournaments AS t ON t.id = e.tournament_id
WHERE t.guild_id = ? AND e.user_id = ? AND e.status <> 'left'
ORDER BY t.created_at DESC, t.id DESC
LIMIT ? OFFSET ?
"""
PLAYER_TOURNAMENTS_SIZE = """
SELECT COUNT(*) FROM tournament_entrants AS e JOIN tournaments AS t ON t.id = e.tournament_id
WHERE t.guild_id = ? AND e.user_id = ? AND e.status <> 'left'
"""

# -- seasons ----------------------------------------------------------------------------------

SEASON_SCHEDULES = """
SELECT guild_id, effective_from, cadence, length_days, anchor FROM season_schedules
WHERE guild_id = ? ORDER BY effective_from
"""
ADD_SEASON_SCHEDULE = """
INSERT INTO season_schedules (guild_id, effective_from, cadence, length_days, anchor)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (guild_id, effective_from) DO UPDATE SET
    cadence = excluded.cadence, length_days = excluded.length_days, anchor = excluded.anchor
"""

SEASON_SETTINGS_COLUMNS = (
    "guild_id, post_channel_id, post_weekday, post_hour, posts_since, divisions, promote, relegate"
)
GET_SEASON_SETTINGS = (
    "SELECT " + SEASON_SETTINGS_COLUMNS + " FROM season_settings WHERE guild_id = ?"
)
SET_SEASON_SETTINGS = """
INSERT INTO season_settings
    (guild_id, post_channel_id, post_weekday, post_hour, posts_since, divisions, promote,
     relegate, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET
    post_channel_id = excluded.post_channel_id, post_weekday = excluded.post_weekday,
    post_hour = excluded.post_hour, posts_since = excluded.posts_since,
    divisions = excluded.divisions, promote = excluded.promote, relegate = excluded.relegate,
    updated_at = excluded.updated_at
"""
POSTING_GUILDS = (
    "SELECT " + SEASON_SETTINGS_COLUMNS + " FROM season_settings"
    " WHERE post_channel_id IS NOT NULL ORDER BY guild_id"
)

DIVISION_MEMBERS = """
SELECT user_id, division FROM division_members WHERE guild_id = ? AND season = ?
ORDER BY division, user_id
"""
ADD_DIVISION_MEMBER = """
INSERT INTO division_members (guild_id, season, user_id, division) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id, season, user_id) DO NOTHING
"""
HAS_DIVISIONS = "SELECT COUNT(*) FROM division_members WHERE guild_id = ? AND season = ?"
# The latest season before ``season`` with divisions, to roll them on from.
LAST_DIVISION_SEASON = "SELECT MAX(season) FROM division_members WHERE guild_id = ? AND season < ?"

# One claimant gets a post: a new row, or one whose claim lapsed before it was posted; of
# two racing claims the database lets one through.
CLAIM_POST = """
INSERT INTO season_posts (guild_id, kind, slot, claimant, claim_until)
VALUES (:guild, :kind, :slot, :claimant, :until)
ON CONFLICT (guild_id, kind, slot) DO UPDATE
    SET claimant = excluded.claimant, claim_until = excluded.claim_until
    WHERE season_posts.posted_at IS NULL AND season_posts.claim_until <= :now
RETURNING slot
"""
POST_MADE = """
UPDATE season_posts SET posted_at = ?, message_id = ?
WHERE guild_id = ? AND kind = ? AND slot = ? AND claimant = ? AND posted_at IS NULL
RETURNING slot
"""
GET_POST = """
SELECT guild_id, kind, slot, claimant, claim_until, posted_at, message_id FROM season_posts
WHERE guild_id = ? AND kind = ? AND slot = ?
"""

FIRST_RESULT = "SELECT MIN(finished_at) FROM results WHERE guild_id = ? AND is_bot = 0"

# The season's standings: the leaderboard's own statement with its results limited to those
# finished in [:since, :until) and, given a :division, to that division's members in the
# season keyed :season. Times compare as text, written as the bot writes them.
_IN_SEASON = (
    q._COUNTED
    + """        AND r.finished_at >= :since AND r.finished_at < :until
        AND (CAST(:division AS INTEGER) IS NULL OR r.user_id IN (
            SELECT d.user_id FROM division_members AS d
            WHERE d.guild_id = :guild AND d.season = :season
                AND d.division = CAST(:division AS INTEGER)
        ))
"""
)


def _in_season(sql: str) -> str:
    if sql.count(q._COUNTED) != 1:
        raise ValueError("the leaderboard's statement no longer holds its counted results once")
    return sql.replace(q._COUNTED, _IN_SEASON)


SEASON_LEADERBOARD = {sort: _in_season(sql) for sort, sql in q.LEADERBOARD.items()}
SEASON_STANDINGS_SIZE = _in_season(q.STANDINGS_SIZE)
