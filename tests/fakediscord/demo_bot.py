"""A tiny bot with a persistent counter button, run as a subprocess to test restarts.

Run: ``python -m tests.fakediscord.bootstrap tests.fakediscord.demo_bot`` with
``DISCORD_TOKEN`` and the fake's variables set. ``/counter`` posts a message whose button
survives a restart because it is a ``DynamicItem`` registered in ``setup_hook``.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any

import discord
from discord import app_commands


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"count:(?P<n>\d+)"):
    """Its whole state lives in the custom_id, so any process can answer it."""

    def __init__(self, n: int) -> None:
        self.n = n
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=f"+1 ({n})", custom_id=f"count:{n}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        after = self.n + 1
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(after))
        await interaction.response.edit_message(
            content=f"count={after} pid={os.getpid()}", view=view
        )


class DemoBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="counter", description="Post a counter with a persistent button")
        async def counter(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(CounterButton(0))
            await interaction.response.send_message(f"count=0 pid={os.getpid()}", view=view)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton)
        await self.tree.sync()


async def main() -> None:
    async with DemoBot() as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
