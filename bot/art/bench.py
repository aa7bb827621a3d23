"""Timing of the card art: ``python -m bot.art.bench [--showdowns N] [--seed S] [--save DIR]``.

The showdowns come from whole hands played out by a simple greedy player from fixed seeds, so
every run draws the same pictures: knocks, undercuts and gins, with lay-offs as they fall.
Each picture is drawn once with ``draw_showdown``, the uncached render, after one warm-up
render that scales the card tiles (they are kept for the life of the process, as in the bot).
The emoji row times building all 53 images from nothing, as at the bot's start. ``--save``
also writes the sample pictures (``cards.png``, ``showdown.png``) into a folder.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Sequence
from pathlib import Path

from bot.art import cards as card_art
from bot.art import showdown as showdown_art
from bot.art.showdown import ShowdownPicture, draw_showdown, picture_from_hand, render_showdown
from bot.gin.cards import parse_cards
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.settings import Settings

P99_TARGET_MS = 30.0
SHOWDOWN_KB = 1024.0  # well inside any attachment limit
EMOJI_KB = 256.0  # Discord's limit for one emoji
EMOJI_BUILD_MS = 5000.0  # once, at start-up

NAMES = ("Alice", "Bob", "Chandrasekhar", "Zoë", "Mx. Wolfeschlegelsteinhausen", "Li")


def play_out(seed: str, gin_hunter: bool) -> Hand:
    """A hand played to its end by a greedy player: take the upcard when it helps, discard what
    leaves the least deadwood, and knock as soon as it may (or, hunting gin, only with none)."""
    hand = Hand.deal((0, 1), dealer=1, names=("A", "B"), seed=seed)
    while not hand.is_over:
        hand.apply(_greedy(hand, gin_hunter))
    return hand


def _greedy(hand: Hand, gin_hunter: bool) -> Action:
    legal = hand.legal_actions()
    me = hand.turn
    if hand.phase in (Phase.UPCARD, Phase.DRAW):
        take = Action(ActionKind.DRAW_DISCARD, me)
        if take in legal and hand.upcard is not None:
            options = hand.discard_options([*hand.hands[me], hand.upcard])
            options.pop(hand.upcard, None)
            if min(options.values()) < hand.deadwood(hand.hands[me]):
                return take
        stock = Action(ActionKind.DRAW_STOCK, me)
        return stock if stock in legal else Action(ActionKind.PASS, me)
    if Action(ActionKind.BIG_GIN, me) in legal:
        return Action(ActionKind.BIG_GIN, me)
    options = hand.discard_options(hand.hands[me])
    if hand.taken_from_discard is not None:
        options.pop(hand.taken_from_discard, None)
    best = min(options, key=lambda c: (options[c], -c.value))
    knock = Action(ActionKind.KNOCK, me, best)
    if knock in legal and (options[best] == 0 or not gin_hunter):
        return knock
    return Action(ActionKind.DISCARD, me, best)


def random_showdowns(count: int, seed: int) -> list[ShowdownPicture]:
    """``count`` different showdown pictures from hands played out from fixed seeds."""
    rng = random.Random(seed)
    seen: set[ShowdownPicture] = set()
    pictures: list[ShowdownPicture] = []
    n = 0
    while len(pictures) < count:
        n += 1
        hand = play_out(f"art-bench-{seed}-{n}", gin_hunter=rng.random() < 0.3)
        picture = picture_from_hand(hand, rng.sample(NAMES, 2))
        if picture is not None and picture not in seen:
            seen.add(picture)
            pictures.append(picture)
    return pictures


def example_hand() -> Hand:
    """RULES.md's worked example: Alice knocks with 6, Bob lays off two cards and keeps 19."""
    hand = Hand(
        seats=(0, 1),
        dealer=1,
        names=("Alice", "Bob"),
        settings=Settings(),
        seed="example",
        hands={
            0: parse_cards("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠"),
            1: parse_cards("Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣"),
        },
        stock=parse_cards("2♦ 3♦ 4♦ 6♦ 7♦ 8♦ A♦ K♦ A♥ 2♥ 3♥ 6♥ 10♥ J♥ Q♥"),
        discard_pile=parse_cards("4♥"),
        phase=Phase.DISCARD,
        turn=0,
    )
    hand.apply(Action(ActionKind.KNOCK, 0, parse_cards("K♠")[0]))
    return hand


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def _clear_caches() -> None:
    for cached in (
        card_art.card_face,
        card_art.card_back,
        card_art.face_image,
        card_art.back_image,
        showdown_art.card_tile,
        render_showdown,
    ):
        cached.cache_clear()


def run(count: int, seed: int, save: Path | None) -> bool:
    """Time everything and print the table; True when every target is met."""
    started = time.perf_counter()
    pictures = random_showdowns(count, seed)
    _clear_caches()
    clock = time.perf_counter_ns

    t0 = clock()
    emoji = card_art.all_card_images()
    emoji_ms = (clock() - t0) / 1e6
    t0 = clock()
    draw_showdown(pictures[0])  # scales every tile it needs: the first render after start-up
    first_ms = (clock() - t0) / 1e6
    for picture in pictures[:20]:  # the rest of the tiles, as a running bot has them
        draw_showdown(picture)

    gc.collect()
    times: list[float] = []
    sizes: list[float] = []
    for picture in pictures:
        t0 = clock()
        data = draw_showdown(picture)
        times.append((clock() - t0) / 1e6)
        sizes.append(len(data) / 1024)
    render_showdown(pictures[0])
    t0 = clock()
    render_showdown(pictures[0])
    hit_ms = (clock() - t0) / 1e6
    times.sort()
    sizes.sort()
    emoji_kb = sorted(len(b) / 1024 for b in emoji.values())

    header = f"{'what':<28} {'median':>8} {'p99':>8} {'max':>8}  {'target':<18} met"
    print(f"{len(pictures)} different showdowns, seed {seed}, each drawn once without the cache")
    print(header)
    print("-" * len(header))
    rows = [
        (
            "showdown render (ms)",
            times,
            f"p99 < {P99_TARGET_MS:g}",
            _percentile(times, 0.99) < P99_TARGET_MS,
        ),
        ("showdown PNG (KB)", sizes, f"max < {SHOWDOWN_KB:g}", sizes[-1] < SHOWDOWN_KB),
        (f"emoji PNG (KB), {len(emoji)}", emoji_kb, f"max < {EMOJI_KB:g}", emoji_kb[-1] < EMOJI_KB),
    ]
    all_met = True
    for name, values, target, met in rows:
        all_met &= met
        print(
            f"{name:<28} {_percentile(values, 0.5):>8.1f} {_percentile(values, 0.99):>8.1f} "
            f"{values[-1]:>8.1f}  {target:<18} {'yes' if met else 'NOT MET'}"
        )
    built = emoji_ms < EMOJI_BUILD_MS
    all_met &= built
    print(
        f"{'all 53 emoji built (ms)':<28} {emoji_ms:>8.0f} {'':>8} {'':>8}  "
        f"{f'< {EMOJI_BUILD_MS:g}':<18} {'yes' if built else 'NOT MET'}"
    )
    print(f"{'first render, cold (ms)':<28} {first_ms:>8.1f}")
    print(f"{'cached render (ms)':<28} {hit_ms:>8.3f}")
    print(f"emoji total {sum(emoji_kb):.0f} KB")
    print(f"all targets met: {'yes' if all_met else 'NOT MET'}")
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        (save / "cards.png").write_bytes(card_art.contact_sheet())
        example = picture_from_hand(example_hand(), ("Alice", "Bob"))
        assert example is not None
        (save / "showdown.png").write_bytes(draw_showdown(example))
        print(f"samples written to {save}/cards.png and {save}/showdown.png")
    print(f"took {time.perf_counter() - started:.1f} s")
    return all_met


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time the card art and showdown pictures.")
    parser.add_argument("--showdowns", type=int, default=300, help="showdowns to draw (300)")
    parser.add_argument("--seed", type=int, default=20261201, help="random seed")
    parser.add_argument("--save", type=Path, help="also write the sample pictures here")
    args = parser.parse_args(argv)
    return 0 if run(args.showdowns, args.seed, args.save) else 1


if __name__ == "__main__":
    raise SystemExit(main())
