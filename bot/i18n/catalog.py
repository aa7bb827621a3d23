"""Keep the catalogues in step with the code: ``python -m bot.i18n.catalog``.

Collects every sentence the code marks (``tr``, ``tr_n``, ``N_``, ``locale_str`` and the
templates of the errors a player reads) into ``gin.pot``, brings each language's ``gin.po``
up to date with it (new sentences untranslated, gone ones dropped), then checks them:
every sentence translated, with the same named values as the English. ``--check`` only
checks, and fails if a catalogue is behind the code (what CI's test does).
"""

from __future__ import annotations

import argparse
import string
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n import DOMAIN, ENGLISH, LANGUAGES, LOCALES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "cogs")
TEMPLATE = LOCALES.parent / f"{DOMAIN}.pot"

# The calls whose first argument (both, for tr_n) is a sentence to translate.
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "tr": None,
    "tr_n": (1, 2),
    "N_": None,
    "locale_str": None,
    # Errors whose text a player reads; made in the engine and the service, translated at
    # the edge from their template and values.
    "GinError": None,
    "IllegalMove": None,
    "CardError": None,
    "KnockLimitError": None,
    "SettingsError": None,
    "VariantNotAllowed": None,
    "TableError": None,
    "TournamentError": None,
    # The engine's sentences that are not errors (``bot.gin.phrase``).
    "Phrase": None,
}


def extract() -> Catalog:
    """Every marked sentence in the code, as a template catalogue."""
    template = Catalog(project="gin-rummy-bot", domain=DOMAIN, fuzzy=False)
    for folder in SOURCES:
        found = extract_from_dir(
            ROOT / folder,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            if not message or (isinstance(message, tuple) and not message[0]):
                continue
            template.add(
                message,
                locations=[(f"{folder}/{filename}", lineno)],
                auto_comments=comments,
                context=context,
            )
    return template


def _path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    path = _path(language)
    if not path.exists():
        return Catalog(locale=language, domain=DOMAIN)
    with path.open("rb") as file:
        return read_po(file, locale=language)


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=100, sort_output=True, omit_header=False)


def update(template: Catalog) -> None:
    """Write the template and bring every language's catalogue up to date with it."""
    _write(TEMPLATE, template)
    for language in LANGUAGES:
        if language == ENGLISH:
            continue
        catalog = read(language)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        _write(_path(language), catalog)


def _texts(value: object) -> tuple[str, ...]:
    """A message's id or string as its forms (one, or one per plural form)."""
    if isinstance(value, (tuple, list)):
        return tuple(str(v or "") for v in value)
    return (str(value or ""),)


def _fields(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def problems(template: Catalog, language: str) -> list[str]:
    """What a language's catalogue lacks: sentences untranslated, or translated with other
    named values than the English has."""
    catalog = read(language)
    found = []
    for message in template:
        if not message.id:
            continue
        ours: Message | None = catalog.get(message.id, context=message.context)
        english = _texts(message.id)
        label = english[0][:70]
        if ours is None or ours.fuzzy:
            found.append(f"{language}: not translated: {label!r}")
            continue
        forms = _texts(ours.string)
        if not all(forms):
            found.append(f"{language}: not translated: {label!r}")
            continue
        wanted = set().union(*(_fields(text) for text in english))
        for form in forms:
            have = _fields(form)
            needed = wanted - {"n"} if len(english) > 1 else wanted
            if not needed <= have or not have <= wanted:
                found.append(
                    f"{language}: values {sorted(have)} instead of {sorted(wanted)}: {label!r}"
                )
                break
    return found


def check(languages: Iterable[str] | None = None) -> list[str]:
    """Every problem of every shipped catalogue against the code as it is now."""
    template = extract()
    chosen = [lang for lang in (languages or LANGUAGES) if lang != ENGLISH]
    return [problem for language in chosen for problem in problems(template, language)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.catalog", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only check; write nothing")
    args = parser.parse_args(argv)
    if not args.check:
        update(extract())
    found = check()
    for problem in found:
        print(problem)
    total = len(extract())
    print(f"{total} sentences; {len(found)} problems in {len(LANGUAGES) - 1} languages")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
