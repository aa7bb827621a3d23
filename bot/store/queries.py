"""The store's statements, all parameterised: values only ever travel as ``?`` parameters.

Written in SQL that SQLite and PostgreSQL read alike; ``bot.store.dialect`` turns the
parameters into PostgreSQL's.
"""

TABLE_COLUMNS = (
    "id, guild_id, channel_id, status, challenger_id, opponent_id, settings, state,"
    " move_count, display, created_at, updated_at, finished_at, winner_id, end_reason,"
    " deadline, vs_bot, mode"
)

# Open tables, spelled exactly like the partial indexes so SQLite can use them.
OPEN = "status IN ('challenge', 'playing')"

UPSERT_PLAYER = """
INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
"""

CREATE_CHALLENGE = """
INSERT INTO matches
    (guild_id, channel_id, status, challenger_id, opponent_id, settings, created_at, updated_at,
     vs_bot, mode)
VALUES (?, ?, 'challenge', ?, ?, ?, ?, ?, ?, ?)
RETURNING id
"""

OPEN_MATCH_IN_CHANNEL = """
SELECT id FROM matches WHERE channel_id = ? AND status IN ('challenge', 'playing')
"""

SET_DISPLAY = "UPDATE matches SET display = ?, updated_at = ? WHERE id = ? RETURNING id"

START_MATCH = """
UPDATE matches SET status = 'playing', state = ?, updated_at = ?
WHERE id = ? AND status = 'challenge'
RETURNING challenger_id, opponent_id, vs_bot
"""

INSERT_SEAT = """
INSERT INTO seats (match_id, seat, user_id, team, is_bot) VALUES (?, ?, ?, ?, ?)
"""

SEATS = "SELECT seat, user_id, team, is_bot FROM seats WHERE match_id = ? ORDER BY seat"

# The seats of every open table, for the start-up scan (challenges have none yet).
OPEN_SEATS = (
    "SELECT match_id, seat, user_id, team, is_bot FROM seats WHERE match_id IN"
    " (SELECT id FROM matches WHERE " + OPEN + ") ORDER BY match_id, seat"
)

# Clearing a deadline clears its claim too (see CLAIM_DEADLINE).
NO_DEADLINE = "deadline = NULL, deadline_claim = NULL, deadline_claim_until = NULL"

CLOSE_CHALLENGE = (
    """
UPDATE matches SET status = ?, updated_at = ?, finished_at = ?, """
    + NO_DEADLINE
    + """
WHERE id = ? AND status = 'challenge'
RETURNING id
"""
)

# The seq check lives in the WHERE clause, so two racing writers cannot both succeed; the
# returned row tells whether it let the move through. Named parameters: :state, :seq (the
# new move_count), :now, :display (None keeps it), :change_deadline (0/1) and :deadline, :id,
# :before (the move count expected before the move). A new deadline drops the old one's claim.
ADVANCE_MATCH = """
UPDATE matches SET state = :state, move_count = :seq, updated_at = :now,
    display = CASE
        WHEN :timers IS NULL THEN COALESCE(:display, display)
        ELSE json_set(json_remove(display, '$.timer'), '$.timers', json(:timers))
    END,
    deadline = CASE WHEN :change_deadline = 1 THEN :deadline ELSE deadline END,
    deadline_claim = CASE WHEN :change_deadline = 1 THEN NULL ELSE deadline_claim END,
    deadline_claim_until = CASE
        WHEN :change_deadline = 1 THEN NULL ELSE deadline_claim_until
    END
WHERE id = :id AND status = 'playing' AND move_count = :before
RETURNING id
"""

END_MATCH = (
    """
UPDATE matches
SET status = ?, state = COALESCE(?, state), winner_id = ?, end_reason = ?,
    finished_at = ?, updated_at = ?, """
    + NO_DEADLINE
    + """
WHERE id = ? AND status = 'playing'
RETURNING guild_id, challenger_id, opponent_id, vs_bot, mode
"""
)

SET_DEADLINE = (
    "UPDATE matches SET deadline = ?, deadline_claim = NULL, deadline_claim_until = NULL,"
    " updated_at = ? WHERE id = ? AND " + OPEN + " RETURNING id"
)

# One claimant gets a due deadline: the guard lets the UPDATE through only while nobody holds
# a claim that is still good, and of two racing claims the database lets one win. Named
# parameters: :claimant, :until (when the claim lapses), :id, :deadline (the one the caller
# saw due), :now.
CLAIM_DEADLINE = (
    "UPDATE matches SET deadline_claim = :claimant, deadline_claim_until = :until"
    " WHERE id = :id AND " + OPEN + " AND deadline = :deadline AND deadline <= :now"
    " AND (deadline_claim IS NULL OR deadline_claim_until <= :now) RETURNING id"
)

MATCH_EXISTS = "SELECT id FROM matches WHERE id = ?"
MATCH_STATUS = "SELECT status, move_count FROM matches WHERE id = ?"

# Both read only the partial index of open tables that have a deadline.
# A deadline another process has claimed (and may be acting on) is not due to anyone else
# until the claim lapses.
DUE_DEADLINES = (
    "SELECT id, deadline FROM matches WHERE " + OPEN + " AND deadline IS NOT NULL"
    " AND deadline <= :now AND (deadline_claim IS NULL OR deadline_claim_until <= :now)"
    " ORDER BY deadline, id"
)

NEXT_DEADLINE = "SELECT MIN(deadline) FROM matches WHERE " + OPEN + " AND deadline IS NOT NULL"

GET_GUILD_SETTINGS = "SELECT data FROM guild_settings WHERE guild_id = ?"

SET_GUILD_SETTINGS = """
INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
"""

UPSERT_RATING = """
INSERT INTO ratings (guild_id, user_id, mode, mu, sigma, matches, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id, mode) DO UPDATE SET
    mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches,
    updated_at = excluded.updated_at
"""


def get_ratings(count: int) -> str:
    """Ratings of ``count`` users of one guild and mode: the guild's ``?``, the mode's, then
    one per user id."""
    marks = ", ".join("?" * count)
    return (
        "SELECT guild_id, user_id, mode, mu, sigma, matches FROM ratings"
        f" WHERE guild_id = ? AND mode = ? AND user_id IN ({marks})"
    )


INSERT_MOVE = """
INSERT INTO moves (match_id, seq, hand_number, seat, action, created_at)
VALUES (?, ?, ?, ?, ?, ?)
"""

INSERT_HAND = """
INSERT INTO hands
    (match_id, number, board, dealer_seat, seed, outcome, knocker_seat, winner_seat, points,
     result, dealt)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

INSERT_RESULT = """
INSERT INTO results
    (match_id, guild_id, user_id, seat, opponent_id, won, points, final_score, reason,
     finished_at, place, team, is_bot)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

# Scans only the partial unique index of open tables. No ORDER BY: that would make SQLite
# prefer a full table scan, so the caller sorts the (few) rows.
OPEN_TABLES = "SELECT " + TABLE_COLUMNS + " FROM matches WHERE " + OPEN

GET_TABLE = "SELECT " + TABLE_COLUMNS + " FROM matches WHERE id = ?"

MOVES = """
SELECT match_id, seq, hand_number, seat, action, created_at
FROM moves WHERE match_id = ? ORDER BY seq
"""

HANDS = """
SELECT match_id, number, board, dealer_seat, seed, outcome, knocker_seat, winner_seat, points,
       result
FROM hands WHERE match_id = ? ORDER BY number, board
"""

RESULTS = """
SELECT match_id, guild_id, user_id, seat, opponent_id, won, points, final_score, reason,
       finished_at, place, team, is_bot
FROM results WHERE match_id = ? ORDER BY seat
"""

# Standings from the results of one mode: matches played and won, and two totals that
# must not be confused: ``final_scores`` adds up each match's final score (its hand points
# plus the game, box and shutout bonuses: the figure the match-over message and the history
# show), ``hand_points`` only the points won in hands (the running total the table shows).
# A bot's own rows never count. Human standings (:vs_bot = 0) take the matches without a
# bot seat; records against the bot (:vs_bot = 1) the human rows of matches with one. Every
# seat has a result row, so a bot seat shows there.
# Named parameters: :guild, :mode, :vs_bot, :provisional_below, :limit, :offset.
_COUNTED = """
    FROM results AS r JOIN matches AS m ON m.id = r.match_id
    WHERE r.guild_id = :guild AND m.mode = :mode AND r.is_bot = 0
        AND CASE WHEN EXISTS (
            SELECT 1 FROM results AS b WHERE b.match_id = r.match_id AND b.is_bot = 1
        ) THEN 1 ELSE 0 END = :vs_bot
"""

_STANDINGS = (
    """
WITH totals AS (
    SELECT r.user_id, COUNT(*) AS played, COUNT(*) FILTER (WHERE r.place = 1) AS won,
           SUM(r.points) AS hand_points, SUM(r.final_score) AS final_scores"""
    + _COUNTED
    + """    GROUP BY r.user_id
)
SELECT t.user_id, p.name, t.played, t.won, t.hand_points, t.final_scores, g.mu, g.sigma,
       g.mu - 3.0 * g.sigma AS rating, t.played < :provisional_below AS provisional
FROM totals AS t
LEFT JOIN players AS p ON p.user_id = t.user_id
LEFT JOIN ratings AS g
    ON g.guild_id = :guild AND g.user_id = t.user_id AND g.mode = :mode AND :vs_bot = 0
ORDER BY {order}
LIMIT :limit OFFSET :offset
"""
)

BY_WINS = (
    "t.won DESC, CAST(t.won AS DOUBLE PRECISION) / t.played DESC, t.final_scores DESC, t.user_id"
)

# One fixed statement per sort: the ORDER BY is never built from caller input. The sort
# named "points" ranks by the total of final scores, bonuses included.
LEADERBOARD = {
    "wins": _STANDINGS.format(order=BY_WINS),
    "points": _STANDINGS.format(order="t.final_scores DESC, t.won DESC, t.user_id"),
    "rating": _STANDINGS.format(
        order="t.played < :provisional_below, g.mu IS NULL, g.mu - 3.0 * g.sigma DESC,"
        " t.won DESC, t.user_id"
    ),
}

STANDINGS_SIZE = "SELECT COUNT(DISTINCT r.user_id)" + _COUNTED

# The opponent's columns are NULL unless the match had two seats (only then is there one).
# Parameters: guild, user, mode, limit, offset.
HISTORY = """
SELECT r.match_id, r.opponent_id, p.name AS opponent_name, r.won, r.points, r.final_score,
       o.final_score AS opponent_final_score, r.reason, r.finished_at, m.vs_bot, m.mode,
       r.place, (SELECT COUNT(*) FROM results AS n WHERE n.match_id = r.match_id) AS players
FROM results AS r
JOIN matches AS m ON m.id = r.match_id
LEFT JOIN results AS o ON o.match_id = r.match_id AND o.user_id = r.opponent_id
LEFT JOIN players AS p ON p.user_id = r.opponent_id
WHERE r.guild_id = ? AND r.user_id = ? AND m.mode = ?
ORDER BY r.finished_at DESC, r.match_id DESC
LIMIT ? OFFSET ?
"""

HISTORY_SIZE = """
SELECT COUNT(*) FROM results AS r JOIN matches AS m ON m.id = r.match_id
WHERE r.guild_id = ? AND r.user_id = ? AND m.mode = ?
"""

# Hands belong to whoever held a seat, as recorded in that match's results; so only hands
# of finished matches count, the same matches "played" counts. A hand counts as played by
# the seats dealt into it (its ``dealt`` bits; NULL for two-player hands stored before hands
# named their seats, which both seats played). An undercut is made by the defender who
# scored it (the winner) and suffered by the knocker. Named parameters: :guild, :user, :mode.
PLAYER_STATS = """
WITH mine AS (
    SELECT r.match_id, r.seat, CASE WHEN r.place = 1 THEN 1 ELSE 0 END AS won, r.points,
           r.final_score
    FROM results AS r JOIN matches AS m ON m.id = r.match_id
    WHERE r.guild_id = :guild AND r.user_id = :user AND m.mode = :mode
),
match_totals AS (
    SELECT COUNT(*) AS played, COALESCE(SUM(won), 0) AS won,
           COALESCE(SUM(points), 0) AS hand_points,
           COALESCE(SUM(final_score), 0) AS final_scores
    FROM mine
),
hand_totals AS (
    SELECT
        COUNT(*) AS hands_played,
        COUNT(*) FILTER (WHERE h.winner_seat = m.seat) AS hands_won,
        COUNT(*) FILTER (WHERE h.knocker_seat = m.seat) AS knocks,
        COUNT(*) FILTER (WHERE h.winner_seat = m.seat AND h.outcome = 'knock') AS knock_wins,
        COUNT(*) FILTER (WHERE h.winner_seat = m.seat AND h.outcome = 'gin') AS gins,
        COUNT(*) FILTER (WHERE h.winner_seat = m.seat AND h.outcome = 'big_gin') AS big_gins,
        COUNT(*) FILTER (
            WHERE h.winner_seat = m.seat AND h.outcome = 'undercut'
        ) AS undercuts_made,
        COUNT(*) FILTER (
            WHERE h.knocker_seat = m.seat AND h.outcome = 'undercut'
        ) AS undercuts_suffered
    FROM mine AS m JOIN hands AS h ON h.match_id = m.match_id
    WHERE h.dealt IS NULL OR (h.dealt >> m.seat) & 1 = 1
)
SELECT (SELECT name FROM players WHERE user_id = :user) AS name, t.*, h.*,
       g.mu, g.sigma, g.mu - 3.0 * g.sigma AS rating, COALESCE(g.matches, 0) AS rating_matches
FROM match_totals AS t
CROSS JOIN hand_totals AS h
LEFT JOIN ratings AS g ON g.guild_id = :guild AND g.user_id = :user AND g.mode = :mode
"""

# Newest first, the order streaks are counted in.
WON_SEQUENCE = """
SELECT r.place = 1 FROM results AS r JOIN matches AS m ON m.id = r.match_id
WHERE r.guild_id = ? AND r.user_id = ? AND m.mode = ?
ORDER BY r.finished_at DESC, r.match_id DESC
"""

COUNTS = """
SELECT
    (SELECT COUNT(*) FROM players) AS players,
    (SELECT COUNT(*) FROM matches) AS matches,
    (SELECT COUNT(*) FROM seats) AS seats,
    (SELECT COUNT(*) FROM moves) AS moves,
    (SELECT COUNT(*) FROM hands) AS hands,
    (SELECT COUNT(*) FROM results) AS results,
    (SELECT COUNT(*) FROM ratings) AS ratings,
    (SELECT COUNT(*) FROM guild_settings) AS guild_settings
"""


def standings_params(
    guild_id: str, limit: int, offset: int, vs_bot: bool, provisional_below: int, mode: str
) -> dict[str, object]:
    """The named parameters of ``LEADERBOARD`` and ``STANDINGS_SIZE``."""
    if limit < 0 or offset < 0:
        raise ValueError("limit and offset must not be negative")
    return {
        "guild": guild_id,
        "mode": mode,
        "vs_bot": 1 if vs_bot else 0,
        "provisional_below": provisional_below,
        "limit": limit,
        "offset": offset,
    }


# A hand's review, claimed by the one caller that makes it: a new row, or a 'working' claim
# whose maker died (it lapsed). Named parameters: :match, :hand, :board, :seat, :now, :lapses.
CLAIM_REVIEW = (
    "INSERT INTO reviews (match_id, hand, board, seat, state, lapses)"
    " VALUES (:match, :hand, :board, :seat, 'working', :lapses)"
    " ON CONFLICT (match_id, hand, board, seat) DO UPDATE SET lapses = excluded.lapses"
    " WHERE reviews.state = 'working' AND reviews.lapses <= :now RETURNING match_id"
)
REVIEW_STATE = (
    "SELECT state FROM reviews WHERE match_id = ? AND hand = ? AND board = ? AND seat = ?"
)
REVIEW_SENT = (
    "UPDATE reviews SET state = 'sent' WHERE match_id = ? AND hand = ? AND board = ? AND seat = ?"
)
REVIEW_DROPPED = (
    "DELETE FROM reviews WHERE match_id = ? AND hand = ? AND board = ? AND seat = ?"
    " AND state = 'working'"
)
