-- Claims on timers, so that of several bot processes sharing a database only one acts on a
-- table's deadline: who claimed it, and until when the claim holds (the claim of a process
-- that died lapses then). Setting or clearing the deadline clears its claim.
ALTER TABLE matches ADD COLUMN deadline_claim TEXT;
ALTER TABLE matches ADD COLUMN deadline_claim_until TEXT;
