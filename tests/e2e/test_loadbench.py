"""The load benchmark still runs end to end: a few tables, a few moves, sane figures."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.loadbench import report, run_benchmark


async def test_small_load_run_plays_and_is_durable(tmp_path: Path) -> None:
    figures = await run_benchmark(3, moves_per_table=6, seed=2, workdir=tmp_path)
    assert figures.errors == []
    assert figures.moves > 0
    assert len(figures.latencies_ms) == figures.moves
    assert all(latency > 0 for latency in figures.latencies_ms)
    assert figures.moves_per_s > 0
    assert figures.durable, figures.durability
    assert 0 < figures.baseline_rss_kb <= figures.peak_kb
    text = report(figures)
    assert "moves per second" in text and "memory per open table" in text


async def test_small_elimination_load_run(tmp_path: Path) -> None:
    figures = await run_benchmark(
        2, moves_per_table=8, seed=3, workdir=tmp_path, mode="elimination", players=5
    )
    assert figures.errors == [] and figures.moves == 16 and figures.durable
    assert figures.counted_calls > 0
    assert "REST calls per move" in report(figures)


async def test_a_load_run_with_tables_against_the_expert(tmp_path: Path) -> None:
    figures = await run_benchmark(2, moves_per_table=6, seed=4, workdir=tmp_path, expert_tables=1)
    assert figures.errors == [] and figures.moves == 12 and figures.durable, figures.durability
    assert figures.practice_moves == 6
    # The bot timed each of the expert's decisions: in its worker, and as its table waited.
    # (how many depends on the deal: a few turns of the bot between the player's six moves)
    assert len(figures.expert_decide_ms) == len(figures.expert_think_ms) >= 2
    assert all(
        0 < think <= wait
        for think, wait in zip(figures.expert_think_ms, figures.expert_decide_ms, strict=True)
    )
    assert "expert decision, p99" in report(figures)
