"""The name this layer gives the table service for the changes it asks for."""

DISCORD = "discord"
"""The origin of this layer's changes (``bot.tables.events``): it follows them itself, after
answering the person who asked, so it does not show them again as news."""
