"""The expert thinks in worker processes: the event loop keeps serving meanwhile."""

from __future__ import annotations

import asyncio
import random
import time

from bot.gin.ai import Level, PlayerView, decide, view_for
from bot.gin.hand import Action, Hand, Phase
from bot.gin.settings import Settings
from bot.tables.thinker import Thinker, think


def _discard_view() -> PlayerView:
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), "thinker")
    rng = random.Random(1)
    while hand.phase is not Phase.DISCARD or len(hand.actions) < 6:
        hand.apply(decide(view_for(hand, hand.turn), Level.HARD, rng))
    return view_for(hand, hand.turn)


def test_the_loop_keeps_serving_while_the_expert_thinks() -> None:
    view = _discard_view()
    thinker = Thinker(1)

    async def scenario() -> tuple[Action, list[float]]:
        thinker.start()
        gaps: list[float] = []
        task = asyncio.create_task(thinker.decide(view, "expert", random.Random(42)))
        last = time.perf_counter()
        while not task.done():
            await asyncio.sleep(0.002)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now
        return task.result(), gaps

    try:
        action, gaps = asyncio.run(scenario())
    finally:
        thinker.close()
    # The same seed drawn from the same generator gives the same move as thinking inline.
    assert action == think(view, "expert", random.Random(42).getrandbits(64))[0]
    assert len(thinker.think_ms) == len(thinker.decide_ms) == 1  # timed for the benchmark
    assert 0 < thinker.think_ms[0] <= thinker.decide_ms[0]
    assert len(gaps) >= 20  # the loop ran all along (the worker starts and thinks meanwhile)
    assert max(gaps) < 0.25
    assert thinker.worker_pids() == []


def test_without_processes_it_thinks_on_a_thread() -> None:
    view = _discard_view()
    thinker = Thinker(1, processes=False)  # a thread pool: the same interface, no processes

    async def scenario() -> Action:
        return await thinker.decide(view, "expert", random.Random(3))

    try:
        action = asyncio.run(scenario())
    finally:
        thinker.close()
    assert action in view.legal_actions
