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


def same_deals(name: str) -> None:
    """Deal from a seed stream named ``name`` (``GIN_TEST_DEALS``, set by the tests), as a
    test's own process deals, so a bot the test starts deals the same cards every run."""
    import itertools

    from bot.gin import shuffle

    counter = itertools.count()
    real = shuffle.new_seed

    def next_seed() -> str:
        return shuffle.derive_seed(name, f"process/{next(counter)}")

    for loaded in list(sys.modules.values()):
        if getattr(loaded, "new_seed", None) is real:
            loaded.new_seed = next_seed  # type: ignore[attr-defined]


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit("usage: python -m tests.fakediscord.bootstrap MODULE [ARGS...]")
    try:
        http_base = os.environ["FAKE_DISCORD_HTTP"]
        gateway_url = os.environ["FAKE_DISCORD_GATEWAY"]
    except KeyError as exc:
        raise SystemExit(f"bootstrap needs {exc.args[0]} in the environment") from None
    apply_patch(http_base, gateway_url)
    deals = os.environ.get("GIN_TEST_DEALS")
    if deals:
        same_deals(deals)
    module, *args = argv
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
