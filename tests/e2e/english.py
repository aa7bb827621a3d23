"""Whether English leaked onto a screen meant for another language: the pieces of our
English sentences a catalogue says differently, and English words left untranslated."""

from __future__ import annotations

import re
import string
from typing import Any

from bot.i18n import speaking, tr
from bot.i18n.catalog import extract, read
from tests.fakediscord.models import payload_text

# English words any English sentence of ours has many of, and no Spanish one should.
ENGLISH_WORDS = {
    "the", "your", "you", "and", "with", "from", "turn", "hand", "draw", "drew", "discard",
    "discarded", "stock", "pile", "match", "wins", "won", "points", "scores", "waiting",
    "player", "players", "deadwood", "melds", "upcard", "took", "passed", "cards", "card",
}  # fmt: skip
COMMANDS = re.compile(r"`[^`]*`|/gin(?: \w+)?")
CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def texts_of(payload: dict[str, Any]) -> list[str]:
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


def english_fragments(language: str) -> set[str]:
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


def own_words(language: str) -> set[str]:
    """The words the language's catalogue itself uses (French "points", German "Deadwood"
    where that is the game's word there): those are the language's, not English left over."""
    words: set[str] = set()
    for message in read(language):
        forms = message.string if isinstance(message.string, (tuple, list)) else [message.string]
        for form in forms:
            plain = re.sub(r"\{[^}]*\}", " ", COMMANDS.sub(" ", form or ""))  # not values
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+", plain))
    return words


def english_left(
    text: str, fragments: set[str], names: tuple[str, ...], own: set[str]
) -> list[str]:
    found = [f for f in fragments if f in text]
    plain = COMMANDS.sub(" ", text)  # commands keep their English names
    for name in names:  # people's, the server's and the channel's names are theirs
        plain = plain.replace(name, " ")
    plain = re.sub(r"<[^>]*>", " ", CARD.sub(" ", plain))  # cards, mentions, timestamps
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", plain)}
    return found + sorted((words & ENGLISH_WORDS) - own)
