"""What a modified client can send: custom ids and select values the bot never wrote, commands
from a DM channel, and a handler that fails. Each gets a private answer within 3 s that says
what to do, changes nothing, and logs no exception."""

from __future__ import annotations

import logging

import pytest

from bot.client import GinBot
from bot.gin.hand import Phase
from tests.e2e.conftest import World, screens_of
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import (
    advance,
    assert_refused,
    capture,
    settle,
    start_game,
)
from tests.fakediscord import InteractionResult

BUTTON, SELECT = 2, 3
DEADLINE = 3.0


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, f"exceptions were logged: {[r.getMessage() for r in errors]}"


def answered_in_time(result: InteractionResult) -> None:
    assert result.latency is not None and result.latency < DEADLINE, result.latency


def forged_ids(table_id: int, move: int) -> list[tuple[str, int, list[str] | None]]:
    """(custom id, component type, select values) a modified client might send."""
    big = "9" * 40
    return [
        ("gin:mv:", BUTTON, None),
        ("gin:mv:abc", BUTTON, None),
        (f"gin:mv:{table_id}:{move}:fly", BUTTON, None),
        (f"gin:mv:{big}:{move}:stock", BUTTON, None),
        (f"gin:mv:{table_id}:{big}:stock", BUTTON, None),
        (f"gin:mv:{table_id}:-1:stock", BUTTON, None),
        (f"gin:mv:{table_id}:{move}:stock:extra", BUTTON, None),
        (f"gin:mv:{table_id}:{move}:knock", BUTTON, None),
        (f"gin:mv:{table_id}:{move}:knock52", BUTTON, None),
        (f"gin:mv:{table_id}:{move}:knock123", BUTTON, None),
        (f"gin:sel:{table_id}:{move}:discard", SELECT, ["99"]),
        (f"gin:sel:{table_id}:{move}:discard", SELECT, ["-1"]),
        (f"gin:sel:{table_id}:{move}:discard", SELECT, ["seven"]),
        (f"gin:sel:{table_id}:{move}:discard", SELECT, ["٣"]),
        (f"gin:sel:{table_id}:{move}:knock", SELECT, [big]),
        (f"gin:sel:{table_id}:{move}:discard", SELECT, ["1", "2"]),
        (f"gin:sel:{table_id}:{move}:discard", SELECT, []),
        (f"gin:sel:{table_id}:{move}:shuffle", SELECT, ["1"]),
        (f"gin:sel:{table_id}:{move}:discard", BUTTON, None),
        (f"gin:ch:{table_id}:maybe", BUTTON, None),
        ("gin:ch:abc:accept", BUTTON, None),
        ("gin:ch:123456789:accept", BUTTON, None),
        (f"gin:ch:{big}:decline", BUTTON, None),
        ("gin:pg:lb:foo:0:next", BUTTON, None),
        ("gin:pg:replay:abc:0:next", BUTTON, None),
        (f"gin:pg:replay:{big}:0:next", BUTTON, None),
        ("gin:pg:replay:99999999999999999:999999:prev", BUTTON, None),
        (f"gin:pg:hist:{big}:1:next", BUTTON, None),
        ("gin:pg:hist:123:99999999999:next", BUTTON, None),
        ("gin:pg:lb:rating:0:sideways", BUTTON, None),
        ("gin:lb:", BUTTON, None),
        (f"gin:lb:{table_id}:dance", BUTTON, None),
        (f"gin:lb:{table_id}:join", BUTTON, None),
        (f"gin:lb:{big}:start", BUTTON, None),
        (f"gin:lb:{table_id}:team3", BUTTON, None),
        ("gin:rm:", BUTTON, None),
        ("gin:rm:abc", BUTTON, None),
        ("gin:rm:424242", BUTTON, None),  # no such match
        ("gin:show:", BUTTON, None),
        ("gin:show:abc", BUTTON, None),
        (f"gin:show:{big}", BUTTON, None),
        ("gin:show:424242", BUTTON, None),  # no such table
        ("gin:zz:1:2", BUTTON, None),
        ("not-ours", BUTTON, None),
    ]


async def test_forged_components_are_answered_and_change_nothing(
    world: World, bot: GinBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DISCARD)
    await settle()
    seat = game.match.hand.turn
    user = game.user(seat)
    message = await game.wait_for_buttons(seat)
    caplog.clear()
    for custom_id, kind, values in forged_ids(table.id, table.token(seat)):
        before = await capture(fake, table)
        result = await fake.forge_component(
            user, message, custom_id, component_type=kind, values=values
        )
        try:
            answered_in_time(result)
            await assert_refused(fake, table, before, result)
        except AssertionError as error:
            raise AssertionError(f"forged {custom_id!r} {values}: {error}") from None
    no_errors_logged(caplog)


async def test_forged_page_buttons_on_a_record_page(
    world: World, bot: GinBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    shown = await fake.slash(world.alice, world.channel, "gin leaderboard")
    assert shown.message is not None
    caplog.clear()
    for custom_id in ("gin:pg:lb:wins:3:next", "gin:pg:hist:1:0:prev", "gin:pg:replay:1:0:next"):
        result = await fake.forge_component(world.alice, shown.message, custom_id)
        answered_in_time(result)
        assert "⚠️" not in result.text or "no match" in result.text.lower(), result.text
    no_errors_logged(caplog)


async def test_commands_from_a_dm_channel_are_refused(
    world: World, bot: GinBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    dm = fake.dm_channel(world.alice)
    caplog.clear()
    attempts = [
        ("gin challenge", {"opponent": world.bob}),
        ("gin practice", {}),
        ("gin hand", {}),
        ("gin draw", {"source": "stock"}),
        ("gin leaderboard", {}),
        ("gin settings show", {}),
    ]
    for command, options in attempts:
        before = await capture(fake)
        result = await fake.slash(world.alice, dm, command, options, forge=True)
        answered_in_time(result)
        await assert_refused(fake, None, before, result, "server channel")
    assert bot.service.tables() == []
    no_errors_logged(caplog)


async def test_an_unexpected_error_gets_an_apology_and_changes_nothing(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat = game.match.hand.turn
    message = await game.wait_for_buttons(seat)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a fault of the bot's own")

    monkeypatch.setattr(bot.service, "play", broken)
    before = await capture(fake, table)
    result = await fake.click(
        game.user(seat), message, f"gin:mv:{table.id}:{table.token(seat)}:pass"
    )
    answered_in_time(result)
    text = await assert_refused(fake, table, before, result, "sorry", "nothing was changed")
    assert "Traceback" not in text and "RuntimeError" not in text
    before = await capture(fake, table)
    result = await fake.slash(game.user(seat), world.channel, "gin pass")
    answered_in_time(result)
    await assert_refused(fake, table, before, result, "sorry", "nothing was changed")


async def test_an_error_after_the_commit_says_the_move_was_made(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat = game.match.hand.turn
    screens = screens_of(bot)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("rendering failed")

    monkeypatch.setattr(screens, "mover_reply", broken)
    before = table.move_count
    result = await fake.slash(game.user(seat), world.channel, "gin pass")
    answered_in_time(result)
    assert result.ephemeral and "your move was made" in result.text.lower(), result.text
    assert "nothing was changed" not in result.text.lower()
    assert table.move_count == before + 1
    await game.wait_for_buttons(game.match.hand.turn)  # the screens were synced all the same
