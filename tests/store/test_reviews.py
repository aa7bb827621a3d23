"""A hand's review is claimed by one caller, on any connection or process, and sent once."""

from __future__ import annotations

import asyncio

from bot.store import ReviewKey
from tests.store.helpers import AnyStore, at, new_match


async def test_a_review_is_claimed_once_and_sent_once(store: AnyStore) -> None:
    mid = await new_match(store)
    key = ReviewKey(mid, 3, 0, 1)
    claims = await asyncio.gather(*(store.claim_review(key, at(10), at(70)) for _ in range(5)))
    assert sorted(claims, key=str) == [None, "working", "working", "working", "working"]
    # Another player of the hand, another hand, another board: reviews of their own.
    for other in (ReviewKey(mid, 3, 0, 0), ReviewKey(mid, 4, 0, 1), ReviewKey(mid, 3, 1, 1)):
        assert await store.claim_review(other, at(10), at(70)) is None
    await store.settle_review(key, sent=True)
    assert await store.claim_review(key, at(11), at(71)) == "sent"
    # A sent review never lapses.
    assert await store.claim_review(key, at(500), at(560)) == "sent"


async def test_a_review_not_sent_or_left_by_a_dead_maker_can_be_made_again(
    store: AnyStore,
) -> None:
    mid = await new_match(store)
    shown_here, abandoned = ReviewKey(mid, 1, 0, 0), ReviewKey(mid, 2, 0, 0)
    assert await store.claim_review(shown_here, at(10), at(70)) is None
    await store.settle_review(shown_here, sent=False)  # DMs closed: shown privately
    assert await store.claim_review(shown_here, at(11), at(71)) is None
    # Its maker died while making it: the claim holds until it lapses, then goes to the next.
    assert await store.claim_review(abandoned, at(10), at(70)) is None
    assert await store.claim_review(abandoned, at(69), at(129)) == "working"
    assert await store.claim_review(abandoned, at(70), at(130)) is None
    assert await store.claim_review(abandoned, at(71), at(131)) == "working"
    # Dropping a claim never drops a review that was sent.
    await store.settle_review(abandoned, sent=True)
    await store.settle_review(abandoned, sent=False)
    assert await store.claim_review(abandoned, at(200), at(260)) == "sent"
