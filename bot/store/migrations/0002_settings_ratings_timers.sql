-- Server settings, skill ratings, timers that survive restarts, and matches against the bot.

-- Per-guild settings as one JSON object; the store does not look inside.
CREATE TABLE guild_settings (
    guild_id   TEXT PRIMARY KEY,
    data       TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- One skill rating per player and guild, from human matches only.
CREATE TABLE ratings (
    guild_id   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL CHECK (sigma > 0),
    matches    INTEGER NOT NULL DEFAULT 0 CHECK (matches >= 0),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- The next timer event of an open table (challenge expiry, turn reminder, forfeit).
ALTER TABLE matches ADD COLUMN deadline TEXT;

-- A match against the bot's own account (always the opponent); kept off the leaderboard.
ALTER TABLE matches ADD COLUMN vs_bot INTEGER NOT NULL DEFAULT 0 CHECK (vs_bot IN (0, 1));

-- Only open tables with a timer: the scheduler's scans stay as small as the open tables.
CREATE INDEX matches_open_deadline ON matches (deadline)
    WHERE status IN ('challenge', 'playing') AND deadline IS NOT NULL;

-- Serves history pages and streaks (newest first) as well as the old per-player lookups.
CREATE INDEX results_guild_user_finished ON results (guild_id, user_id, finished_at);
DROP INDEX results_guild_user;
