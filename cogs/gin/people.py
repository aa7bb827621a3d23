"""User text made safe to show: names can neither notify anyone nor restyle a message."""

from __future__ import annotations

import discord

from bot.gin.match import Player

NAME_LENGTH = 32  # Discord's longest display name


def safe(text: str) -> str:
    """Text a user chose (a nickname, a server or channel name), escaped for mentions and
    markdown: ``<@123>`` and ``@everyone`` stay visible but notify nobody."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def name_of(user: discord.abc.User) -> str:
    """The name to show for a member: their display name, made safe."""
    return safe(user.display_name[:NAME_LENGTH])


def player_of(user: discord.abc.User) -> Player:
    return Player(str(user.id), name_of(user))


def only(*user_ids: int | str) -> discord.AllowedMentions:
    """A message that may notify exactly these users, and nobody else."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=int(u)) for u in user_ids],
    )
