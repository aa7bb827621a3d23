-- Matches of more than two players: a mode per match, its seats, places in the results, two
-- boards per hand for teams and a rating per mode. Every row already stored keeps its meaning.
-- SQLite cannot change a column's constraints, so results, hands and ratings are rebuilt.

-- The match's mode by name; everything stored before is the two-player game.
ALTER TABLE matches ADD COLUMN mode TEXT NOT NULL DEFAULT 'classic';

-- Who sits where once a match starts. Bot seats of multi-player matches carry pseudo user ids
-- ("bot:3"), unique within their match; partners of a teams match share a team number.
CREATE TABLE seats (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    user_id  TEXT NOT NULL,
    team     INTEGER,
    is_bot   INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
);

-- Every started match so far was two-player: the challenger in seat 0, the opponent in seat 1
-- (the bot's own account when the match was against the bot).
INSERT INTO seats (match_id, seat, user_id, team, is_bot)
SELECT id, 0, challenger_id, NULL, 0 FROM matches WHERE state IS NOT NULL;
INSERT INTO seats (match_id, seat, user_id, team, is_bot)
SELECT id, 1, opponent_id, NULL, vs_bot FROM matches WHERE state IS NOT NULL;

-- Results: a place per seat (1 is best; partners share theirs), the team, whether the seat was
-- a bot's; the opponent only for two-seat matches; 'last_left' ends an elimination match.
CREATE TABLE results_v3 (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    guild_id    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    seat        INTEGER NOT NULL,
    opponent_id TEXT,
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    points      INTEGER NOT NULL,
    final_score INTEGER NOT NULL,
    reason      TEXT NOT NULL CHECK (reason IN ('target', 'resign', 'forfeit', 'last_left')),
    finished_at TEXT NOT NULL,
    place       INTEGER NOT NULL CHECK (place >= 1),
    team        INTEGER,
    is_bot      INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    PRIMARY KEY (match_id, user_id),
    UNIQUE (match_id, seat),
    CHECK (won = (place = 1))
);

INSERT INTO results_v3
    (match_id, guild_id, user_id, seat, opponent_id, won, points, final_score, reason,
     finished_at, place, team, is_bot)
SELECT r.match_id, r.guild_id, r.user_id, r.seat, r.opponent_id, r.won, r.points,
       r.final_score, r.reason, r.finished_at,
       CASE WHEN r.won = 1 THEN 1 ELSE 2 END,
       NULL,
       CASE WHEN m.vs_bot = 1 AND r.seat = 1 THEN 1 ELSE 0 END
FROM results AS r JOIN matches AS m ON m.id = r.match_id;

DROP TABLE results;
ALTER TABLE results_v3 RENAME TO results;
CREATE INDEX results_guild_user_finished ON results (guild_id, user_id, finished_at);

-- Hands: teams play two boards per hand number. ``dealt`` has bit n set when seat n was dealt
-- into the board (a three-player dealer sits out, a player out of an elimination match is not
-- dealt again); NULL for hands recorded before hands named their seats, all two-player ones
-- where both seats played.
CREATE TABLE hands_v3 (
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    number       INTEGER NOT NULL,
    board        INTEGER NOT NULL DEFAULT 0 CHECK (board >= 0),
    dealer_seat  INTEGER NOT NULL,
    seed         TEXT NOT NULL,
    outcome      TEXT NOT NULL CHECK (outcome IN ('knock', 'undercut', 'gin', 'big_gin', 'void')),
    knocker_seat INTEGER,
    winner_seat  INTEGER,
    points       INTEGER NOT NULL,
    result       TEXT NOT NULL,
    dealt        INTEGER,
    PRIMARY KEY (match_id, number, board),
    CHECK ((outcome = 'void') = (winner_seat IS NULL))
);

INSERT INTO hands_v3
    (match_id, number, board, dealer_seat, seed, outcome, knocker_seat, winner_seat, points,
     result, dealt)
SELECT h.match_id, h.number, 0, h.dealer_seat, h.seed, h.outcome, h.knocker_seat,
       h.winner_seat, h.points, h.result,
       CASE WHEN json_valid(h.result) THEN
           CASE WHEN json_type(h.result, '$.seats') = 'array' THEN (
               SELECT COALESCE(SUM(DISTINCT 1 << s.value), 0) FROM json_each(h.result, '$.seats') AS s
               WHERE s.type = 'integer' AND s.value BETWEEN 0 AND 62
           ) END
       END
FROM hands AS h;

DROP TABLE hands;
ALTER TABLE hands_v3 RENAME TO hands;

-- Ratings: one per player, guild and mode, so a mode's ranking never mixes with another's.
CREATE TABLE ratings_v3 (
    guild_id   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    mode       TEXT NOT NULL DEFAULT 'classic',
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL CHECK (sigma > 0),
    matches    INTEGER NOT NULL DEFAULT 0 CHECK (matches >= 0),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id, mode)
);

INSERT INTO ratings_v3 (guild_id, user_id, mode, mu, sigma, matches, updated_at)
SELECT guild_id, user_id, 'classic', mu, sigma, matches, updated_at FROM ratings;

DROP TABLE ratings;
ALTER TABLE ratings_v3 RENAME TO ratings;
