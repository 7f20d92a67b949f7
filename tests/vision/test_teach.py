"""Teach mode: a set of a new look learnt from five pictures per face, stored, and read by it;
issue 18's figure, 200 new frames read at 99% or better, is :func:`test_a_taught_set_reads_200_new_frames`
(``bench/teach_reader.py`` prints it)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Callable

import cv2
import numpy as np
import pytest

from controller.games.dice import DieKind
from controller.games.errors import ConfigError, InvalidInput
from vision.face_art import Lettering
from vision.faces import Hit, read_faces
from vision.photos import load_set
from vision.render import Scene, SceneSpec, render_scene
from vision.teach import (TEACH_TURNS, PictureDoubt, PictureRefused, SetDoubt, TaughtSet, set_path, taught_set,
                         teach)

NEW_LOOK = Lettering("uni", 350, slant=0.18, width=0.85)
"""Thin slanted narrow letters: no shipped letter die looks like this."""

NEW_COLOURS = (((70, 150, 95), ((245, 245, 245),)),)
"""An olive-green body with white letters: not a training colour."""


def new_look(seed: int, values: list[int], size: tuple[int, int] = (240, 180), cocked: int = 0) -> Scene:
    """A rendered frame of dice of the new look showing ``values``, the last ``cocked`` leaning."""
    spec = SceneSpec(size=size, die_px=(48, 60), kind="letters", lettering=NEW_LOOK, palette=NEW_COLOURS,
                     background="random", noise=3, tint=1.0, cocked=cocked)
    return render_scene(random.Random(seed), spec, values=values)


def picture(seed: int, values: list[int], size: tuple[int, int] = (240, 180)) -> tuple[np.ndarray, list[int | None]]:
    scene = new_look(seed, values, size)
    return scene.image, [d.value for d in scene.dice]


@pytest.fixture(scope="module")
def taught(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder of a table taught the new set from 5 pictures of each face (one die each)."""
    faces = DieKind.LETTERS.faces
    pictures = {face: [picture(100 + 10 * k + n, [k + 1])[0] for n in range(5)] for k, face in enumerate(faces)}
    folder = tmp_path_factory.mktemp("data")
    teach(DieKind.LETTERS, pictures).save(set_path(DieKind.LETTERS, folder))
    return folder


def test_reading_uses_the_set_in_the_data_folder(taught: Path, tmp_path: Path) -> None:
    stored = taught_set(DieKind.LETTERS, taught)
    assert stored is not None
    only_h = TaughtSet(DieKind.LETTERS, stored.embeddings, np.full_like(stored.values, 6))  # every crop taught as H
    only_h.save(set_path(DieKind.LETTERS, tmp_path))
    image, _ = picture(9000, [1, 3], (360, 240))
    readings = read_faces(image, "letters", data=tmp_path).dice
    assert readings and all(r.value in (6, None) for r in readings)
    assert any(r.value == 6 for r in readings)


def test_the_dice_of_a_taught_set_are_found_though_their_look_is_new(taught: Path) -> None:
    # the face network takes these thin letters for small dice (a 55 px die was guessed 14 px) and
    # lost most of the dice: 12 frames, 22 dice, 11 found and 4 read right before the taught set
    # was also looked for at three times the guess; 22 found and 19 read right after, and 21 once
    # each die is placed on its top face by the set's body colour
    found = right = total = 0
    for seed in range(5000, 5012):
        rng = random.Random(seed)
        image, truth = picture(seed, [rng.randint(1, 6) for _ in range(rng.randint(1, 3))], (360, 240))
        readings = read_faces(image, "letters", data=taught).dice
        total += len(truth)
        found += min(len(readings), len(truth))
        read: Counter[int | None] = Counter(r.value for r in readings if r.value)  # truth holds None too
        right += sum((read & Counter(truth)).values())
    assert total == 22 and found == 22 and right >= 21


@pytest.mark.slow
def test_a_taught_set_reads_200_new_frames(taught: Path) -> None:
    # issue 18: taught from 5 pictures per face, 200 new frames read at 99% or better; with the
    # dice read where the finder put them, 60.0% (403 dice, 4 read wrong but accepted); placed on
    # their top faces (vision.top_face), 99.0% (about 90 s of CPU)
    from tests.vision.conftest import dice_bench  # here: bench/teach_reader.py imports this module

    bench = dice_bench()
    tally = bench.Tally()
    for seed in range(5000, 5200):
        rng = random.Random(seed)
        scene = new_look(seed, [rng.randint(1, 6) for _ in range(rng.randint(1, 3))], (360, 240))
        truths = [bench.Truth(d.value, d.box) for d in scene.dice]
        tally += bench.score(read_faces(scene.image, "letters", data=taught).dice, truths)
    assert tally.labelled == 403
    assert tally.right >= 0.99 * tally.labelled
    assert tally.sure_wrong == 0


def test_a_set_stored_before_the_body_colour_is_still_read(taught: Path, tmp_path: Path) -> None:
    stored = taught_set(DieKind.LETTERS, taught)
    assert stored is not None and stored.body is not None
    TaughtSet(DieKind.LETTERS, stored.embeddings, stored.values).save(set_path(DieKind.LETTERS, tmp_path))
    older = taught_set(DieKind.LETTERS, tmp_path)
    assert older is not None and older.body is None
    image, truth = picture(9001, [2, 5], (360, 240))
    assert [r.value for r in read_faces(image, "letters", data=tmp_path).dice]  # read where the finder puts them


def test_the_nearest_taught_face_wins_and_a_far_die_is_another_kind() -> None:
    embeddings = np.eye(6, 8, dtype=np.float32)  # one crop per face, each along its own axis
    taught_letters = TaughtSet(DieKind.LETTERS, embeddings, np.arange(1, 7))
    near_third = np.array([[0.1, 0.1, 0.98, 0, 0, 0, 0, 0]], np.float32)
    assert taught_letters.value(near_third, 1.0)[::2] == (3, None)
    assert taught_letters.value(near_third, 1.0)[1] > 0.99
    far = np.array([[0, 0, 0, 0, 0, 0, 1.0, 0]], np.float32)
    assert taught_letters.value(far, 1.0)[0::2] == (None, "other_kind")


def test_a_cube_whose_top_face_is_foreshortened_is_doubted_not_taken() -> None:
    """A letter die placed on a top face whose least rectangle is narrower than SQUARE_UNDER is
    read no surer than FORESHORTENED_SURENESS, its value kept; a square face, a die not placed on
    a face (None), and a d8's triangle (not a cube) are read as surely as their likeness says."""
    from vision.teach import FORESHORTENED_SURENESS, SQUARE_UNDER

    near_third = np.array([[0.1, 0.1, 0.98, 0, 0, 0, 0, 0]], np.float32)
    letters = TaughtSet(DieKind.LETTERS, np.eye(6, 8, dtype=np.float32), np.arange(1, 7))
    value, sureness, flag = letters.value(near_third, 1.0, SQUARE_UNDER - 0.01)
    assert (value, flag) == (3, None) and sureness == FORESHORTENED_SURENESS
    assert letters.value(near_third, 1.0, SQUARE_UNDER + 0.01)[1] > 0.99
    assert letters.value(near_third, 1.0, None)[1] > 0.99
    d8 = TaughtSet(DieKind.D8_TAUREN, np.eye(8, 8, dtype=np.float32), np.arange(1, 9))
    assert d8.value(near_third, 1.0, 0.87)[1] > 0.99  # an equilateral triangle's rectangle: 0.87


def _hit_read_by_the_network_as(kind: DieKind, value: int, embeddings: np.ndarray,
                                face_aspect: float | None = None) -> Hit:
    """A hit whose network classes read ``value`` of ``kind`` at 0.95, with the taught crops' ``embeddings``."""
    from vision.face_classes import CLASSES, face_class

    probs = np.zeros(len(CLASSES), np.float32)
    probs[face_class(kind, value)] = 0.95
    probs[face_class(kind, 1 if value != 1 else 2)] = 0.05
    return Hit((50.0, 50.0), 40.0, probs, embeddings=embeddings, face_aspect=face_aspect)


def test_a_face_the_set_doubts_is_taken_when_the_network_surely_reads_the_same_face() -> None:
    """A die halfway between the set's 3 and 4 (doubted by the set): taken when the network's own
    classes surely read the 3 the set leans to, at the network's confidence; doubted still when
    the network reads another face (a set whose art the network reads otherwise), or when the
    cube's top face is foreshortened."""
    from vision.faces import _value
    from vision.read import UNCERTAIN
    from vision.teach import SQUARE_UNDER

    letters = TaughtSet(DieKind.LETTERS, np.eye(6, 8, dtype=np.float32), np.arange(1, 7))
    between = np.array([[0, 0, 0.72, 0.715, 0, 0, 0, 0]], np.float32)
    doubted = letters.value(between, 1.0)
    assert doubted[0] == 3 and doubted[1] < UNCERTAIN
    agreed = _value(_hit_read_by_the_network_as(DieKind.LETTERS, 3, between), DieKind.LETTERS, letters)
    assert agreed[0::2] == (3, None) and agreed[1] == pytest.approx(0.95)
    assert _value(_hit_read_by_the_network_as(DieKind.LETTERS, 5, between), DieKind.LETTERS, letters) == doubted
    leaning = _hit_read_by_the_network_as(DieKind.LETTERS, 3, between, SQUARE_UNDER - 0.05)
    assert _value(leaning, DieKind.LETTERS, letters)[1] < UNCERTAIN


@pytest.mark.parametrize("seed", [7056, 7070, 7073, 7082])
def test_a_leaning_die_of_a_taught_set_is_not_taken(taught: Path, seed: int) -> None:
    """Leaning letter dice of the new look (bench/teach_reader.py --lean-frames) that the cocked
    network, which never saw the look, lets through: read at CUBE_TEMPERATURE without their top
    face's shape they were taken with a value (a 6 at 0.94, a 4 read 1 at 0.78, a 2 at 0.80, a 5
    at 0.79; the 2 at TEMPERATURE too). Their foreshortened faces (under SQUARE_UNDER) are doubted,
    and the players move the die."""
    scene = new_look(seed, [random.Random(seed).randint(1, 6)], (360, 240), cocked=1)
    readings = read_faces(scene.image, "letters", data=taught).dice
    leaning = scene.dice[0]
    x, y, w, h = leaning.box
    on_it = [r for r in readings if x <= r.center[0] <= x + w and y <= r.center[1] <= y + h]
    assert on_it, "the leaning die is found"
    assert not any(r.sure for r in on_it), [(r.value, r.confidence, r.flag) for r in on_it]


def test_grey_pictures_teach_a_set() -> None:
    # the body colour is taken from the pictures as they are given: a grey one was a cv2 error
    grey = {face: [cv2.cvtColor(picture(100 + 10 * k, [k + 1])[0], cv2.COLOR_BGR2GRAY)]
            for k, face in enumerate(DieKind.LETTERS.faces)}
    taught_grey = teach(DieKind.LETTERS, grey)
    assert taught_grey.body is not None and abs(float(taught_grey.body[1]) - 128) < 2  # no colour in grey
    assert set(taught_grey.values.tolist()) == set(range(1, 7))


def test_a_face_without_pictures_is_refused() -> None:
    with pytest.raises(InvalidInput, match="no pictures of faces E D L O H"):
        teach(DieKind.LETTERS, {"M": [picture(1, [1])[0]]})


def test_a_picture_without_a_die_is_refused() -> None:
    empty = np.full((200, 200, 3), 90, np.uint8)
    with pytest.raises(InvalidInput, match="no die found in picture 1 of face M"):
        teach(DieKind.LETTERS, {face: [empty] for face in DieKind.LETTERS.faces})


def real_d6(photo: int = 0) -> np.ndarray:
    """A real photo of a pip d6 and the tray around it: the first die of a development photo."""
    shot = load_set()[photo]
    (x, y), side = shot.dice[0].center, 2 * shot.dice[0].side
    return shot.load()[int(max(0.0, y - side)):int(y + side), int(max(0.0, x - side)):int(x + side)]


def rendered_d6() -> np.ndarray:
    """A rendered picture of one pip d6 (a 4) on felt."""
    return render_scene(random.Random(3), SceneSpec(size=(320, 240), die_px=(50, 60), kind="d6"), values=[4]).image


def shipped_set(kind: DieKind, first: np.ndarray) -> dict[str, list[np.ndarray]]:
    """A picture of each face of a ``kind`` die of the shipped look, the first face's being ``first``."""
    pictures = {face: [render_scene(random.Random(k), SceneSpec(size=(320, 240), die_px=(50, 60), kind=kind.value),
                                    values=[k + 1]).image] for k, face in enumerate(kind.faces)}
    pictures[kind.faces[0]] = [first]
    return pictures


@pytest.mark.parametrize("kind", [DieKind.LETTERS, DieKind.D8_TAUREN, DieKind.D12])
@pytest.mark.parametrize("pips", [real_d6, rendered_d6])
def test_a_pip_die_among_a_face_dies_pictures_is_refused(kind: DieKind, pips: Callable[[], np.ndarray]) -> None:
    # it was taught as that face, silently, and the table then read the set's dice by a pip die's crops
    with pytest.raises(PictureRefused, match=f"a pip die, not a {kind.value} die in picture 1 of face "
                                             f"{kind.faces[0]}: take it out") as refused:
        teach(kind, shipped_set(kind, pips()))
    assert (refused.value.face, refused.value.number) == (kind.faces[0], 1)


def test_a_photo_of_many_pip_dice_is_refused() -> None:
    shot = load_set()[1].load()
    with pytest.raises(PictureRefused, match="a pip die, not a letters die in picture 1 of face M"):
        teach(DieKind.LETTERS, shipped_set(DieKind.LETTERS, shot))


@pytest.mark.parametrize("size", [(24, 18), (4, 4)])
def test_a_thumbnail_is_refused(size: tuple[int, int]) -> None:
    # 24x18 was taught (a 7-pixel "die", its crop all blur); 4x4 said "image must be a BGR, BGRA or grey
    # picture at least 8 pixels across", naming no picture
    thumbnail = cv2.resize(picture(100, [1])[0], size, interpolation=cv2.INTER_AREA)
    with pytest.raises(PictureRefused, match="in picture 1 of face M: give the photo itself, not a thumbnail"):
        teach(DieKind.LETTERS, shipped_set(DieKind.LETTERS, thumbnail))


def three_of_each() -> dict[str, list[np.ndarray]]:
    """Three pictures of each face of the new look, one die each."""
    return {face: [picture(100 + 10 * k + n, [k + 1])[0] for n in range(3)] for k, face in enumerate(DieKind.LETTERS.faces)}


def test_a_picture_of_another_face_filed_under_this_one_is_refused() -> None:
    # an O filed under H was taught as an H, silently
    pictures = three_of_each()
    pictures["H"].append(picture(777, [5])[0])
    with pytest.raises(PictureRefused, match=r"it shows O, not H \(as alike as 0\.9\d\d to the pictures of O, 0\.\d+ "
                                             r"to the other pictures of H\) in picture 4 of face H: move it to the pictures of face O"):
        teach(DieKind.LETTERS, pictures)


def test_a_die_of_another_face_beside_one_of_this_face_is_refused() -> None:
    pictures = three_of_each()
    pictures["H"].append(picture(5, [6, 5], (360, 240))[0])  # an H and an O
    with pytest.raises(PictureRefused, match="one of its dice shows O, not H .* in picture 4 of face H: "
                                             "give pictures of H dice only"):
        teach(DieKind.LETTERS, pictures)


def test_a_pip_die_the_pip_reader_doubts_is_taught_but_said_to_be_doubtful() -> None:
    # the pip reader reads this d6 (a 3) under its threshold: it was taught as an H without a word
    pictures = three_of_each()
    pictures["H"].append(render_scene(random.Random(8), SceneSpec(size=(320, 240), die_px=(50, 60), kind="d6"),
                                      values=[3]).image)
    doubts: list[PictureDoubt | SetDoubt] = []
    teach(DieKind.LETTERS, pictures, doubts.append)
    doubt = next(d for d in doubts if isinstance(d, PictureDoubt) and (d.face, d.number) == ("H", 4))
    assert doubt.problem.startswith("taught, but unlike the other pictures of H (0.")
    assert doubt.fix == "if it is not one H of this set, take it out and teach again"


def test_a_set_whose_pictures_do_not_tell_its_faces_apart_is_taught_with_a_warning() -> None:
    """Every face given pictures of the same H: the pictures left out in turn are read as one face
    or another at random, under TOLD_APART_LEAST (a d12 set of the table camera's frames told 22 of
    60 apart and then read 50 of 122 dice right); the new look's pictures tell theirs apart."""
    same = {face: [picture(300 + 10 * k + n, [1])[0] for n in range(3)]
            for k, face in enumerate(DieKind.LETTERS.faces)}
    doubts: list[PictureDoubt | SetDoubt] = []
    teach(DieKind.LETTERS, same, doubts.append)
    said = [d for d in doubts if isinstance(d, SetDoubt)]
    assert len(said) == 1 and said[0].problem.startswith("its pictures tell its faces apart for only ")
    assert said[0].fix.endswith("(remove letters.npz from the data folder's faces/)")
    kept: list[PictureDoubt | SetDoubt] = []
    teach(DieKind.LETTERS, three_of_each(), kept.append)
    assert not [d for d in kept if isinstance(d, SetDoubt)]


def test_two_dice_of_the_face_in_one_picture_teach_it() -> None:
    pictures = three_of_each()
    pictures["H"].append(picture(8, [6, 6], (360, 240))[0])
    assert (teach(DieKind.LETTERS, pictures).values == 6).sum() > 3 * len(TEACH_TURNS)


def test_a_set_taught_with_another_network_must_be_taught_again(taught: Path, tmp_path: Path) -> None:
    stored = taught_set(DieKind.LETTERS, taught)
    assert stored is not None
    path = set_path(DieKind.LETTERS, tmp_path)
    stored.save(path)
    with np.load(path) as data:
        fields = dict(data)
    fields["network"] = np.array("0000000000000000")
    np.savez(path.open("wb"), **fields)
    with pytest.raises(ConfigError, match="teach it again"):
        taught_set(DieKind.LETTERS, tmp_path)
