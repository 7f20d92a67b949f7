"""Invariants of hand evaluation, on random dice under random rule options (hypothesis)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.hand_reference import rank_five, reference_rank
from controller.games.hand_rules import HandRules
from controller.games.hands import evaluator

RULES = st.one_of(st.just(HandRules("diceholdem")),
                  st.builds(HandRules, st.just("tauren"),
                            st.sampled_from(["ace", "high", "low", "wild"]), st.booleans()))


@st.composite
def rules_and_hands(draw, count):
    rules = draw(RULES)
    hand = st.lists(st.sampled_from(rules.faces), min_size=5, max_size=7)
    return rules, [draw(hand) for _ in range(count)]


def sign(number):
    return (number > 0) - (number < 0)


def compare(left, right):
    return sign((left > right) - (left < right))


@settings(max_examples=300, deadline=None)
@given(rules_and_hands(3))
def test_key_order_is_a_total_preorder_agreeing_with_the_reference(case):
    rules, hands = case
    keys = [evaluator(rules).key(hand) for hand in hands]
    slow = [reference_rank(rules, hand).key for hand in hands]
    for i in range(3):
        for j in range(3):
            assert compare(keys[i], keys[j]) == compare(slow[i], slow[j])
    first, second, third = sorted(keys)
    assert first <= second <= third and first <= third


@settings(max_examples=300, deadline=None)
@given(rules_and_hands(1), st.randoms(use_true_random=False))
def test_permuting_the_dice_never_changes_the_rank(case, random):
    rules, (hand,) = case
    shuffled = list(hand)
    random.shuffle(shuffled)
    assert evaluator(rules).rank(shuffled) == evaluator(rules).rank(hand)


@settings(max_examples=300, deadline=None)
@given(rules_and_hands(1))
def test_best_is_a_sub_multiset_of_the_dice(case):
    rules, (hand,) = case
    assert not Counter(evaluator(rules).rank(hand).best) - Counter(hand)


@settings(max_examples=300, deadline=None)
@given(rules_and_hands(1))
def test_the_played_faces_make_the_hand_without_any_wild_die(case):
    rules, (hand,) = case
    ranked = evaluator(rules).rank(hand)
    if len(ranked.played_as) == 5:
        plain = HandRules("tauren", "ace", rules.wrap) if rules.wild else rules
        assert rank_five(plain, tuple(ranked.played_as)).key == ranked.key


@settings(max_examples=300, deadline=None)
@given(rules_and_hands(2))
def test_strength_orders_hands_like_the_key(case):
    rules, (left, right) = case
    hands = evaluator(rules)
    assert compare(hands.strength(left), hands.strength(right)) == compare(hands.key(left),
                                                                           hands.key(right))
