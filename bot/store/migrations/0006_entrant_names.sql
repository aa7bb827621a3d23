-- A tournament's players keep the name they joined under in their entrant row (it was kept
-- with the Discord layer's message ids in the tournament's settings, as "name:<user id>";
-- tournaments stored so read it from there while their rows have none).
ALTER TABLE tournament_entrants ADD COLUMN name TEXT;
