"""The lookup tables against the brute-force reference evaluator, over every multiset of dice."""

from collections import Counter
from itertools import combinations_with_replacement

import pytest

from controller.games.hand_reference import reference_rank
from controller.games.hand_rules import HandRules, face_codes
from controller.games.hand_table import build_table
from controller.games.hands import HAND_SIZES, evaluator

ALL_RULES = [HandRules("diceholdem")] + [HandRules("tauren", shaman, wrap)
                                         for shaman in ("ace", "high", "low", "wild")
                                         for wrap in (True, False)]


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: f"{rules.game}-{rules.describe()}")
def test_table_equals_reference_on_every_multiset(rules):
    codes = face_codes(rules)
    mismatches = []
    for size in HAND_SIZES:
        table = build_table(rules, size)
        for dice in combinations_with_replacement(rules.faces, size):
            fast = table[sum(codes[face] for face in dice)]
            slow = reference_rank(rules, dice)
            same = (fast.key == slow.key and fast.category == slow.category
                    and Counter(fast.played_as) == Counter(slow.played_as))
            if not same:
                mismatches.append((dice, fast, slow))
    assert mismatches == []


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: f"{rules.game}-{rules.describe()}")
def test_table_best_dice_are_dice_of_the_hand_on_every_multiset(rules):
    codes = face_codes(rules)
    for dice in combinations_with_replacement(rules.faces, 7):
        best = evaluator(rules).rank_of_code(sum(codes[face] for face in dice)).best
        assert not Counter(best) - Counter(dice), dice


@pytest.mark.parametrize("game, multisets", [("tauren", 3432), ("diceholdem", 792)])
def test_seven_dice_have_few_multisets(game, multisets):
    assert len(build_table(HandRules(game), 7)) == multisets


def test_strength_orders_every_seven_dice_multiset_like_the_key():
    hands = evaluator(HandRules("tauren", "wild"))
    codes = list(build_table(hands.rules, 7))
    by_key = sorted(codes, key=lambda code: hands.rank_of_code(code).key)
    strengths = [hands.strength_of_code(code) for code in by_key]
    assert strengths == sorted(strengths)
    for low, high in zip(by_key, by_key[1:]):
        same_key = hands.rank_of_code(low).key == hands.rank_of_code(high).key
        assert same_key == (hands.strength_of_code(low) == hands.strength_of_code(high))
