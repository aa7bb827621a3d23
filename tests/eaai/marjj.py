"""MARJJ, the EAAI-2021 challenge's winner, from its public source (``MARJJ_v5-1.java``).

A reading of the published policy, written for this harness:

- **Draw.** Take the face-up card only when, among the least-deadwood arrangements of the
  eleven cards, the one it would lay down (the least lay-off risk, below) puts that card in a
  meld, and the best discard after taking it leaves less deadwood than the hand had.
- **Discard.** Candidates are the cards left out of a meld by some least-deadwood arrangement
  (never the face-up card just taken), within 5 points of the highest of them; a discard that
  leaves gin is made at once, and a candidate leaving more than 5 over the best is dropped.
  Each is scored ``deadwood left + 18 * 0.9 ** (turn - 1) * future + danger``, where
  ``future`` is the mean of the seven best deadwoods reachable by one more draw of a card it
  has not seen, and ``danger`` adds or takes away points for the neighbours of the card the
  opponent holds (it took them from the pile) or cannot have (seen). Lowest wins; ties at
  random.
- **Knock.** In its first three turns it goes out with 10 or less; after that only with gin.

The published program's quirks are kept, since they are part of how it plays: cards the
opponent took from the pile stay "held" after the opponent throws them, a card taken by the
opponent before MARJJ saw it still counts as a possible draw, the danger score's queen/king
boundary marks the adjacent card and not the second one, the same-rank penalty tests the
count of unavailable cards, and the lay-off estimate values a run's ends by its own end cards.
"""

from __future__ import annotations

import random

from bot.gin.ai import handmath as hm
from bot.gin.melds import min_arrangements
from tests.eaai.players import HostPlayer

MAX_DEADWOOD_DIFFERENCE = 5
INIT_WEIGHT = 18.0
DECAY = 0.9
MAX_CARDS_TO_CONSIDER = 7
EARLY_TURNS = 3

SEQUENCE_BONUS = -10.0
ADJ_BONUS = -5.0
ADJ2_BONUS = -3.0
SEQUENCE_PENALTY = 20.0
ADJ_PENALTY = 5.0
ADJ2_PENALTY = 3.0
SET_BONUS = -10.0
RANK_BONUS = -4.0
SET_PENALTY = 20.0
RANK_PENALTY = 4.0


class MarjjPlayer(HostPlayer):
    name = "marjj"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seat = 0
        self.hand = 0
        self.seen = 0
        self.opponent = 0  # cards the opponent took from the pile (never cleared in a hand)
        self.face_up = -1
        self.turns = 0
        self.opponent_knocked = False

    def start_hand(self, seat: int, first: int, cards: list[int]) -> None:
        self.seat = seat
        self.hand = hm.mask_of(cards)
        self.seen = self.hand
        self.opponent = 0
        self.face_up = -1
        self.turns = 0
        self.opponent_knocked = False

    # --- callbacks ----------------------------------------------------------------------------

    def will_draw_face_up(self, card: int) -> bool:
        self.seen |= 1 << card
        self.face_up = card
        with_card = self.hand | 1 << card
        chosen = self.lay_down(with_card)
        if chosen is None or not any(card in meld for meld in chosen):
            return False
        return hm.best_discard(with_card)[0] < hm.deadwood(self.hand)

    def report_draw(self, seat: int, card: int | None) -> None:
        if seat == self.seat:
            if card is not None:
                self.hand |= 1 << card
                self.seen |= 1 << card
        elif card is not None:
            self.opponent |= 1 << card

    def report_discard(self, seat: int, card: int) -> None:
        if seat == self.seat:
            self.hand &= ~(1 << card)
        else:
            self.seen |= 1 << card

    def report_knock(self, seat: int) -> None:
        if seat != self.seat:
            self.opponent_knocked = True

    def knocks(self) -> bool:
        left = hm.deadwood(self.hand)
        if left < 11 and self.turns < EARLY_TURNS + 1:
            return True
        return left == 0

    # --- the discard ----------------------------------------------------------------------

    def get_discard(self) -> int:
        self.turns += 1
        candidates = self.candidates()
        if len(candidates) == 1:
            return candidates[0][0]
        decay = INIT_WEIGHT * DECAY ** (self.turns - 1)
        best = float("inf")
        tied: list[int] = []
        for card, left in candidates:
            score = left + decay * self.future(self.hand & ~(1 << card)) + self.danger(card)
            if score < best:
                best = score
                tied = [card]
            elif score == best:
                tied.append(card)
        return self.rng.choice(tied)

    def candidates(self) -> list[tuple[int, int]]:
        """``getUnmeldedCards``: (card, deadwood left) for each discard worth scoring."""
        hand = self.hand
        cards = hm.cards_of(hand)
        arrangements = min_arrangements(cards)
        loose: set[int] = set()
        if all(not a.melds for a in arrangements):
            loose = {c for c in cards if c != self.face_up}
        else:
            for arrangement in arrangements:
                loose.update(int(c) for c in arrangement.deadwood if c != self.face_up)
        if loose:
            biggest = max(hm.VALUE[c] for c in loose)
            loose = {c for c in loose if hm.VALUE[c] >= biggest - MAX_DEADWOOD_DIFFERENCE}
        picked = sorted(loose)
        if len(picked) == 1:
            card = picked[0]
            return [(card, hm.deadwood(hand & ~(1 << card)))]
        if not picked:
            picked = [c for c in cards if c != self.face_up]
        out: list[tuple[int, int]] = []
        least = hm.BIG
        for card in picked:
            left = hm.deadwood(hand & ~(1 << card))
            if left == 0:
                return [(card, 0)]
            least = min(least, left)
            out.append((card, left))
        return [(c, left) for c, left in out if left <= least + MAX_DEADWOOD_DIFFERENCE]

    def future(self, rest: int) -> float:
        """The mean of the seven least deadwoods one more draw of an unseen card can reach."""
        outcomes = []
        unseen = hm.FULL & ~self.seen
        while unseen:
            low = unseen & -unseen
            unseen ^= low
            outcomes.append(hm.best_discard(rest | low)[0])
        outcomes.sort()
        top = outcomes[:MAX_CARDS_TO_CONSIDER]
        return sum(top) / len(top) if top else 0.0

    def danger(self, card: int) -> float:
        """``getOpponentDeadwoodImprovement`` for one card, quirks and all."""
        rank = card % 13
        mine = self.hand
        seen = self.seen
        opponent = self.opponent

        def classify(other: int) -> tuple[bool, bool]:
            bit = 1 << other
            if opponent & bit:
                return True, False
            return False, bool((mine | seen) & bit)

        opp_higher, gone_higher = classify(card + 1) if rank < 12 else (False, True)
        opp_lower, gone_lower = classify(card - 1) if rank > 0 else (False, True)
        if rank < 11:
            opp_higher2, gone_higher2 = classify(card + 2)
        else:
            gone_higher = True
            opp_higher2, gone_higher2 = False, False
        opp_lower2, gone_lower2 = classify(card - 2) if rank > 1 else (False, True)
        opp_rank = 0
        gone_rank = 0
        for suit in range(4):
            other = suit * 13 + rank
            held, gone = classify(other)
            opp_rank += held
            gone_rank += gone

        score = 0.0
        if (gone_higher and (gone_lower or gone_lower2)) or (
            gone_lower and (gone_higher or gone_higher2)
        ):
            score += SEQUENCE_BONUS
        else:
            score += ADJ_BONUS * (gone_lower + gone_higher)
            score += ADJ2_BONUS * (gone_lower2 + gone_higher2)
        if (opp_higher and (opp_lower or opp_lower2)) or (
            opp_lower and (opp_higher or opp_higher2)
        ):
            score += SEQUENCE_PENALTY
        else:
            score += ADJ_PENALTY * (opp_lower + opp_higher)
            score += ADJ2_PENALTY * (opp_lower2 + opp_higher2)
        if gone_rank >= 3:
            score += SET_BONUS
        elif gone_rank == 2:
            score += RANK_BONUS
        if opp_rank >= 2:
            score += SET_PENALTY
        elif gone_rank == 1:
            score += RANK_PENALTY
        return score

    # --- the melds it would lay down --------------------------------------------------------

    def lay_down(self, hand: int) -> list[list[int]] | None:
        """``getBestMeld``: of the least-deadwood arrangements, the one whose melds leave the
        opponent the fewest points to lay off (by MARJJ's estimate); None with no meld."""
        arrangements = min_arrangements(hm.cards_of(hand))
        if all(not a.melds for a in arrangements):
            return None
        best: list[list[int]] | None = None
        best_points = None
        for arrangement in arrangements:
            melds = [[int(c) for c in meld] for meld in arrangement.melds]
            points = sum(self.lay_off_estimate(meld) for meld in melds)
            if best_points is None or points < best_points:
                best, best_points = melds, points
        return best

    def lay_off_estimate(self, meld: list[int]) -> int:
        def open_card(card: int) -> bool:
            bit = 1 << card
            return bool(self.opponent & bit) or not self.seen & bit

        points = 0
        low, high = meld[0], meld[-1]
        if low // 13 == meld[1] // 13:  # a run, its cards in order
            if low % 13 > 0 and open_card(low - 1):
                points += min(low % 13 + 1, 10)
            if high % 13 < 12 and open_card(high + 1):
                points += min(high % 13 + 1, 10)
            return points
        for card in meld:
            # The host's suit cycle: every card looks at the next suit's card of its rank.
            if open_card(_next_suit(card)):
                points += hm.VALUE[card]
        return points


# The challenge's suit order is clubs, hearts, spades, diamonds; the engine's is spades,
# hearts, diamonds, clubs. "The next suit" in the challenge's order, in the engine's numbers.
_ENGINE_TO_HOST = (2, 1, 3, 0)
_HOST_TO_ENGINE = (3, 1, 0, 2)


def _next_suit(card: int) -> int:
    suit, rank = divmod(card, 13)
    return _HOST_TO_ENGINE[(_ENGINE_TO_HOST[suit] + 1) % 4] * 13 + rank
