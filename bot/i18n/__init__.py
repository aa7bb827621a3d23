"""The bot's words in the reader's language: gettext catalogues, read with Babel.

Every sentence a person reads is written in English in the code, inside ``tr`` (or ``tr_n``
for a count, ``N_`` for a sentence kept to be translated later, or the template of a
``GinError``), with named values: ``tr("You drew {card} from the stock.", card=card)``. The
English text is the key: ``python -m bot.i18n.catalog`` collects every one of them into
``gin.pot`` and brings each language's ``locales/<language>/LC_MESSAGES/gin.po`` up to date,
and a test fails while any language misses a sentence or a value.

Which language: the one in force where the text is made (``speaking``), set from the
reader's Discord language for what they alone see, and from the server's (or its
``language`` setting) for what the channel sees. Card names stay as they are (``10♥``) in
every language.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

ENGLISH = "en"
LOCALES = Path(__file__).with_name("locales")
DOMAIN = "gin"

# The languages shipped, by catalogue name, each with its own name for itself.
LANGUAGES: Mapping[str, str] = {
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "pt_BR": "Português do Brasil",
}

# Discord's locales (``discord.Locale`` values) that read a shipped catalogue; every other
# one reads English.
_DISCORD: Mapping[str, str] = {
    "en-US": "en",
    "en-GB": "en",
    "es-ES": "es",
    "es-419": "es",
    "fr": "fr",
    "de": "de",
    "pt-BR": "pt_BR",
}

_current: ContextVar[str] = ContextVar("gin_language", default=ENGLISH)


def language_for(locale: object) -> str:
    """The catalogue for a Discord locale (a ``discord.Locale`` or its text), or for a
    catalogue name; English for anything else."""
    text = str(getattr(locale, "value", locale) or "")
    if text in LANGUAGES:
        return text
    return _DISCORD.get(text, ENGLISH)


def language() -> str:
    """The language text is made in here and now."""
    return _current.get()


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Make the text of the block in ``language`` (a catalogue name; None: as it was)."""
    chosen = _current.get() if language is None else language_for(language)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def use(language: str | None) -> str:
    """Make the rest of this task's text in ``language`` (an interaction's handler, whose
    answer and errors all come from the one task)."""
    chosen = ENGLISH if language is None else language_for(language)
    _current.set(chosen)
    return chosen


@cache
def _catalogue(language: str) -> gettext.NullTranslations:
    """A language's catalogue, read from its .po file and compiled in memory."""
    path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == ENGLISH or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as file:
        catalog = read_po(file, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def tr(message: str, /, **values: Any) -> str:
    """``message`` in the language in force, with its named values filled in."""
    text = _catalogue(_current.get()).gettext(message)
    return text.format(**values) if values else text


def tr_n(singular: str, plural: str, count: int, /, **values: Any) -> str:
    """The form for ``count`` (the language's own plural rules), with its named values;
    ``count`` itself is the value ``{n}`` unless given otherwise."""
    text = _catalogue(_current.get()).ngettext(singular, plural, count)
    return text.format(**{"n": count, **values})


def N_(message: str) -> str:
    """Mark a sentence to be translated where it is shown, not here (a constant, say)."""
    return message


def translate(message: object, values: Mapping[str, Any] | None = None) -> str:
    """A sentence marked earlier in the language in force: a template (``N_``) with its
    values, or anything that carries both (an engine ``Phrase``, a ``GinError``)."""
    template = getattr(message, "template", None)
    if isinstance(template, str):
        values = {**getattr(message, "values", {}), **(values or {})}
    else:
        template = str(message)
    text = _catalogue(_current.get()).gettext(template)
    return text.format(**values) if values else text


def number(value: float, digits: int = 0) -> str:
    """A number as the language writes it (``1,234.5``; ``1.234,5``; ``1 234,5``)."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=_babel_locale(_current.get()))


@cache
def _babel_locale(language: str) -> Locale:
    return Locale.parse(language)


__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "N_",
    "language",
    "language_for",
    "number",
    "speaking",
    "tr",
    "tr_n",
    "translate",
    "use",
]
