"""The bot as the load benchmark runs it: ``python -m bot``, and at exit the showdown pictures'
drawing times and the expert's decision times written, as JSON, to the file
``GIN_BENCH_FIGURES`` names. With ``GIN_BENCH_TRACEMALLOC`` set, its allocations are traced from
the start, and each SIGUSR1 writes a snapshot of them (after a full collection) to that path
with the snapshot's number appended: where the memory goes, by file and line.

The times are the bot's own (its artist and its thinker measured them while it served the
tables), so the benchmark reports what the bot saw, not work redone elsewhere.
"""

from __future__ import annotations

import atexit
import gc
import itertools
import json
import os
import runpy
import signal
import tracemalloc
from pathlib import Path
from types import FrameType

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


def trace_memory() -> None:
    path = os.environ.get("GIN_BENCH_TRACEMALLOC")
    if not path:
        return
    tracemalloc.start()
    numbers = itertools.count()

    def snapshot(_signal: int, _frame: FrameType | None) -> None:
        gc.collect()
        target = Path(f"{path}.{next(numbers)}")
        part = target.with_suffix(target.suffix + ".part")
        tracemalloc.take_snapshot().dump(str(part))
        part.rename(target)  # whole, or not there yet

    signal.signal(signal.SIGUSR1, snapshot)


if __name__ == "__main__":
    trace_memory()
    atexit.register(write_figures)
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
