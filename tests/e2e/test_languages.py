"""A whole match in each shipped language: a player whose Discord is in it, in a server set to it,
plays the bot by DM buttons and slash commands, makes mistakes on purpose, and everything the
bot shows them (their DMs, their private answers, the channel) comes from that language's
catalogue: not one English sentence of ours, nor an English word left untranslated."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from bot.client import GinBot
from bot.i18n import speaking, tr
from bot.i18n.catalog import extract, read
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.fakediscord.models import payload_text

# English words any English sentence of ours has many of, and no Spanish one should.
ENGLISH_WORDS = {
    "the", "your", "you", "and", "with", "from", "turn", "hand", "draw", "drew", "discard",
    "discarded", "stock", "pile", "match", "wins", "won", "points", "scores", "waiting",
    "player", "players", "deadwood", "melds", "upcard", "took", "passed", "cards", "card",
}  # fmt: skip
COMMANDS = re.compile(r"`[^`]*`|/gin(?: \w+)?")
CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def _texts(payload: dict[str, Any]) -> list[str]:
    """Every piece of text a message shows: its content and embeds, and its buttons' and
    menus' labels, placeholders and options."""
    texts = [payload_text(payload)]

    def walk(component: dict[str, Any]) -> None:
        for key in ("label", "placeholder"):
            if component.get(key):
                texts.append(str(component[key]))
        for option in component.get("options") or []:
            texts.extend(str(option.get(k) or "") for k in ("label", "description"))
        for child in component.get("components") or []:
            walk(child)

    for component in payload.get("components") or []:
        walk(component)
    return [t for t in texts if t]


def _english_fragments(language: str) -> set[str]:
    """Pieces of our English sentences (the words between their values) that the language's
    catalogue says differently: one of them in a message means English leaked through."""
    fragments = set()
    for message in extract():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for english in ids:
            if not english:
                continue
            with speaking(language):
                spanish = tr(english) if len(ids) == 1 else ""
            for literal, *_ in string.Formatter().parse(english):
                piece = literal.strip(" .,:;!?·()*\n—–-")
                if len(piece) >= 12 and " " in piece and piece not in spanish:
                    fragments.add(piece)
    return fragments


def _own_words(language: str) -> set[str]:
    """The words the language's catalogue itself uses (French "points", German "Deadwood"
    where that is the game's word there): those are the language's, not English left over."""
    words: set[str] = set()
    for message in read(language):
        forms = message.string if isinstance(message.string, (tuple, list)) else [message.string]
        for form in forms:
            plain = re.sub(r"\{[^}]*\}", " ", COMMANDS.sub(" ", form or ""))  # not values
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+", plain))
    return words


def _english_left(
    text: str, fragments: set[str], names: tuple[str, ...], own: set[str]
) -> list[str]:
    found = [f for f in fragments if f in text]
    plain = COMMANDS.sub(" ", text)  # commands keep their English names
    for name in names:  # people's, the server's and the channel's names are theirs
        plain = plain.replace(name, " ")
    plain = re.sub(r"<[^>]*>", " ", CARD.sub(" ", plain))  # cards, mentions, timestamps
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", plain)}
    return found + sorted((words & ENGLISH_WORDS) - own)


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
    await fake.wait_for(lambda: bool(table.display.get("final_posted")), what="the result")
    shown: list[tuple[str, str]] = []
    for payload in fake.all_dm_payloads(world.alice):
        shown.extend(("DM", t) for t in _texts(payload))
    for message in fake.all_bot_messages():
        for payload in message.history:
            if message.guild_id is not None:
                shown.extend(("channel", t) for t in _texts(payload))
    shown.extend(("reply", t) for t in _texts(wrong.message.history[-1] if wrong.message else {}))
    fragments = _english_fragments(language)
    own = _own_words(language)
    assert bot.user is not None
    names = (world.guild.name, world.channel.name, "Alice", "alice", bot.user.name)
    leaks = [
        (where, text, left)
        for where, text in shown
        if (left := _english_left(text, fragments, names, own))
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
