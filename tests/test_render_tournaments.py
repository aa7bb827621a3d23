"""What players read of tournaments: the tie-breaks as people write them, long lists cut
with a word on what was left out, the knockout's places named, every line in each language."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.i18n import speaking
from bot.render.tournaments import BODY_LIMIT, fitted, fraction, signed, standings_panel
from bot.store.tournament_rows import EntrantRow, TournamentRecord, TournamentRow
from bot.tournaments import StandingLine, Standings, Tournament
from bot.tournaments.settings import Format, TournamentSettings


def tournament(format: Format = Format.SWISS) -> Tournament:
    settings = {**TournamentSettings(format=format).to_dict(), "rounds_total": 3}
    row = TournamentRow(
        7, "g", "c", "o", format.value, settings, "running", 3, None, None, "t", "t", None, "t"
    )
    entrant = EntrantRow(7, "1", "joined", 1, None, "t", None)
    return Tournament.of(TournamentRecord(row, (entrant,), (), ()))


def test_tie_breaks_read_as_people_write_them() -> None:
    assert [fraction(Fraction(n, 2)) for n in (0, 1, 4, 7)] == ["0", "½", "2", "3½"]
    assert fraction(Fraction(-3, 2)) == "-1½" and fraction(Fraction(1, 3)) == "0.3"
    assert signed(Fraction(5, 2)) == "+2.5" and signed(Fraction(-1)) == "-1.0"


def test_a_long_list_is_cut_and_says_how_much_is_left() -> None:
    lines = [f"**{n}.** <@{n}> — {'x' * 60}" for n in range(1, 129)]
    body = fitted(lines)
    assert len(body) <= BODY_LIMIT + 40
    kept = body.count("\n")
    assert body.endswith(f"… and {128 - kept} more lines")


def test_knockout_places_are_named() -> None:
    lines = (
        StandingLine(1, 1, "1", 1, 3, 3, 3, 0, out_in=None),
        StandingLine(2, 2, "2", 2, 2, 2, 2, 0, out_in=3),
        StandingLine(3, 3, "3", 3, 1, 2, 1, 0, out_in=2),
        StandingLine(4, 5, "4", 4, 0, 1, 0, 0, out_in=1, dropped=True),
    )
    standings = Standings(7, Format.KNOCKOUT, 3, 3, True, lines)
    panel = standings_panel(tournament(Format.KNOCKOUT), standings)
    assert panel.title == "🏆 #7 · Final standings"
    assert panel.body.splitlines() == [
        "**1st** <@1> (1) — champion",
        "**2nd** <@2> (2) — finalist",
        "**3rd** <@3> (3) — out in the semi-finals",
        "**5th** <@4> (4) — out in the quarter-finals *(withdrew)*",
    ]


@pytest.mark.parametrize("language", ["de", "fr", "es", "pt_BR"])
def test_the_standings_speak_every_language(language: str) -> None:
    line = StandingLine(1, 1, "1", 1, 2, 2, 2, 0, Fraction(3), Fraction(2), Fraction(1))
    standings = Standings(7, Format.SWISS, 2, 3, False, (line,))
    with speaking(language):
        panel = standings_panel(tournament(), standings)
    english = standings_panel(tournament(), standings)
    assert panel.title != english.title and panel.footer != english.footer
    assert "Bh 3 · Bh-1 2 · SB 1" in panel.body
