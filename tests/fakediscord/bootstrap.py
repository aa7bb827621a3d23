"""Runs a module as `__main__` with discord.py pointed at a fake Discord.

Usage: ``python -m tests.fakediscord.bootstrap MODULE [ARGS...]`` with ``FAKE_DISCORD_HTTP``
and ``FAKE_DISCORD_GATEWAY`` set (see ``FakeDiscord.env()``). A test starts the bot this way
in a subprocess so that it can SIGKILL it and start it again on the same fake. It also runs
by its path with only discord.py at hand (``python bootstrap.py bot``, in the bot's image):
it needs nothing but ``patching.py`` beside it.
"""

from __future__ import annotations

import os
import runpy
import sys

try:
    from .patching import apply_patch
except ImportError:  # run by its path (`python /fake/bootstrap.py`, in a container)
    from patching import apply_patch  # type: ignore[no-redef]


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit("usage: python -m tests.fakediscord.bootstrap MODULE [ARGS...]")
    try:
        http_base = os.environ["FAKE_DISCORD_HTTP"]
        gateway_url = os.environ["FAKE_DISCORD_GATEWAY"]
    except KeyError as exc:
        raise SystemExit(f"bootstrap needs {exc.args[0]} in the environment") from None
    apply_patch(http_base, gateway_url)
    module, *args = argv
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
