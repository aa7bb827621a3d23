"""The fake refuses a command sync that Discord's documented command rules refuse."""

from __future__ import annotations

from typing import Any

from tests.fakediscord.commandlimits import MAX_COMMAND_SIZE, command_problems


def option(name: str, description: str, **more: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": description, **more}


def command(*options: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": 1, "name": "gin", "description": "Play gin", "options": list(options), **more}


def codes(commands: list[dict[str, Any]]) -> list[str]:
    return [code for _, code, _ in command_problems(commands)]


def padded_to(size: int) -> dict[str, Any]:
    """A command of exactly `size` characters: 'gin' + 'Play gin' and options of 100."""
    options = []
    left = size - len("gin") - len("Play gin")
    number = 0
    while left > 0:
        name = f"o{number}"
        description = "d" * min(100, max(1, left - len(name)))
        left -= len(name) + len(description)
        options.append(option(name, description))
        number += 1
    assert left == 0
    return command(*options)


def test_a_plain_command_passes() -> None:
    assert command_problems([command(option("card", "The card to discard"))]) == []


def test_the_size_limit_is_8000_characters_and_8001_is_refused() -> None:
    assert command_problems([padded_to(MAX_COMMAND_SIZE)]) == []
    problems = command_problems([padded_to(MAX_COMMAND_SIZE + 1)])
    assert [(where, code) for where, code, _ in problems] == [
        ("0", "APPLICATION_COMMAND_TOO_LARGE")
    ]
    assert "8001 characters" in problems[0][2]


def test_the_longest_localization_of_each_field_counts() -> None:
    base = padded_to(MAX_COMMAND_SIZE - 10)
    base["description_localizations"] = {"de": "Play gin" + "x" * 10, "fr": "court"}
    assert command_problems([base]) == []
    base["description_localizations"]["de"] += "x"
    assert codes([base]) == ["APPLICATION_COMMAND_TOO_LARGE"]


def test_choices_count_their_names_and_values() -> None:
    choices = [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]
    big = padded_to(MAX_COMMAND_SIZE - 25 * 200 - len("c") - len("d"))
    big["options"].append(option("c", "d", choices=choices))
    assert command_problems([big]) == []
    big["options"][-1]["choices"][0]["value"] += "v"
    assert codes([big]) == ["APPLICATION_COMMAND_TOO_LARGE"]


def test_subcommands_count_towards_their_command() -> None:
    inner = padded_to(MAX_COMMAND_SIZE)
    sub = {"type": 1, "name": "x", "description": "y", "options": inner["options"]}
    assert codes([command(sub)]) == ["APPLICATION_COMMAND_TOO_LARGE"]


def test_names_must_be_lowercase_and_in_the_allowed_characters() -> None:
    assert codes([command(option("Card", "x"))]) == ["APPLICATION_COMMAND_INVALID_NAME"]
    assert codes([command(option("two words", "x"))]) == ["APPLICATION_COMMAND_INVALID_NAME"]
    assert codes([command(option("x" * 33, "x"))]) == ["APPLICATION_COMMAND_INVALID_NAME"]
    assert command_problems([command(option("carte-à_jouer'", "x"))]) == []
    localized = option("card", "x", name_localizations={"de": "Karte"})
    where = [where for where, _, _ in command_problems([command(localized)])]
    assert where == ["0.options.0.name_localizations.de"]


def test_localizations_must_use_discords_locales() -> None:
    wrong = command(description_localizations={"pt": "Jogar"})
    assert [(w, c) for w, c, _ in command_problems([wrong])] == [
        ("0.description_localizations.pt", "INVALID_LOCALE")
    ]
    assert command_problems([command(description_localizations={"pt-BR": "Jogar"})]) == []


def test_required_options_come_first() -> None:
    late = command(option("a", "x"), option("b", "x", required=True))
    assert codes([late]) == ["APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"]
    assert command_problems([command(option("b", "x", required=True), option("a", "x"))]) == []


async def test_the_bots_own_commands_pass_in_every_language() -> None:
    import discord
    from discord import app_commands

    from bot.commands_translator import CatalogueTranslator
    from cogs.gin.cog import GinCog
    from cogs.gin.tournament_cog import TournamentCog
    from cogs.gin.tournament_commands import TournamentCommands

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    translator = CatalogueTranslator()
    await tree.set_translator(translator)
    for each in [*GinCog.__cog_app_commands__, *TournamentCog.__cog_app_commands__]:
        tree.add_command(each)
    payload = [await each.get_translated_payload(tree, translator) for each in tree.get_commands()]
    # /gin tournament, as the extension's setup adds it to /gin.
    tournament = await TournamentCommands(None).get_translated_payload(tree, translator)
    gin = next(each for each in payload if each["name"] == "gin")
    gin["options"].append(tournament)
    assert any(each.get("description_localizations") for each in payload)  # translated
    assert command_problems(payload) == []
