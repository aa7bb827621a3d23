"""`python -m bot`: read the settings, set up logging, run until stopped (SIGINT or SIGTERM)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from typing import NoReturn

import discord

from bot.art.artist import ARTIST
from bot.client import make_bot
from bot.config import Config, ConfigError, RedactToken, load_config
from bot.store import StoreUnavailable
from bot.tables.thinker import THINKER

log = logging.getLogger("bot")


def setup_logging(config: Config) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    )
    handler.addFilter(RedactToken(config.token))
    if config.web is not None:  # the Activity's client secret, likewise
        handler.addFilter(RedactToken(config.web.client_secret))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(config.log_level)
    if config.log_level != "DEBUG":
        logging.getLogger("discord").setLevel(logging.WARNING)


async def run(config: Config) -> None:
    bot = make_bot(config)
    loop = asyncio.get_running_loop()
    asked_to_stop = asyncio.Event()  # by a signal, not by the client giving up
    stopping: set[asyncio.Future[None]] = set()

    def stop() -> None:
        asked_to_stop.set()
        task = asyncio.ensure_future(bot.close())
        stopping.add(task)
        task.add_done_callback(stopping.discard)

    for signame in ("SIGTERM", "SIGINT"):
        loop.add_signal_handler(getattr(signal, signame), stop)
    async with bot:
        try:
            await bot.start(config.token)
        except Exception as error:
            if not asked_to_stop.is_set():
                await bot.close()
                stop_for(error)
            # Stopped while starting (a signal during start-up): a clean stop all the same.
            log.info("stopped while starting (%s)", type(error).__name__)
        finally:
            await bot.close()  # the shutdown started by a signal runs to its end
        if not asked_to_stop.is_set():
            log.critical("the Discord client stopped by itself; exiting with status 1")
            raise SystemExit(1)


def stop_for(error: Exception) -> NoReturn:
    """Exit after the client failed: 2 for a setting to fix, 1 for a supervisor to retry."""
    if isinstance(error, StoreUnavailable):
        log.error("Cannot start: %s", error)
        raise SystemExit(2) from None
    if isinstance(error, discord.LoginFailure):
        log.error("Discord refused the token: set a valid DISCORD_TOKEN (see README).")
        raise SystemExit(1) from None
    if isinstance(error, discord.PrivilegedIntentsRequired):
        log.error("Discord refused an intent; this bot asks for none that are privileged.")
        raise SystemExit(1) from None
    log.critical("the Discord client stopped: %r", error)
    log.critical("exiting with status 1, so a supervisor can restart the bot")
    raise SystemExit(1) from None


def stop_workers() -> None:
    """The process is leaving: its picture and expert workers go now, busy or not."""
    ARTIST.close()
    THINKER.close()


def stop_now(signum: int, frame: object) -> None:
    """SIGTERM or SIGINT before the event loop took them over: nothing to finish yet."""
    raise SystemExit(0)


def main() -> None:
    # From the first moment a stop ends the process (as a container's PID 1, a signal with no
    # handler would be ignored); once running, the loop's handlers shut down cleanly instead.
    signal.signal(signal.SIGTERM, stop_now)
    try:
        config = load_config()
    except ConfigError as error:
        print(f"Cannot start: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    setup_logging(config)
    log.info("starting with database %s", config.database_shown)
    try:
        with (
            contextlib.suppress(KeyboardInterrupt),
            asyncio.Runner(loop_factory=loop_factory()) as r,
        ):
            r.run(run(config))
    finally:
        stop_workers()


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """uvloop where it is installed (Linux, macOS): the same bot at a fraction of the CPU."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop
    return uvloop.new_event_loop


if __name__ == "__main__":
    main()
