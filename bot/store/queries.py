"""SQLite statements, all parameterised: values only ever travel as ``?`` parameters."""

TABLE_COLUMNS = (
    "id, guild_id, channel_id, status, challenger_id, opponent_id, settings, state,"
    " move_count, display, created_at, updated_at, finished_at, winner_id, end_reason"
)

UPSERT_PLAYER = """
INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
"""

CREATE_CHALLENGE = """
INSERT INTO matches
    (guild_id, channel_id, status, challenger_id, opponent_id, settings, created_at, updated_at)
VALUES (?, ?, 'challenge', ?, ?, ?, ?, ?)
RETURNING id
"""

OPEN_MATCH_IN_CHANNEL = """
SELECT id FROM matches WHERE channel_id = ? AND status IN ('challenge', 'playing')
"""

SET_DISPLAY = "UPDATE matches SET display = ?, updated_at = ? WHERE id = ? RETURNING id"

START_MATCH = """
UPDATE matches SET status = 'playing', state = ?, updated_at = ?
WHERE id = ? AND status = 'challenge'
RETURNING id
"""

CLOSE_CHALLENGE = """
UPDATE matches SET status = ?, updated_at = ?, finished_at = ?
WHERE id = ? AND status = 'challenge'
RETURNING id
"""

# The seq check lives in the WHERE clause, so two racing writers cannot both succeed.
ADVANCE_MATCH = """
UPDATE matches SET state = ?, move_count = ?, updated_at = ?
WHERE id = ? AND status = 'playing' AND move_count = ?
RETURNING guild_id, challenger_id, opponent_id
"""

END_MATCH = """
UPDATE matches
SET status = ?, state = COALESCE(?, state), winner_id = ?, end_reason = ?,
    finished_at = ?, updated_at = ?
WHERE id = ? AND status = 'playing'
RETURNING guild_id, challenger_id, opponent_id
"""

INSERT_MOVE = """
INSERT INTO moves (match_id, seq, hand_number, seat, action, created_at)
VALUES (?, ?, ?, ?, ?, ?)
"""

INSERT_HAND = """
INSERT INTO hands
    (match_id, number, dealer_seat, seed, outcome, knocker_seat, winner_seat, points, result)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

INSERT_RESULT = """
INSERT INTO results
    (match_id, guild_id, user_id, seat, opponent_id, won, points, final_score, reason,
     finished_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

# Scans only the partial unique index of open tables. No ORDER BY: that would make SQLite
# prefer a full table scan, so the caller sorts the (few) rows.
OPEN_TABLES = "SELECT " + TABLE_COLUMNS + " FROM matches WHERE status IN ('challenge', 'playing')"

GET_TABLE = "SELECT " + TABLE_COLUMNS + " FROM matches WHERE id = ?"

MOVES = """
SELECT match_id, seq, hand_number, seat, action, created_at
FROM moves WHERE match_id = ? ORDER BY seq
"""

HANDS = """
SELECT match_id, number, dealer_seat, seed, outcome, knocker_seat, winner_seat, points, result
FROM hands WHERE match_id = ? ORDER BY number
"""

RESULTS = """
SELECT match_id, guild_id, user_id, seat, opponent_id, won, points, final_score, reason,
       finished_at
FROM results WHERE match_id = ? ORDER BY seat
"""

LEADERBOARD = """
WITH totals AS (
    SELECT user_id, COUNT(*) AS played, SUM(won) AS won, SUM(points) AS points
    FROM results WHERE guild_id = ? GROUP BY user_id
)
SELECT t.user_id, p.name, t.played, t.won, t.points
FROM totals AS t LEFT JOIN players AS p ON p.user_id = t.user_id
ORDER BY t.won DESC, CAST(t.won AS REAL) / t.played DESC, t.points DESC, t.user_id
LIMIT ? OFFSET ?
"""

LEADERBOARD_SIZE = "SELECT COUNT(DISTINCT user_id) FROM results WHERE guild_id = ?"

# A hand belongs to whoever held its winning seat, as recorded in that match's results;
# so only hands of finished matches count, the same matches "played" counts.
PLAYER_STATS = """
WITH mine AS (
    SELECT match_id, seat, won, points FROM results WHERE guild_id = ? AND user_id = ?
),
won_hands AS (
    SELECT h.outcome FROM mine AS m
    JOIN hands AS h ON h.match_id = m.match_id AND h.winner_seat = m.seat
)
SELECT
    (SELECT name FROM players WHERE user_id = ?) AS name,
    (SELECT COUNT(*) FROM mine) AS played,
    (SELECT COALESCE(SUM(won), 0) FROM mine) AS won,
    (SELECT COALESCE(SUM(points), 0) FROM mine) AS points,
    (SELECT COUNT(*) FROM won_hands) AS hands_won,
    (SELECT COUNT(*) FROM won_hands WHERE outcome = 'gin') AS gins,
    (SELECT COUNT(*) FROM won_hands WHERE outcome = 'big_gin') AS big_gins,
    (SELECT COUNT(*) FROM won_hands WHERE outcome = 'undercut') AS undercuts,
    (SELECT COUNT(*) FROM won_hands WHERE outcome = 'knock') AS knocks
"""

COUNTS = """
SELECT
    (SELECT COUNT(*) FROM players) AS players,
    (SELECT COUNT(*) FROM matches) AS matches,
    (SELECT COUNT(*) FROM moves) AS moves,
    (SELECT COUNT(*) FROM hands) AS hands,
    (SELECT COUNT(*) FROM results) AS results
"""
