"""`python -m bot`: read the settings, set up logging, run until stopped (SIGINT or SIGTERM)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable

import discord

from bot.client import make_bot
from bot.config import Config, ConfigError, RedactToken, load_config

log = logging.getLogger("bot")


def setup_logging(config: Config) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    )
    handler.addFilter(RedactToken(config.token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(config.log_level)
    if config.log_level != "DEBUG":
        logging.getLogger("discord").setLevel(logging.WARNING)


async def run(config: Config) -> None:
    bot = make_bot(config)
    loop = asyncio.get_running_loop()
    for signame in ("SIGTERM", "SIGINT"):
        loop.add_signal_handler(
            getattr(signal, signame), lambda: asyncio.ensure_future(bot.close())
        )
    async with bot:
        stopped_by_itself = False
        try:
            await bot.start(config.token)
        except discord.LoginFailure:
            log.error("Discord refused the token: set a valid DISCORD_TOKEN (see README).")
            raise SystemExit(1) from None
        except discord.PrivilegedIntentsRequired:
            log.error("Discord refused an intent; this bot asks for none that are privileged.")
            raise SystemExit(1) from None
        except Exception as error:
            log.critical("the Discord client stopped: %r", error)
            log.critical("exiting with status 1, so a supervisor can restart the bot")
            raise SystemExit(1) from None
        finally:
            stopped_by_itself = not bot.closing.is_set()
            await bot.close()  # the shutdown started by a signal runs to its end
        if stopped_by_itself:
            log.critical("the Discord client stopped by itself; exiting with status 1")
            raise SystemExit(1)


def main() -> None:
    try:
        config = load_config()
    except ConfigError as error:
        print(f"Cannot start: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    setup_logging(config)
    log.info("starting with database %s", config.database_shown)
    with contextlib.suppress(KeyboardInterrupt), asyncio.Runner(loop_factory=loop_factory()) as r:
        r.run(run(config))


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """uvloop where it is installed (Linux, macOS): the same bot at a fraction of the CPU."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop
    return uvloop.new_event_loop


if __name__ == "__main__":
    main()
