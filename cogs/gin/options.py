"""The slash commands' fixed choices and bounds: the values stay what the code reads, the
names are what Discord shows (in the reader's language, through the command translator)."""

from __future__ import annotations

from discord import app_commands

from bot.i18n import LANGUAGES, N_

MAX_MATCH_NUMBER = 2**53 - 1  # Discord's largest integer option (its Int53Type)

# The options with a fixed set of values: the values stay what the code reads, the names are
# what Discord shows (in the reader's language, through the command translator).
Choices = list[app_commands.Choice[str]]

LEVEL_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: how well the bot plays.
    app_commands.Choice(name=N_("easy"), value="easy"),
    # TRANSLATORS: a choice of option: how well the bot plays.
    app_commands.Choice(name=N_("normal"), value="normal"),
    # TRANSLATORS: a choice of option: how well the bot plays.
    app_commands.Choice(name=N_("hard"), value="hard"),
    # TRANSLATORS: a choice of option: how well the bot plays (the strongest level).
    app_commands.Choice(name=N_("expert"), value="expert"),
]
VARIANT_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: the plain two-player game, no variant.
    app_commands.Choice(name=N_("classic"), value="classic"),
    # TRANSLATORS: a choice of option: the variant's name (Oklahoma Gin).
    app_commands.Choice(name=N_("oklahoma"), value="oklahoma"),
    # TRANSLATORS: a choice of option: the variant's name (Hollywood Gin, three games at once).
    app_commands.Choice(name=N_("hollywood"), value="hollywood"),
]
LANGUAGE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: write the channel's messages in the language Discord
    # says the server prefers.
    app_commands.Choice(name=N_("the server's Discord language"), value="auto"),
    # Each language by its own name, the same in every language.
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
]
ACE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: an ace upcard (Oklahoma) means gin only.
    app_commands.Choice(name=N_("gin"), value="gin"),
    # TRANSLATORS: a choice of option: an ace upcard (Oklahoma) means a 1-point knock.
    app_commands.Choice(name=N_("one"), value="one"),
]
OPEN_MODE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: the game for three players.
    app_commands.Choice(name=N_("three"), value="three"),
    # TRANSLATORS: a choice of option: the game for two teams of two.
    app_commands.Choice(name=N_("teams"), value="teams"),
    # TRANSLATORS: a choice of option: the game where players drop out until one loses.
    app_commands.Choice(name=N_("elimination"), value="elimination"),
]
MODE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: the two-player game.
    app_commands.Choice(name=N_("classic"), value="classic"),
    *OPEN_MODE_CHOICES,
]
SOURCE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: draw from the stock (the face-down pile).
    app_commands.Choice(name=N_("stock"), value="stock"),
    # TRANSLATORS: a choice of option: draw from the discard pile.
    app_commands.Choice(name=N_("discard"), value="discard"),
]
NEXT_DEALER_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: the loser of a hand deals the next one.
    app_commands.Choice(name=N_("loser"), value="loser"),
    # TRANSLATORS: a choice of option: the winner of a hand deals the next one.
    app_commands.Choice(name=N_("winner"), value="winner"),
    # TRANSLATORS: a choice of option: the players take turns dealing.
    app_commands.Choice(name=N_("alternate"), value="alternate"),
]
SIT_OUT_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: three players take turns sitting out.
    app_commands.Choice(name=N_("rotate"), value="rotate"),
    # TRANSLATORS: a choice of option: the loser of a hand deals and sits out next.
    app_commands.Choice(name=N_("loser"), value="loser"),
]
SET_SUITS_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: a set may hold identical cards (several decks).
    app_commands.Choice(name=N_("any"), value="any"),
    # TRANSLATORS: a choice of option: a set's cards must all be of different suits.
    app_commands.Choice(name=N_("different"), value="different"),
]
SORT_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: order the leaderboard by rating.
    app_commands.Choice(name=N_("rating"), value="rating"),
    # TRANSLATORS: a choice of option: order the leaderboard by matches won.
    app_commands.Choice(name=N_("wins"), value="wins"),
    # TRANSLATORS: a choice of option: order the leaderboard by final scores.
    app_commands.Choice(name=N_("points"), value="points"),
]
