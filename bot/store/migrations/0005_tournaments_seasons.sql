-- Tournaments in a channel (their entrants, rounds and pairings) and seasons of a server's
-- leaderboard (the schedule as it changed, where and when standings are posted, divisions,
-- the posts made). A match of a tournament is an ordinary match, played in a thread; its
-- pairing names it. Times are ISO-8601 UTC text supplied by the bot; JSON columns hold TEXT.

CREATE TABLE tournaments (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id             TEXT NOT NULL,
    channel_id           TEXT NOT NULL,
    organiser_id         TEXT NOT NULL,
    format               TEXT NOT NULL CHECK (format IN ('swiss', 'knockout')),
    settings             TEXT NOT NULL,
    state                TEXT NOT NULL CHECK (state IN ('signup', 'running', 'finished', 'cancelled')),
    -- The round under way (or last played); 0 until the first is paired.
    round                INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    signup_closes_at     TEXT,
    -- The next timer event: sign-up closing, or the round's time running out. Claimed by
    -- one process before it acts, as a table's deadline is.
    deadline             TEXT,
    deadline_claim       TEXT,
    deadline_claim_until TEXT,
    created_at           TEXT NOT NULL,
    started_at           TEXT,
    finished_at          TEXT,
    updated_at           TEXT NOT NULL
);

-- At most one open tournament per channel; also serves the start-up scan of open ones.
CREATE UNIQUE INDEX tournaments_open_channel ON tournaments (channel_id)
    WHERE state IN ('signup', 'running');
CREATE INDEX tournaments_open_deadline ON tournaments (deadline)
    WHERE state IN ('signup', 'running') AND deadline IS NOT NULL;
CREATE INDEX tournaments_guild_created ON tournaments (guild_id, created_at);

-- Who entered: 'left' during sign-up (they may join again), 'dropped' once it started (never
-- paired again; their games stand). Seeds are given at the start, places at the end.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('joined', 'left', 'dropped')),
    seed          INTEGER CHECK (seed >= 1),
    place         INTEGER CHECK (place >= 1),
    joined_at     TEXT NOT NULL,
    left_at       TEXT,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE INDEX tournament_entrants_user ON tournament_entrants (user_id);

-- A round: its deal seed (duplicate tournaments only), when its time runs out.
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    number        INTEGER NOT NULL CHECK (number >= 1),
    seed          TEXT,
    deadline      TEXT,
    state         TEXT NOT NULL CHECK (state IN ('playing', 'finished')),
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    PRIMARY KEY (tournament_id, number)
);

-- A pairing of a round, on its board (the bracket position in a knockout): player_a sits in
-- seat 0 of its match; a bye has no player_b. 'waiting' until its match is started (then
-- table_id names it), 'decided' once it has a result: by the match, a bye, a walkover (the
-- opponent withdrew), the round's time limit, or nobody (both withdrew).
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL CHECK (board >= 0),
    player_a      TEXT NOT NULL,
    player_b      TEXT,
    is_bye        INTEGER NOT NULL DEFAULT 0 CHECK (is_bye IN (0, 1)),
    table_id      INTEGER REFERENCES matches (id),
    state         TEXT NOT NULL CHECK (state IN ('waiting', 'playing', 'decided')),
    winner_id     TEXT,
    decided_by    TEXT CHECK (decided_by IN ('match', 'bye', 'walkover', 'time', 'nobody')),
    score_a       INTEGER,
    score_b       INTEGER,
    detail        TEXT NOT NULL DEFAULT '{}',
    decided_at    TEXT,
    PRIMARY KEY (tournament_id, round, board),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, number),
    CHECK ((is_bye = 1) = (player_b IS NULL)),
    CHECK (player_b IS NULL OR player_b <> player_a),
    CHECK ((state = 'decided') = (decided_by IS NOT NULL))
);

-- A match belongs to one pairing at most; finding a finished match's pairing reads this.
CREATE UNIQUE INDEX tournament_pairings_table ON tournament_pairings (table_id)
    WHERE table_id IS NOT NULL;

-- A server's season schedule from each change on: the latest change before a moment says
-- which schedule cut it into seasons (none: monthly).
CREATE TABLE season_schedules (
    guild_id       TEXT NOT NULL,
    effective_from TEXT NOT NULL,
    cadence        TEXT NOT NULL CHECK (cadence IN ('monthly', 'weekly', 'days')),
    length_days    INTEGER CHECK (length_days >= 1),
    anchor         TEXT,
    PRIMARY KEY (guild_id, effective_from)
);

-- Where the standings are posted (none: no posts) and when, since when, and the divisions.
CREATE TABLE season_settings (
    guild_id        TEXT PRIMARY KEY,
    post_channel_id TEXT,
    post_weekday    INTEGER NOT NULL DEFAULT 0 CHECK (post_weekday BETWEEN 0 AND 6),
    post_hour       INTEGER NOT NULL DEFAULT 0 CHECK (post_hour BETWEEN 0 AND 23),
    posts_since     TEXT,
    divisions       INTEGER NOT NULL DEFAULT 0 CHECK (divisions BETWEEN 0 AND 10),
    promote         INTEGER NOT NULL DEFAULT 0 CHECK (promote >= 0),
    relegate        INTEGER NOT NULL DEFAULT 0 CHECK (relegate >= 0),
    updated_at      TEXT NOT NULL
);

-- Each season's divisions (by the season's key, its start), 0 the top one.
CREATE TABLE division_members (
    guild_id TEXT NOT NULL,
    season   TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    division INTEGER NOT NULL CHECK (division >= 0),
    PRIMARY KEY (guild_id, season, user_id)
);

-- Standings posts: one row per post ('weekly' by its slot, 'final' by the season's key),
-- claimed by one process until claim_until, then marked posted; a claim that lapses
-- unposted (its process died) can be taken again.
CREATE TABLE season_posts (
    guild_id    TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('weekly', 'final')),
    slot        TEXT NOT NULL,
    claimant    TEXT NOT NULL,
    claim_until TEXT NOT NULL,
    posted_at   TEXT,
    message_id  TEXT,
    PRIMARY KEY (guild_id, kind, slot)
);
