-- A hand's review goes to each of its players once, whichever bot process is asked and across
-- restarts: a claim while it is being made ('working', which lapses at `lapses` if the process
-- making it died) and 'sent' once it is in the player's DMs.
CREATE TABLE reviews (
    match_id INTEGER NOT NULL,
    hand     INTEGER NOT NULL,
    board    INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    state    TEXT NOT NULL,
    lapses   TEXT NOT NULL,
    PRIMARY KEY (match_id, hand, board, seat)
);
