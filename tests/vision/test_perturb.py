"""The perturbation bench's changes (vision.perturb): deterministic, and the boxes follow the dice."""

from __future__ import annotations

import numpy as np
import pytest

from vision.perturb import CHANGES, change, changed


def _photo() -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    image = np.full((120, 160, 3), 90, np.uint8)
    image[20:40, 100:120] = 250  # one white "die" at x 100..120, y 20..40
    return image, [(100.0, 20.0, 20.0, 20.0)]


@pytest.mark.parametrize("which", CHANGES, ids=lambda c: c.name)
def test_every_change_is_deterministic_and_keeps_the_die_in_its_box(which: object) -> None:
    image, boxes = _photo()
    first, moved = changed(image, boxes, which, 7)  # type: ignore[arg-type]
    again, _ = changed(image, boxes, which, 7)  # type: ignore[arg-type]
    assert np.array_equal(first, again) and len(moved) == 1
    x, y, w, h = moved[0]
    middle = first[int(y + h * 0.35):int(y + h * 0.65) + 1, int(x + w * 0.35):int(x + w * 0.65) + 1]
    brightness = 0.6 if "0.6" in which.name else 1.0  # type: ignore[attr-defined]
    assert middle.size and middle.mean() > 0.8 * 250 * brightness - 10  # the die's middle is still there
    assert abs(w - 20 * {"shrunk to 50%": 0.5, "shrunk to 35%": 0.35, "enlarged to 150%": 1.5}.get(
        which.name, 1.0)) < 0.5  # type: ignore[attr-defined]


def test_the_random_changes_differ_by_seed_and_the_frame_has_the_pi_size() -> None:
    image, boxes = _photo()
    noisy = change("sensor noise sigma 8")
    assert not np.array_equal(changed(image, boxes, noisy, 1)[0], changed(image, boxes, noisy, 2)[0])
    framed, moved = changed(image, boxes, change("in a 1536x864 frame"), 0)
    assert framed.shape == (864, 1536, 3) and moved[0][:2] == (100.0 + 688, 20.0 + 372)
    with pytest.raises(KeyError):
        change("upside down")
