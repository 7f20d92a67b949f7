"""The ranking rules of RULES.md sections 2 and 3, one behaviour per test."""

import pytest

from controller.games.errors import InvalidInput
from controller.games.hand_rules import Category, HandRules
from controller.games.hands import evaluator

TAUREN = HandRules("tauren")
DICEHOLDEM = HandRules("diceholdem")


def rank(text, rules=TAUREN):
    return evaluator(rules).rank(text.split())


def key(text, rules=TAUREN):
    return evaluator(rules).key(text.split())


@pytest.mark.parametrize("better, worse", [
    ("W W W W W 2 3", "S S S S C C C"),      # five of a kind > four of a kind
    ("2 2 2 2 3 4 5", "S S S C C W W"),      # four of a kind > full house
    ("2 2 2 3 3 4 5", "4 5 6 W C 2 2"),      # full house > straight
    ("2 3 4 5 6 2 2", "S S S C W 5 3"),      # straight > three of a kind
    ("2 2 2 3 5 6 C", "S S C C W W 6"),      # three of a kind > two pair
    ("2 2 3 3 5 6 C", "S S C W 6 3 2"),      # two pair > one pair
])
def test_tauren_categories_rank_in_the_sources_order(better, worse):
    no_wrap = HandRules("tauren", wrap=False)
    assert key(better, no_wrap) > key(worse, no_wrap)


def test_bust_is_possible_without_wrap_and_is_the_lowest_category():
    high = HandRules("tauren", "high", wrap=False)
    assert rank("S C W 5 4 3 2", high).category is Category.HIGH_DIE
    assert key("2 2 3 4 6 W C", high) > key("S C W 5 4 3 2", high)


def test_readable_full_house_uses_the_three_and_the_pair():
    hand = rank("W W W 5 5 C 2")
    assert (hand.category, hand.best) == (Category.FULL_HOUSE, ("W", "W", "W", "5", "5"))


def test_straight_around_the_horn_5_6_W_C_S_is_the_highest():
    assert rank("5 6 W C S 2 2").best == ("S", "C", "W", "6", "5")
    assert key("5 6 W C S 2 2") > key("4 5 6 W C 2 2")


def test_straights_around_the_horn_rank_by_their_top_end():
    in_order = ["6 W C S 2", "W C S 2 3", "C S 2 3 4", "S 2 3 4 5", "2 3 4 5 6", "3 4 5 6 W",
                "4 5 6 W C", "5 6 W C S"]
    keys = [key(straight) for straight in in_order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert all(rank(straight).category is Category.STRAIGHT for straight in in_order)


def test_no_wrap_refuses_straights_around_the_horn():
    assert rank("C S 2 3 4", HandRules("tauren", wrap=False)).category is Category.HIGH_DIE


def test_ace_shaman_still_plays_low_without_wrap():
    assert rank("S 2 3 4 5", HandRules("tauren", "ace", wrap=False)).key == (5, 5)


def test_high_shaman_never_plays_low_without_wrap():
    assert rank("S 2 3 4 5", HandRules("tauren", "high", wrap=False)).category is Category.HIGH_DIE


def test_ace_shaman_kicker_beats_chieftain():
    assert key("S 2 2 3 4") > key("C 2 2 3 4")


def test_low_shaman_ranks_below_two():
    low = HandRules("tauren", "low")
    assert key("S S 3 4 6", low) < key("2 2 3 4 6", low)


def test_low_shaman_without_wrap_ends_no_straight_at_the_top():
    low = HandRules("tauren", "low", wrap=False)
    assert rank("5 6 W C S", low).category is Category.HIGH_DIE
    assert rank("S 2 3 4 5", low).key == (5, 5)


def test_low_shaman_with_wrap_makes_5_6_W_C_S_the_lowest_straight():
    low = HandRules("tauren", "low")
    assert key("5 6 W C S", low) < key("6 W C S 2", low) < key("S 2 3 4 5", low)


def test_wild_shaman_completes_five_of_a_kind():
    hand = rank("W W W S S 2 3", HandRules("tauren", "wild"))
    assert (hand.category, hand.best, hand.played_as) == (
        Category.FIVE_OF_A_KIND, ("W", "W", "W", "S", "S"), ("W",) * 5)


def test_five_wild_shamans_are_the_highest_five_of_a_kind():
    wild = HandRules("tauren", "wild")
    assert rank("S S S S S 2 3", wild).played_as == ("S",) * 5
    assert key("S S S S S 2 3", wild) > key("C C C C C S 3", wild)


def test_wild_shaman_fills_the_gap_of_a_straight():
    hand = rank("S 2 3 5 6 6 6", HandRules("tauren", "wild"))
    assert hand.category is Category.FOUR_OF_A_KIND
    hand = rank("S 2 3 5 6 C 6", HandRules("tauren", "wild"))
    assert (hand.category, hand.played_as) == (Category.STRAIGHT, ("6", "5", "4", "3", "2"))


def test_wild_hands_that_play_the_same_split():
    wild = HandRules("tauren", "wild")
    assert key("S 4 4 2 2 6 C", wild) == key("4 4 4 2 2 6 C", wild) == (6, 4, 2)


def test_groups_compare_by_size_then_rank_then_kickers():
    assert key("3 3 3 2 2 4 5") > key("2 2 2 C C 4 5")          # trips decide a full house
    assert key("C C 6 6 5 3 2") > key("C C 5 5 4 3 2")          # second pair
    assert key("C C 6 6 W 3 2") > key("C C 6 6 5 3 2")          # kicker
    assert key("C C 6 6 W 3 2") == key("6 6 W C C 2 4")         # only five dice count


def test_third_pair_can_be_the_two_pair_kicker():
    assert rank("2 2 3 3 4 4 C", HandRules("tauren", wrap=False)).key == (3, 4, 3, 8)
    assert rank("2 2 3 3 W W 6", HandRules("tauren", wrap=False)).best == ("W", "W", "3", "3", "6")


def test_two_threes_make_a_full_house_with_the_higher_three():
    assert rank("2 2 2 W W W 5").best == ("W", "W", "W", "2", "2")


def test_holdem_beats_five_of_a_kind():
    assert rank("H O L D E M M", DICEHOLDEM).category is Category.HOLDEM
    assert key("H O L D E M M", DICEHOLDEM) > key("H H H H H O L", DICEHOLDEM)


def test_two_holdems_split():
    assert key("H O L D E M M", DICEHOLDEM) == key("H H O L D E M", DICEHOLDEM)


def test_diceholdem_straights_are_holde_and_oldem_only():
    assert rank("H O L D E", DICEHOLDEM).key == (5, 6)
    assert rank("O L D E M", DICEHOLDEM).key == (5, 5)
    assert rank("D E M H O", DICEHOLDEM).category is Category.HIGH_DIE


def test_diceholdem_pips_stand_for_letters():
    assert rank("6 5 4 3 2 1 1", DICEHOLDEM) == rank("H O L D E M M", DICEHOLDEM)


def test_faces_parse_in_any_case():
    assert rank("w w w 5 5 c 2") == rank("W W W 5 5 C 2")


def test_a_bad_face_is_invalid_input_quoting_it():
    with pytest.raises(InvalidInput, match="'X'"):
        rank("2 3 4 X 5")


@pytest.mark.parametrize("dice", ["2 3 4 5", "2 3 4 5 6 6 6 S"])
def test_hands_are_five_to_seven_dice(dice):
    with pytest.raises(InvalidInput, match="5 to 7 dice"):
        rank(dice)


def test_unknown_shaman_option_is_invalid():
    with pytest.raises(InvalidInput, match="'joker'"):
        HandRules("tauren", "joker")


def test_codes_of_hand_and_board_add_up_to_the_code_of_the_seven():
    hands = evaluator(TAUREN)
    assert hands.code("S S".split()) + hands.code("2 3 4 5 6".split()) == hands.code(
        "2 S 3 4 S 5 6".split())


def test_winners_lists_every_hand_that_splits():
    assert evaluator(TAUREN).winners("2 3 4 5 6".split(), ["2 2".split(), "3 3".split(),
                                                           "S 2".split()]) == (0, 1, 2)
