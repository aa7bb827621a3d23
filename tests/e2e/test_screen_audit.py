"""Matches in every mode, watched as the players see them (``tests.e2e.audit``): every hand's
showdown in the channel, at most one message claiming a player's turn at any moment and none
after the match, at most one notification a turn and one for every turn of a player who looked
away, no English on a German player's screens. Two hands of each in the suite; whole matches,
figures printed, with ``pytest -m audit -s tests/e2e/test_screen_audit.py``."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import GinBot
from bot.gin.hand import Action
from bot.gin.match import Match
from bot.tables import Table
from tests.e2e.audit import ScreenAudit
from tests.e2e.conftest import World, looked_away
from tests.e2e.english import english_fragments, english_left, own_words, texts_of
from tests.e2e.helpers_inputs import settle
from tests.e2e.modes_driver import Seats, people
from tests.fakediscord import FakeDiscord, User

MANAGE_MESSAGES = 1 << 13
# (mode, players, how they move, options); "away": every player looks away after each move,
# so every turn must bring one notification; "de": Alice reads German.
MATCHES: list[tuple[str, int, str, dict[str, Any]]] = [
    ("classic", 2, "command", {}),
    ("classic", 2, "button", {"away": True}),
    ("classic", 2, "mixed", {"variant": "oklahoma", "de": True}),
    ("classic", 2, "mixed", {"variant": "hollywood"}),
    ("three", 3, "mixed", {"away": True}),
    ("teams", 4, "mixed", {"de": True}),
    ("elimination", 5, "mixed", {}),
]


async def start(
    seats: Seats, users: list[User], mode: str, count: int, options: dict[str, Any]
) -> None:
    if mode == "classic":
        await seats.challenge(users[0], users[1], target=150, **options)
    else:
        await seats.open(users[0], mode, players=count)
        for user in users[1:]:
            await seats.join_by_button(user)
    await seats.dealt()


async def audited(
    world: World,
    bot: GinBot,
    mode: str,
    count: int,
    via: str,
    options: dict[str, Any],
    *,
    hands: int | None = None,
) -> None:
    """Play a match watched by the audit, to its end, or for ``hands`` hands and then
    ended by a moderator's `/gin end`; check what the players saw and print the figures."""
    fake = world.fake
    options = dict(options)
    away, german = options.pop("away", False), options.pop("de", False)
    if german:
        world.alice.locale = "de"
    if away:
        looked_away(bot)
    users = people(world, count)
    seats = Seats(world, bot, users)
    await start(seats, users, mode, count, options)
    table = seats.table
    assert table is not None
    audit = ScreenAudit(fake, users, world.channel.id)
    await settle()
    audit.check(table, "dealt", dealt=True)

    async def after(match: Match, action: Action) -> None:
        await settle()
        audit.check(table, f"after {action} in hand {match.hand_number}")

    if hands is None:
        await seats.play(seed=7, via=via, after=after)
        await fake.wait_for(
            lambda: set(table.human_seats) <= set(table.display.get("result_dms", [])),
            what="each player's result",
        )
    else:
        await seats.play(seed=7, via=via, after=after, stop=lambda m: m.hand_number > hands)
        await settle()
        moderator = fake.add_user("mod", global_name="Mod")
        fake.add_member(world.guild, moderator, permissions=MANAGE_MESSAGES)
        ended = await fake.slash(moderator, world.channel, "gin end")
        assert "⚠️" not in ended.text, ended.text
    await settle()
    audit.check(table, "at the end")
    audit.count_showdowns(len(await bot.service.records.hands(table.id)))
    figures = audit.figures
    print(figures.summary(f"{mode} {count} {via} {options} away={away} de={german}"))
    assert figures.showdowns == figures.hands
    assert not figures.too_many_live, figures.too_many_live[:5]
    assert not figures.live_after_end, figures.live_after_end
    assert figures.most_per_turn <= 1, figures.notified.most_common(3)
    if away:  # nobody watched: each turn told them once
        assert not figures.unannounced, figures.unannounced[:5]
    if german:
        assert not german_leaks(fake, world, table), german_leaks(fake, world, table)[:5]


@pytest.mark.parametrize(("mode", "count", "via", "options"), MATCHES)
async def test_two_hands_then_the_end_show_one_live_hand_and_every_showdown(
    world: World, bot: GinBot, mode: str, count: int, via: str, options: dict[str, Any]
) -> None:
    await audited(world, bot, mode, count, via, options, hands=2)


@pytest.mark.audit
@pytest.mark.parametrize(("mode", "count", "via", "options"), MATCHES)
async def test_a_whole_match_shows_one_live_hand_and_every_showdown(
    world: World, bot: GinBot, mode: str, count: int, via: str, options: dict[str, Any]
) -> None:
    await audited(world, bot, mode, count, via, options)


def german_leaks(fake: FakeDiscord, world: World, table: Table) -> list[tuple[str, list[str]]]:
    """English on any screen Alice saw, from her first DM to the result."""
    shown = [text for payload in fake.all_dm_payloads(world.alice) for text in texts_of(payload)]
    fragments, own = english_fragments("de"), own_words("de")
    names = (*[p.name for p in table.players], world.guild.name, world.channel.name)
    return [(text, left) for text in shown if (left := english_left(text, fragments, names, own))]
