"""The language machinery: which catalogue a Discord locale reads, the language in force, and
numbers written as each language writes them."""

from __future__ import annotations

import asyncio

from bot.gin import IllegalMove
from bot.gin.phrase import Phrase
from bot.i18n import LANGUAGES, language, language_for, number, speaking, tr, tr_n, translate
from bot.i18n.catalog import check


def test_discord_locales_read_their_catalogue_and_the_rest_english() -> None:
    assert language_for("es-ES") == language_for("es-419") == "es"
    assert language_for("pt-BR") == "pt_BR" and language_for("fr") == "fr"
    assert language_for("de") == "de" and language_for("en-GB") == "en"
    assert language_for("ja") == language_for(None) == language_for("") == "en"


def test_the_language_in_force_is_the_blocks_and_each_task_its_own() -> None:
    assert language() == "en"
    with speaking("fr-not-a-locale"):
        assert language() == "en"
    with speaking("de"):
        assert language() == "de"
        with speaking(None):
            assert language() == "de"
        with speaking("es-419"):
            assert language() == "es"
        assert language() == "de"
    assert language() == "en"

    async def reader(lang: str) -> str:
        with speaking(lang):
            await asyncio.sleep(0)
            return language()

    async def both() -> list[str]:
        return await asyncio.gather(reader("fr"), reader("pt-BR"))

    assert asyncio.run(both()) == ["fr", "pt_BR"]


def test_english_fills_in_its_values_and_counts() -> None:
    assert tr("You drew {card} from the stock.", card="7♥") == "You drew 7♥ from the stock."
    assert tr_n("{n} box", "{n} boxes", 1) == "1 box"
    assert tr_n("{n} box", "{n} boxes", 3) == "3 boxes"
    assert translate(Phrase("{a} and {b} play.", a="Ann", b="Bob")) == "Ann and Bob play."
    error = IllegalMove("You can't discard {card}.", card="Q♠")
    assert str(error) == "You can't discard Q♠." and translate(error) == str(error)


def test_numbers_as_each_language_writes_them() -> None:
    assert number(1234.5, 1) == "1,234.5"
    with speaking("de"):
        assert number(1234.5, 1) == "1.234,5"
    with speaking("pt_BR"):
        assert number(1234) == "1.234"


def test_every_language_has_every_sentence_with_its_values() -> None:
    """Each shipped catalogue translates every sentence the code has, with the same named
    values (``python -m bot.i18n.catalog`` brings them up to date and lists what is left)."""
    assert check() == []


def test_the_shipped_catalogues_are_read_and_say_it_their_way() -> None:
    from bot.i18n.catalog import extract

    sentences = [m.id for m in extract() if isinstance(m.id, str) and m.id]
    for lang in LANGUAGES:
        if lang == "en":
            continue
        with speaking(lang):
            changed = sum(tr(english) != english for english in sentences)
        assert changed > 0.9 * len(sentences), (lang, changed, len(sentences))
