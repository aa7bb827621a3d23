-- Tables, moves, hands and results for Gin Rummy tables, one open table per channel.
-- Times are ISO-8601 UTC text supplied by the bot; JSON columns hold TEXT.

CREATE TABLE players (
    user_id    TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE matches (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      TEXT NOT NULL,
    channel_id    TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (
        status IN ('challenge', 'playing', 'finished', 'declined', 'expired', 'cancelled')
    ),
    challenger_id TEXT NOT NULL,
    opponent_id   TEXT NOT NULL CHECK (opponent_id <> challenger_id),
    settings      TEXT NOT NULL,
    state         TEXT,
    move_count    INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0),
    display       TEXT NOT NULL DEFAULT '{}',
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    finished_at   TEXT,
    winner_id     TEXT,
    end_reason    TEXT
);

-- At most one open table per channel; also serves the start-up scan of open tables.
CREATE UNIQUE INDEX matches_open_channel ON matches (channel_id)
    WHERE status IN ('challenge', 'playing');

CREATE TABLE moves (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    hand_number INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    action      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);

CREATE TABLE hands (
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    number       INTEGER NOT NULL,
    dealer_seat  INTEGER NOT NULL,
    seed         TEXT NOT NULL,
    outcome      TEXT NOT NULL CHECK (outcome IN ('knock', 'undercut', 'gin', 'big_gin', 'void')),
    knocker_seat INTEGER,
    winner_seat  INTEGER,
    points       INTEGER NOT NULL,
    result       TEXT NOT NULL,
    PRIMARY KEY (match_id, number),
    CHECK ((outcome = 'void') = (winner_seat IS NULL))
);

-- One row per player of a finished match. The seat here is the seat hands use,
-- which is how hand wins are attributed to users.
CREATE TABLE results (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    guild_id    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    seat        INTEGER NOT NULL,
    opponent_id TEXT NOT NULL,
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    points      INTEGER NOT NULL,
    final_score INTEGER NOT NULL,
    reason      TEXT NOT NULL CHECK (reason IN ('target', 'resign', 'forfeit')),
    finished_at TEXT NOT NULL,
    PRIMARY KEY (match_id, user_id),
    UNIQUE (match_id, seat)
);

CREATE INDEX results_guild_user ON results (guild_id, user_id);
