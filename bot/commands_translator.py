"""Slash commands in the reader's language: discord.py asks this translator for every
command's and option's description and every choice's name, in each language Discord knows,
and sends Discord the ones our catalogues have (``bot.i18n``). Command and option names stay
as they are in every language: players type and read ``/gin draw`` the same everywhere, and
the help text quotes them so."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import ENGLISH, language_for, speaking, tr

# What Discord allows (https://discord.com/developers/docs/interactions/application-commands).
_LIMITS = {
    app_commands.TranslationContextLocation.command_description: 100,
    app_commands.TranslationContextLocation.group_description: 100,
    app_commands.TranslationContextLocation.parameter_description: 100,
    app_commands.TranslationContextLocation.choice_name: 100,
}


class CatalogueTranslator(app_commands.Translator):
    """The descriptions and choices of our commands, from the shipped catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        limit = _LIMITS.get(context.location)
        language = language_for(locale)
        if limit is None or language == ENGLISH:
            return None  # names stay English; English is the text itself
        with speaking(language):
            text = tr(string.message)
        if text == string.message or not text or len(text) > limit:
            return None  # not translated (or too long for Discord): English it is
        return text
