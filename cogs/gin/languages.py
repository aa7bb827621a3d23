"""Who reads which language: a player their own Discord's (learnt from each interaction of
theirs, and kept with each table they sit at, so a restart or a DM sent before they next act
still speaks it), the channel its server's (the server's ``language`` setting, else the
language Discord says the server prefers)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import ENGLISH, language_for, use
from bot.tables import Table

KEY = "languages"  # in a table's display JSON: user id -> language

# user id -> the language of their last interaction with this process
_people: dict[str, str] = {}


def learn(user_id: str, language: str) -> None:
    """Another process heard from this person: they read ``language``."""
    _people[user_id] = language_for(language)


def heard(interaction: discord.Interaction[Any]) -> str:
    """The language of the person behind an interaction, remembered for later, and made the
    language of the rest of the handler's task (its answer, its errors)."""
    language = language_for(interaction.locale)
    _people[str(interaction.user.id)] = language
    use(language)
    return language


class Languages:
    """The languages of the people and the servers this process has heard from."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def keep(self, table: Table) -> None:
        """Write down at the table the language each seated player was last heard in."""
        for player in table.players:
            language = _people.get(player.id)
            if language is None:
                continue
            kept = table.screen_ids.setdefault(KEY, {})
            if kept.get(player.id) != language:
                kept[player.id] = language

    def of_player(self, table: Table, seat: int) -> str:
        """What a player's private messages are written in."""
        user_id = table.players[seat].id
        language = _people.get(user_id) or table.screen_ids.get(KEY, {}).get(user_id)
        return language_for(language) if language else self.of_channel(table)

    def of_channel(self, table: Table) -> str:
        """What the table's channel messages are written in."""
        chosen = getattr(table.server, "language", None)
        if chosen:
            return language_for(chosen)
        return self.of_server(table.guild_id)

    def of_server(self, guild_id: str | int | None) -> str:
        guild = None
        if guild_id is not None and str(guild_id).isdigit():
            guild = self.client.get_guild(int(guild_id))
        if guild is None:
            return ENGLISH
        return language_for(guild.preferred_locale)
