"""Colours given as #rrggbb: in Lab as OpenCV has them, and named in the word a person would use."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from controller.games.errors import InvalidInput
from vision.colour import TELLABLE_COLOURS
from vision.lab import colour_word, lab_of_hex, parse_hex


def test_the_ten_tellable_seat_colours_are_ten_words() -> None:
    assert [colour_word(colour) for colour in TELLABLE_COLOURS] == [
        "red", "blue", "yellow", "green", "purple", "orange", "teal", "pink", "white", "black"]


@pytest.mark.parametrize(("colour", "word"), [
    ("#000080", "blue"), ("#87ceeb", "blue"), ("#4169e1", "blue"), ("#800000", "red"), ("#fa8072", "red"),
    ("#ffd700", "yellow"), ("#32cd32", "green"), ("#40e0d0", "teal"), ("#ff69b4", "pink"),
    ("#663399", "purple"), ("#a0522d", "brown"), ("#d2b48c", "brown"), ("#696969", "grey"),
    ("#000000", "black"), ("#ffffff", "white"), ("#29a0b1", "teal"), ("#e4572e", "red")])
def test_a_colour_is_named_as_a_person_would(colour: str, word: str) -> None:
    assert colour_word(colour) == word


def test_a_colour_that_is_not_rrggbb_has_no_word() -> None:
    with pytest.raises(InvalidInput, match="#rrggbb"):
        colour_word("blue")


@pytest.mark.pi_stack  # scripts/test-pi checks it on the Pi's OpenCV too: a die's pixels are put in Lab by it
def test_a_colour_is_in_the_lab_opencv_gives_a_die_pixel_of_it() -> None:
    rng = random.Random(3)
    colours = ["#%06x" % rng.randrange(1 << 24) for _ in range(2000)]
    pixels = np.array([[parse_hex(colour) for colour in colours]], np.float32) / 255.0
    opencv = cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab)[0]
    plain = np.array([lab_of_hex(colour) for colour in colours])
    assert np.abs(plain - opencv).max() < 0.5
