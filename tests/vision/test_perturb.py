"""The perturbation bench's changes (vision.perturb): deterministic, and the boxes follow the dice."""

from __future__ import annotations

import numpy as np
import pytest

from vision.perturb import CHANGES, LEFT_OUT, change, changed


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
    assert abs(w - 20 * {"shrunk to 50%": 0.5, "shrunk to 35%": 0.35, "enlarged to 150%": 1.5,
                         "close-up of one die": 2.0}.get(which.name, 1.0)) < 0.5  # type: ignore[attr-defined]


def test_the_random_changes_differ_by_seed_and_the_frame_has_the_pi_size() -> None:
    image, boxes = _photo()
    noisy = change("sensor noise sigma 8")
    assert not np.array_equal(changed(image, boxes, noisy, 1)[0], changed(image, boxes, noisy, 2)[0])
    framed, moved = changed(image, boxes, change("in a 1536x864 frame"), 0)
    assert framed.shape == (864, 1536, 3) and moved[0][:2] == (100.0 + 688, 20.0 + 372)
    with pytest.raises(KeyError):
        change("upside down")



def test_a_close_up_frames_one_die_a_third_of_the_photo_across_and_cuts_no_other() -> None:
    image = np.full((400, 600, 3), 90, np.uint8)
    boxes = [(100.0, 100.0, 40.0, 40.0), (175.0, 100.0, 40.0, 40.0), (400.0, 300.0, 40.0, 40.0)]
    for x, y, w, h in boxes:
        image[int(y):int(y + h), int(x):int(x + w)] = 250
    widths = set()
    for seed in range(12):
        out, kept = changed(image, boxes, change("close-up of one die"), seed)
        inside = [box for box in kept if box != LEFT_OUT]
        assert len(kept) == 3 and len(inside) == 1  # the neighbour 35 px away is left out, not cut
        x, y, w, h = inside[0]
        assert w == h == 80 and out.shape[0] == out.shape[1]  # enlarged twice
        assert abs(x + w / 2 - out.shape[1] / 2) < 3 and abs(y + h / 2 - out.shape[0] / 2) < 3
        assert out[int(y + h / 2), int(x + w / 2)].mean() > 200 and out[3, 3].mean() < 100
        widths.add(out.shape[1])
    assert widths == {240, 216}  # the lone die three times its side across; beside a neighbour, 2.7 times
