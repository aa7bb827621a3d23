"""A whole match in each shipped language: a player whose Discord is in it, in a server set to it,
plays the bot by DM buttons and slash commands, makes mistakes on purpose, and everything the
bot shows them (their DMs, their private answers, the channel) comes from that language's
catalogue: not one English sentence of ours, nor an English word left untranslated."""

from __future__ import annotations

import pytest

from bot.client import GinBot
from bot.i18n import speaking, tr
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.english import english_fragments, english_left, own_words, texts_of


@pytest.mark.parametrize(
    ("locale", "language"), [("es-ES", "es"), ("fr", "fr"), ("de", "de"), ("pt-BR", "pt_BR")]
)
async def test_a_whole_match_without_an_english_word(
    world: World, bot: GinBot, locale: str, language: str
) -> None:
    fake = world.fake
    world.alice.locale = locale  # Alice's Discord is in that language
    changed = await fake.slash(world.alice, world.channel, "gin settings set", language=language)
    assert "⚠️" not in changed.text, changed.text
    game = Game(world, bot)
    await game.practice(world.alice, "easy")
    # Mistakes on purpose: a card that is not a card, a move out of turn.
    wrong = await fake.slash(world.alice, world.channel, "gin discard", card="ZZ")
    assert wrong.ephemeral and "⚠️" in wrong.text
    moves = await game.play_against_bot(via="button", seed=4)
    assert moves > 0 and game.match.result is not None
    table = game.table
    assert table is not None
    humans = set(table.human_seats)
    await fake.wait_for(
        lambda: humans <= set(table.display.get("result_dms", [])), what="the result by DM"
    )
    shown: list[tuple[str, str]] = []
    for payload in fake.all_dm_payloads(world.alice):
        shown.extend(("DM", t) for t in texts_of(payload))
    for message in fake.all_bot_messages():
        for payload in message.history:
            if message.guild_id is not None:
                shown.extend(("channel", t) for t in texts_of(payload))
    shown.extend(("reply", t) for t in texts_of(wrong.message.history[-1] if wrong.message else {}))
    fragments = english_fragments(language)
    own = own_words(language)
    assert bot.user is not None
    names = (world.guild.name, world.channel.name, "Alice", "alice", bot.user.name)
    leaks = [
        (where, text, left)
        for where, text in shown
        if (left := english_left(text, fragments, names, own))
    ]
    assert not leaks, "\n\n".join(f"[{w}] {t!r}\n  -> {left}" for w, t, left in leaks[:15])


async def test_slash_commands_are_described_in_each_language(world: World, bot: GinBot) -> None:
    command = await world.fake.wait_for_command("gin", world.guild)
    localised = command.get("description_localizations") or {}
    assert {"es-ES", "es-419", "fr", "de", "pt-BR"} <= set(localised), localised
    with speaking("de"):
        assert localised["de"] == tr(command["description"]) != command["description"]
    names = {option["name"] for option in command.get("options", [])}
    assert {"challenge", "draw", "discard", "hand"} <= names  # names stay as they are
