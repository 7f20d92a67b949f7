"""``dicetable odds``: the category table a game designer reads, and its JSON."""

import json

from controller.cli import main


def test_odds_table_lists_categories_in_ranking_order_with_rarity(capsys):
    assert main(["odds", "--game", "tauren"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Tauren Hold'em (shaman=ace, wrap): every roll of 7 dice, 2,097,152")
    assert lines[2].split()[:5] == ["1", "five", "of", "a", "kind"]
    assert "1 (rarest)" in lines[2]
    assert lines[9] == "   8  high die                   0      0.0000%         -  never"


def test_odds_table_shows_the_ranking_is_not_in_order_of_rarity(capsys):
    assert main(["odds", "--game", "diceholdem"]) == 0
    out = capsys.readouterr().out
    assert "Not in order of rarity:" in out
    assert "holdem beats yet is more common than five of a kind" in out


def test_odds_json_gives_exact_counts_that_add_up(capsys):
    assert main(["odds", "--game", "tauren", "--shaman", "wild", "--json"]) == 0
    odds = json.loads(capsys.readouterr().out)
    assert odds["outcomes"] == 8 ** 7
    assert sum(row["rolls"] for row in odds["categories"]) == 8 ** 7
    assert [row["category"] for row in odds["categories"]][0] == "five_of_a_kind"


def test_odds_for_five_dice(capsys):
    assert main(["odds", "--game", "diceholdem", "--dice", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcomes"] == 6 ** 5
