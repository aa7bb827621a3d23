"""The bot as the load benchmark runs it: ``python -m bot``, and at exit the showdown pictures'
drawing times and the expert's decision times written, as JSON, to the file
``GIN_BENCH_FIGURES`` names.

The times are the bot's own (its artist and its thinker measured them while it served the
tables), so the benchmark reports what the bot saw, not work redone elsewhere.
"""

from __future__ import annotations

import atexit
import json
import os
import runpy
from pathlib import Path

from bot import pacing
from bot.art.artist import ARTIST
from bot.tables.thinker import THINKER


def write_figures() -> None:
    path = os.environ.get("GIN_BENCH_FIGURES")
    if path:
        figures: dict[str, object] = {
            "draw_ms": list(ARTIST.draw_ms),
            "wait_ms": list(ARTIST.wait_ms),
            "think_ms": list(THINKER.think_ms),
            "decide_ms": list(THINKER.decide_ms),
        }
        budget = pacing.LAST[0]
        if budget is not None:
            figures["budget"] = pacing.figures(budget)
        Path(path).write_text(json.dumps(figures))


if __name__ == "__main__":
    atexit.register(write_figures)
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
