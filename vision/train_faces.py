"""Train the face network of :mod:`vision.faces` (one small CNN for every kind) on rendered frames.

Run: ``python -m vision.train_faces [--frames N] [--epochs N] [--minutes M] [--seed S] [--out FILE]``
(needs the ``train`` extra: PyTorch and ONNX). The frames come from :mod:`vision.render` with every
kind of die, many die and ink colours (:data:`vision.render.PALETTE`), each die's own lettering
(font face, weight, slant, width, 6/9 underlined or dotted), lighting, tint, blur, noise, JPEG,
perspective, cocked dice and clutter; crops are taken at any rotation, from the frame and from its
working-size copy, and re-coloured every epoch (:func:`vision.train.jitter`). The network is
exported to ONNX with two outputs: ``probs`` (the classes of :mod:`vision.face_classes`) and
``embedding`` (its last hidden layer, which teach mode compares).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from controller.files import FileProblem, check_output
from controller.games.dice import DieKind
from vision.crops import crop, facing, frame_centre, normalise
from vision.detect import shrink, working_view, working_scale
from vision.face_art import draws_with, marks
from vision.face_classes import (CLASSES, FACE_CROP, FACE_PX, NOT_A_DIE, NUMERAL_CROP, TURNED, UNREADABLE, UPRIGHT_CLASSES,
                                  UPRIGHT_CROP, face_class)
from vision.faces import (COCKED_D6_PATH, COCKED_LETTERS_PATH, COCKED_PATH, KIND_D6_PATH, MODEL_PATH, NUMERALS_PATH,
                          UPRIGHT_PATH)
from vision.render import DieTruth, Scene, SceneSpec, lettering_in, render_scene
from vision.render_die import fill
from vision.train import freeze_norms, jitter, load_weights

WIDTHS = (16, 32, 64, 96)
"""Channels of the four conv stages (3x3 conv, batch norm, ReLU, 2x2 max-pool each)."""

EMBEDDING = 128
"""Width of the hidden layer before the classes: the embedding teach mode compares."""

KIND_SHARE = {DieKind.D12: 0.32, DieKind.D8_TAUREN: 0.28, DieKind.LETTERS: 0.25, DieKind.D6: 0.15}
"""Share of the frames of each kind (pip d6 frames teach the network what another kind looks like)."""


FONT_SHARE = 0.5
"""Share of the lettered frames printed in one of the trainer's ``--fonts`` files, when it has some."""


def training_spec(rng: random.Random, kind: DieKind, fonts: tuple[str, ...] = ()) -> SceneSpec:
    """A random scene of ``kind`` dice: sizes, lighting, camera effects and clutter of a real table;
    with ``fonts`` (font files), :data:`FONT_SHARE` of its lettered frames printed in one of them."""
    spec = _table_spec(rng, kind)
    if fonts and spec.lettering and rng.random() < FONT_SHARE:
        return replace(spec, lettering=lettering_in(rng, fonts))
    return spec


def _table_spec(rng: random.Random, kind: DieKind) -> SceneSpec:
    """:func:`training_spec` in the trainer's own lettering."""
    low = rng.uniform(26, 85)
    return SceneSpec(size=rng.choice([(800, 600), (960, 540), (1024, 640)]), n_dice=rng.randint(3, 8),
                     die_px=(low, low * rng.uniform(1.0, 1.4)), touching=rng.random() < 0.35,
                     glare=rng.choice([0, 0, 0.5, 1]), translucent=rng.random() < 0.2,
                     blur=rng.choice([0, 0, 0.5, 1.0, 1.5]), noise=rng.choice([0, 2, 5, 8]),
                     perspective=rng.choice([0, 0, 0.3, 0.6]), cocked=rng.choice([0, 0, 1]), background="random",
                     clutter=rng.choice([0, 0, 2, 5]), walls=rng.random() < 0.2, marbled=rng.choice([0.1, 0.3]),
                     tint=rng.choice([0.0, 0.5, 1.0]), shadow=rng.uniform(0.2, 0.6),
                     jpeg_quality=rng.choice([None, None, 40, 70, 90]), kind=kind.value,
                     lettering=rng.random() < 0.7)


def die_class(kind: DieKind, value: int | None) -> int:
    """The class of a rendered die: its face, or unreadable when the truth has no value."""
    return UNREADABLE if value is None else face_class(kind, value)


def scene_crops(scene: Scene, kind: DieKind, rng: np.random.Generator, per_die: int,
                negatives: int) -> tuple[list[np.ndarray], list[int]]:
    """Crops of every uncut die (``per_die`` each, half from the working-size copy) and of places
    that are not a die centre: detector candidates far from dice, points between two dice, points
    half a die off a die's centre."""
    image = scene.image
    scale = working_scale(image.shape)
    work = shrink(image, scale)
    dice = [d for d in scene.dice if not d.cut_off]
    centres = np.array([d.center for d in scene.dice], np.float64).reshape(-1, 2)
    sizes = np.array([d.side for d in scene.dice], np.float64)
    patches, labels = [], []
    for die in dice:
        size = die.side
        for k in range(per_die):
            radius, phi = 0.12 * size * math.sqrt(rng.random()), rng.random() * 2 * math.pi
            centre = np.array(die.center) + radius * np.array([math.cos(phi), math.sin(phi)])
            patches.append(_crop(image if k % 2 else work, centre, size * rng.uniform(0.85, 1.2),
                                 1.0 if k % 2 else scale, rng))
            labels.append(die_class(kind, die.value))
    for centre in _not_centres(image, work, scale, centres, sizes, rng)[:negatives]:
        size = float(np.median(sizes)) * rng.uniform(0.8, 1.3)
        patches.append(_crop(work, centre, size, scale, rng))
        labels.append(NOT_A_DIE)
    return patches, labels


def _crop(image: np.ndarray, centre: np.ndarray, size: float, scale: float, rng: np.random.Generator) -> np.ndarray:
    """A face crop of ``image`` (``scale`` times the frame) around a frame point, turned any way."""
    return crop(image, (float(centre[0] * scale), float(centre[1] * scale)), size * FACE_CROP * scale,
                rng.uniform(0, 360), False, FACE_PX)


def _not_centres(image: np.ndarray, work: np.ndarray, scale: float, centres: np.ndarray, sizes: np.ndarray,
                 rng: np.random.Generator) -> list[np.ndarray]:
    """Frame points a die is not centred on, shuffled within each kind (just off a die, between
    two, elsewhere: clutter and the tray), taken from each kind in turn. (Taking every point off
    a die first left clutter out of the few negatives a frame gives, and the reader took coins and
    printed marks for dice.)"""
    candidates = np.array([c.center for c in working_view(image).proposals.candidates], np.float64).reshape(-1, 2)
    candidates /= working_scale(image.shape)
    far = [p for p in candidates if not len(centres) or (np.linalg.norm(centres - p, axis=1) > 0.55 * sizes).all()]
    between = [(centres[i] + centres[j]) / 2 for i in range(len(centres)) for j in range(i + 1, len(centres))
               if np.linalg.norm(centres[i] - centres[j]) < 1.5 * max(sizes[i], sizes[j])]
    off = []
    for centre, size in zip(centres, sizes):
        phi = rng.random() * 2 * math.pi
        off.append(centre + size * rng.uniform(0.55, 0.8) * np.array([math.cos(phi), math.sin(phi)]))
    groups = [[group[i] for i in rng.permutation(len(group))] for group in (off, between, far)]
    return [point for turn in itertools.zip_longest(*groups) for point in turn if point is not None]


def render_crops(frames: int, seed: int, per_die: int = 4, negatives: int = 6,
                 fonts: tuple[str, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Crops and classes of ``frames`` rendered frames of every kind (seeded: the same data every
    run), some lettered in ``fonts`` (:func:`training_spec`)."""
    return _frames_crops(frames, seed, lambda scene, kind, rng: scene_crops(scene, kind, rng, per_die, negatives),
                         lambda rng, kind: training_spec(rng, kind, fonts))



def numeral_crops(frames: int, seed: int, per_die: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Close crops (:data:`vision.face_classes.NUMERAL_CROP` die sides, full resolution, any turn) of
    the d12s of ``frames`` rendered frames, and their numerals (0-11)."""
    rng, generator = random.Random(seed), np.random.default_rng(seed)
    patches: list[np.ndarray] = []
    labels: list[int] = []
    for n in range(frames):
        spec = replace(training_spec(rng, DieKind.D12), cocked=0)
        scene = render_scene(random.Random(rng.getrandbits(32)), spec)
        for die in scene.dice:
            if die.value is None or die.cut_off:
                continue
            size = die.side
            for _ in range(per_die):
                shift = generator.normal(0, 0.05 * size, 2)
                centre = (die.center[0] + shift[0], die.center[1] + shift[1])
                patches.append(crop(scene.image, centre, size * NUMERAL_CROP * generator.uniform(0.9, 1.1),
                                    generator.uniform(0, 360), False, FACE_PX))
                labels.append(die.value - 1)
        if (n + 1) % 200 == 0:
            print(f"{n + 1}/{frames} frames rendered, {len(labels)} crops", flush=True)
    return np.stack(patches), np.array(labels)


UPRIGHT_SLACK = 22.5
"""A crop within this many degrees of a face's upright (or of a turn its design looks the same in)
is taught as that face."""

TURNED_FROM = 35.0
"""A crop this many degrees or more from every such turn is taught as "turned" (in between: not taught)."""

SAME_LOOK = 0.8
"""Least overlap (intersection over union) of a design and its turned copy for the two to look the same."""


@lru_cache(maxsize=None)
def same_turns(kind: DieKind, face: str) -> tuple[float, ...]:
    """The turns (degrees, steps of 15) in which a face's design looks as it does upright: 0 only
    for a 7, every turn for a one-pip face (drawn once, overlap of at least :data:`SAME_LOOK`)."""
    side = 96
    plain = np.zeros((side, side), np.uint8)
    for mark in marks(kind, face):  # the unit box's inscribed circle fills 0.8 of the square
        fill(plain, (mark.polygon * 0.8 + 0.5) * side, (0,) if mark.hole else (255,))
    same = []
    for angle in range(0, 360, 15):
        turned = cv2.warpAffine(plain, cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0),
                                (side, side))
        overlap = np.logical_and(plain > 127, turned > 127).sum() / max(np.logical_or(plain > 127, turned > 127).sum(), 1)
        if overlap >= SAME_LOOK:
            same.append(float(angle))
    return tuple(same)


HALF_TURN_SHARE = 0.5
"""Share of the "turned" crops of a design that looks otherwise half turned drawn within
:data:`HALF_TURN_SPREAD` of the half turn (the rest at any turn): half turned, a 3 of OpenCV's
lettering was read a 9 surely by the upright reader taught 25 fonts (0.96-0.98 at 150-180 degrees;
``bench/faces_reader.py --plain --kinds d12`` frames 109 and 319), and 6 and 9, M and W are each
other half turned but for their marks."""

HALF_TURN_SPREAD = 30.0
"""How far (degrees) either side of the half turn those crops lie (:func:`turned_offset`)."""


def turned_offset(rng: np.random.Generator, same: tuple[float, ...]) -> float:
    """A turn (degrees from upright) at least :data:`TURNED_FROM` from every turn in ``same`` (where
    the design looks as upright): :data:`HALF_TURN_SHARE` of them near the half turn when the design
    looks turned there, the others anywhere."""
    half = turn_off(180.0, same) >= TURNED_FROM and rng.random() < HALF_TURN_SHARE
    while True:
        angle = 180.0 + float(rng.uniform(-HALF_TURN_SPREAD, HALF_TURN_SPREAD)) if half else float(rng.uniform(0, 360))
        if turn_off(angle, same) >= TURNED_FROM:
            return angle


def turn_off(angle: float, same: tuple[float, ...]) -> float:
    """How far (degrees) a crop turned ``angle`` from upright is from the nearest turn in ``same``."""
    return min(abs((angle - s + 180) % 360 - 180) for s in same)


@lru_cache(maxsize=None)
def _turnable(same: tuple[float, ...]) -> bool:
    """Whether a design that looks the same in the turns ``same`` looks turned in any turn at all."""
    return any(turn_off(a, same) >= TURNED_FROM for a in range(360))


def upright_crops(frames: int, seed: int, per_die: int = 5, negatives: int = 3,
                  fonts: tuple[str, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Crops of the top faces of ``frames`` rendered frames of every kind: per die, three turned
    near upright (its face), two turned well away ("turned", unless the design looks the same
    there); a cocked die is unreadable at any turn; and a few places that are not a die. Each crop
    is placed and sized as the finder's hits are (:data:`HIT_OFFSET`, :data:`HIT_SIZES`). Some
    frames are lettered in ``fonts`` (:func:`training_spec`)."""
    return _frames_crops(frames, seed, lambda scene, kind, rng: _upright_scene(scene, kind, rng, per_die, negatives),
                         lambda rng, kind: training_spec(rng, kind, fonts))


def cocked_crops(frames: int, seed: int, per_die: int = 3, only: DieKind | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Crops of whole dice of every kind (or ``only`` that kind) as the face network looks at them
    (:data:`FACE_CROP`), from frames with one to three cocked dice each: class 1 a cocked die, 0 one
    lying flat."""
    return _frames_crops(frames, seed, lambda scene, kind, rng: _cocked_scene(scene, rng, per_die),
                         lambda rng, kind: replace(training_spec(rng, only or kind), cocked=rng.choice([1, 2, 3])))


def cocked_d6_crops(frames: int, seed: int, per_die: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The pip d6 dice's cocked network's crops (:data:`vision.faces.COCKED_D6_PATH`): real dice
    lying flat (class 0, :func:`_flat_photo_crops`), then ``frames`` rendered frames of d6 dice with
    one to three cocked each (:func:`cocked_crops`)."""
    real_x, real_y = _flat_photo_crops(seed, per_die)
    x, y = cocked_crops(frames, seed, only=DieKind.D6)
    return np.concatenate([real_x, x]), np.concatenate([real_y, y])


FLAT_PHOTO_CHANGES = ("none", "brightness x0.6", "brightness x1.4", "warm light", "JPEG quality 30",
                      "sensor noise sigma 8", "turned at random", "shrunk to 50%", "enlarged to 150%", "blur sigma 1.5")
"""The changes (:data:`vision.perturb.CHANGES`) under which the real photos' dice are cropped for
the d6 cocked network, each drawn anew (another seed than the bench's)."""


def _flat_photo_crops(seed: int, per_die: int) -> tuple[np.ndarray, np.ndarray]:
    """``per_die`` crops of every labelled die of the real photos that are not held out
    (:func:`vision.photos.is_held_out`), under each of :data:`FLAT_PHOTO_CHANGES`, where the d6
    finder sees it (:func:`vision.read.sightings`; a die it does not see is left out), turned to
    face the photo's centre (taken from above) as :func:`_cocked_scene` turns them, class 0: every
    labelled die shows its top face."""
    from vision.perturb import change, changed
    from vision.photos import DEFAULT_SET, is_held_out, load_set
    from vision.read import sightings

    rng = np.random.default_rng(seed)
    patches: list[np.ndarray] = []
    photos = load_set(DEFAULT_SET)
    for number, name in enumerate(FLAT_PHOTO_CHANGES):
        for index, photo in enumerate(photos):
            if is_held_out(index):
                continue
            image, boxes = changed(photo.load(), [d.box for d in photo.dice], change(name),
                                   seed * 100_000 + number * 1000 + index)
            below = frame_centre(image.shape)
            for x, y, side in _in_boxes(sightings(image), boxes):
                for _ in range(per_die):
                    at = (x + rng.normal(0, FLAT_OFFSET * side), y + rng.normal(0, FLAT_OFFSET * side))
                    patches.append(crop(image, at, side * FACE_CROP * rng.uniform(*FLAT_SIZES),
                                        facing(at, below) + rng.normal(0, FACING_SLACK), bool(rng.random() < 0.5),
                                        FACE_PX))
        print(f"real dice under {name}: {len(patches)} crops", flush=True)
    return np.stack(patches), np.zeros(len(patches), dtype=np.int64)


FLAT_OFFSET = 0.04
"""Spread (per axis, in die sides) of the real dice's crops around the finder's sighting, which
already lies where the reader's hit does, give or take."""

FLAT_SIZES = (0.85, 1.15)
"""The range of the real dice's crop sizes, in the sighting's side: about :data:`vision.faces.LEAN_SIZES`."""


def _in_boxes(seen: list[tuple[float, float, float]],
              boxes: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float]]:
    """The sightings whose centre lies in a labelled die's box, one per box (the first)."""
    kept = []
    for bx, by, bw, bh in boxes:
        inside = [s for s in seen if bx <= s[0] <= bx + bw and by <= s[1] <= by + bh]
        kept += inside[:1]
    return kept


def cocked_letters_crops(frames: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Letter dice's own cocked network's crops (:data:`vision.faces.COCKED_LETTERS_PATH`): those of
    :func:`cocked_crops` from ``frames`` frames of letter dice only."""
    return cocked_crops(frames, seed, only=DieKind.LETTERS)


def cocked_heaps_crops(frames: int, seed: int, only: DieKind | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Crops as :func:`cocked_crops` takes them, from frames of heaps: five to eight dice of every kind
    (or ``only`` that kind), every die that can lie beside another (the renderer's ``touching``), and
    none, one or two of them cocked. In :func:`cocked_crops`' frames a die touching another was
    most often a cocked one leaning on it, and the network took flat dice in a heap for leaning
    (16 flat letter dice of 5,433 flagged cocked in ``bench/faces_reader.py --plain``, which has
    no cocked die)."""
    return _frames_crops(frames, seed, lambda scene, kind, rng: _cocked_scene(scene, rng, 3),
                         lambda rng, kind: replace(training_spec(rng, only or kind), touching=True,
                                                   cocked=rng.choice([0, 0, 1, 2]), n_dice=rng.randint(5, 8)))


def cocked_tilted_crops(frames: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops as :func:`cocked_crops` takes them, from frames seen by a camera tilted further than
    :func:`training_spec` tilts it (``perspective`` 0.3-1.0: up to 30 degrees), one to three dice
    cocked in each: taught on heaps alone, the network let more cocked dice through on a tilted
    camera's trays."""
    return _frames_crops(frames, seed, lambda scene, kind, rng: _cocked_scene(scene, rng, 3),
                         lambda rng, kind: replace(training_spec(rng, kind),
                                                   perspective=rng.choice([0.3, 0.6, 0.8, 1.0]),
                                                   cocked=rng.choice([1, 2, 3])))


def cocked_letters_heaps_crops(frames: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cocked_heaps_crops` of letter dice only, for their own cocked network."""
    return cocked_heaps_crops(frames, seed, only=DieKind.LETTERS)


def kind_d6_crops(frames: int, seed: int, per_die: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The pip d6 dice's kind network's crops (:data:`vision.faces.KIND_D6_PATH`), whole dice as
    the cocked network sees them: real dice lying flat (class 0, a pip d6:
    :func:`_flat_photo_crops`), then ``frames`` rendered frames (:data:`KIND_D6_SHARE`), class 1
    for a die of another kind (letter dice are cubes too), flat or cocked."""
    real_x, real_y = _flat_photo_crops(seed, per_die)
    x, y = _frames_crops(frames, seed, lambda scene, kind, rng: _cocked_scene(scene, rng, per_die, _other_kind),
                         shares=KIND_D6_SHARE)
    return np.concatenate([real_x, x]), np.concatenate([real_y, y])


KIND_D6_SHARE = {DieKind.D6: 0.4, DieKind.LETTERS: 0.4, DieKind.D12: 0.1, DieKind.D8_TAUREN: 0.1}
"""Share of the kind network's rendered frames of each kind: most of them letter dice, the cubes
the d6 readers take for pip dice (41 of 112 on the demo's tray, against no d12 or Tauren die)."""


def _other_kind(die: DieTruth) -> int:
    return int(die.kind != DieKind.D6.value)


def _cocked_scene(scene: Scene, rng: np.random.Generator, per_die: int,
                  label: Callable[[DieTruth], int] = lambda die: int(die.cocked)) -> tuple[list[np.ndarray], list[int]]:
    """``per_die`` crops of each die wholly in view and still, placed and sized as the finder's
    hits are (off the die's centre by :data:`HIT_OFFSET`, :data:`HIT_SIZES` of the die), turned to face the point
    straight below the camera (:func:`vision.crops.facing`, give or take :data:`FACING_SLACK`; the
    frame's centre for a scene without a camera), as the reader of a calibrated tray turns them,
    and mirrored half the time; each of class ``label(die)`` (by default 1 for a cocked die)."""
    patches, labels = [], []
    below = frame_centre(scene.image.shape) if scene.camera is None else scene.camera.below()
    for die in scene.dice:
        if die.cut_off or die.moving or die.visible < COCKED_VISIBLE:
            continue
        for _ in range(per_die):
            at = _hit_centre(die, rng)
            turn = facing(at, below) + rng.normal(0, FACING_SLACK)
            patches.append(crop(scene.image, at, die.side * FACE_CROP * rng.uniform(*HIT_SIZES), turn,
                                bool(rng.random() < 0.5), FACE_PX))
            labels.append(label(die))
    return patches, labels


def _hit_centre(die: DieTruth, rng: np.random.Generator) -> tuple[float, float]:
    """A point where the finder's hit on ``die`` may lie: off its centre by :data:`HIT_OFFSET` of
    its side per axis."""
    x, y = np.array(die.center) + rng.normal(0, HIT_OFFSET * die.side, 2)
    return float(x), float(y)


HIT_OFFSET = 0.09
"""Spread (per axis, in die sides) of the cocked and upright networks' training crops' centres around the die's:
the face reader's hits lie 0.11-0.12 sides off the die's centre in the median, 0.14-0.15 in nine
of ten (``bench/faces_reader.py``'s frames, d12 and letters); 0.06 taught it crops nearer than the
reader's, and it took flat dice looked at 0.12 sides off for leaning ones."""

HIT_SIZES = (0.6, 1.2)
"""The range of the cocked and upright networks' training crops' sizes, in the die's: the face reader's hits
are 0.81-1.13 of a d12's side, 0.62-1.09 of a letter die's (5th to 95th percentile)."""

FACING_SLACK = 8.0
"""Spread (degrees) of the cocked network's training crops around the turn facing the point below the camera."""

COCKED_VISIBLE = 0.9
"""Least share of a die in view for the cocked network to learn from it (a die under another is
neither flat nor cocked to the eye)."""


def _frames_crops(frames: int, seed: int, crops_of: Callable[[Scene, DieKind, np.random.Generator],
                                                             tuple[list[np.ndarray], list[int]]],
                  spec_of: Callable[[random.Random, DieKind], SceneSpec] = training_spec,
                  shares: dict[DieKind, float] = KIND_SHARE) -> tuple[np.ndarray, np.ndarray]:
    """The crops ``crops_of`` takes from ``frames`` rendered frames of every kind (in ``shares``,
    scenes as ``spec_of`` draws them), and their classes: seeded, the same data every run."""
    rng, generator = random.Random(seed), np.random.default_rng(seed)
    kinds, weights = list(shares), list(shares.values())
    patches: list[np.ndarray] = []
    labels: list[int] = []
    for n in range(frames):
        kind = rng.choices(kinds, weights)[0]
        scene = render_scene(random.Random(rng.getrandbits(32)), spec_of(rng, kind))
        more, classes = crops_of(scene, kind, generator)
        patches += more
        labels += classes
        if (n + 1) % 200 == 0:
            print(f"{n + 1}/{frames} frames rendered, {len(labels)} crops", flush=True)
    return np.stack(patches), np.array(labels)


def _upright_scene(scene: Scene, kind: DieKind, rng: np.random.Generator, per_die: int,
                   negatives: int) -> tuple[list[np.ndarray], list[int]]:
    patches, labels = [], []
    sizes = [d.side for d in scene.dice]
    for die, size in zip(scene.dice, sizes):
        if die.cut_off or die.up_deg is None:
            continue
        same = same_turns(kind, die.face) if die.face is not None else ()
        for k in range(per_die):
            if die.value is None:
                offset, label = rng.uniform(0, 360), UNREADABLE
            elif k < 3 or not _turnable(same):
                offset, label = same[int(rng.integers(len(same)))] + rng.uniform(-UPRIGHT_SLACK, UPRIGHT_SLACK), \
                    face_class(kind, die.value)
            else:
                offset, label = turned_offset(rng, same), TURNED
            patches.append(crop(scene.image, _hit_centre(die, rng), size * UPRIGHT_CROP * rng.uniform(*HIT_SIZES),
                                die.up_deg + offset, False, FACE_PX))
            labels.append(label)
    centres = np.array([d.center for d in scene.dice], np.float64).reshape(-1, 2)
    if sizes:
        image = scene.image
        scale = working_scale(image.shape)
        points = _not_centres(image, shrink(image, scale), scale, centres, np.array(sizes), rng)[:negatives]
        for point in points:
            patches.append(crop(image, (float(point[0]), float(point[1])), float(np.median(sizes)) * UPRIGHT_CROP,
                                rng.uniform(0, 360), False, FACE_PX))
            labels.append(NOT_A_DIE)
    return patches, labels


def build(classes: int = len(CLASSES)) -> Any:
    """The face network (or, with 12 ``classes``, the numeral reader) as a ``torch.nn.Sequential``:
    four conv stages, the embedding, the classes."""
    from torch import nn

    layers: list[Any] = []
    cin = 3
    for cout in WIDTHS:
        layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]
        cin = cout
    flat = cin * (FACE_PX >> len(WIDTHS)) ** 2
    return nn.Sequential(*layers, nn.Flatten(), nn.Dropout(0.25), nn.Linear(flat, EMBEDDING), nn.ReLU(),
                         nn.Linear(EMBEDDING, classes))


def train(x: np.ndarray, y: np.ndarray, epochs: int, minutes: float, seed: int, start: Path | None = None,
          classes: int = len(CLASSES), lr: float | None = None) -> Any:
    """Train from scratch, or on from the network in ``start`` (AdamW, label smoothing), re-colouring
    every crop each epoch, for ``epochs`` or ``minutes``, whichever ends first: the learning rate
    (``lr``; 3e-3, or 1e-3 going on from ``start``) falls along a cosine over the share of either
    used up. Prints loss and the accuracy on a held-out tenth after every epoch."""
    import torch
    from torch.nn import functional

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    held = np.arange(len(y)) % 10 == 0
    net = build(classes)
    if start is not None:  # go on from an earlier run's weights, at a lower learning rate
        load_weights(net, start)
    lr = lr if lr is not None else 3e-3 if start is None else 1e-3
    start_time = time.perf_counter()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    val_x, val_y = torch.from_numpy(normalise(x[held])), y[held]
    train_x, train_y = x[~held], y[~held]
    for epoch in range(epochs):
        began = time.perf_counter()
        order = rng.permutation(len(train_y))
        inputs = torch.from_numpy(normalise(np.stack([jitter(train_x[i], rng) for i in order])))
        targets = torch.from_numpy(train_y[order])
        net.train()
        if start is not None:  # its batch norms are folded into the convolutions: keep them passing through
            freeze_norms(net)
        losses = []
        for i in range(0, len(order), 128):
            done = max((epoch + i / len(order)) / epochs, (time.perf_counter() - start_time) / (minutes * 60))
            for group in opt.param_groups:
                group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * min(done, 1.0)))
            loss = functional.cross_entropy(net(inputs[i:i + 128]), targets[i:i + 128], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        net.eval()
        with torch.no_grad():
            acc = float((net(val_x).argmax(1).numpy() == val_y).mean())
        print(f"epoch {epoch + 1}/{epochs}: loss {np.mean(losses):.3f}, held-out crops {acc:.4f} "
              f"({time.perf_counter() - began:.0f} s)", flush=True)
        if time.perf_counter() - start_time >= minutes * 60:
            print("time is up", flush=True)
            break
    return net.eval()


def export(net: Any, path: Path) -> None:
    """Write the network as ONNX for ``cv2.dnn`` (:func:`vision.train.export_onnx`, batch norms
    folded), with the embedding as a second output and the right number of classes."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from vision.train import READER, export_onnx

    export_onnx(net, READER, path)
    model = onnx.load(str(path))
    gemms = [node for node in model.graph.node if node.op_type == "Gemm"]
    hidden = next(node for node in model.graph.node if node.input and node.input[0] == gemms[0].output[0])
    del model.graph.output[:]
    classes = len(numpy_helper.to_array(next(i for i in model.graph.initializer if i.name == gemms[-1].input[2])))
    model.graph.output.extend([helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", classes]),
                               helper.make_tensor_value_info(hidden.output[0], TensorProto.FLOAT, ["n", EMBEDDING])])
    onnx.save(model, str(path))


NETS = {"faces": (render_crops, len(CLASSES), MODEL_PATH), "numerals": (numeral_crops, 12, NUMERALS_PATH),
        "upright": (upright_crops, len(UPRIGHT_CLASSES), UPRIGHT_PATH), "cocked": (cocked_crops, 2, COCKED_PATH),
        "cocked-d6": (cocked_d6_crops, 2, COCKED_D6_PATH), "kind-d6": (kind_d6_crops, 2, KIND_D6_PATH),
        "cocked-letters": (cocked_letters_crops, 2, COCKED_LETTERS_PATH),
        "cocked-heaps": (cocked_heaps_crops, 2, COCKED_PATH), "cocked-tilted": (cocked_tilted_crops, 2, COCKED_PATH),
        "cocked-letters-heaps": (cocked_letters_heaps_crops, 2, COCKED_LETTERS_PATH)}
"""Each network: how its crops are made, its number of classes, where it is shipped."""

FONT_NETS: dict[str, Callable[[int, int, tuple[str, ...]], tuple[np.ndarray, np.ndarray]]] = {
    "faces": lambda frames, seed, fonts: render_crops(frames, seed, fonts=fonts),
    "upright": lambda frames, seed, fonts: upright_crops(frames, seed, fonts=fonts)}
"""The networks that read numerals and letters, and their crops lettered partly in ``--fonts``."""


def _stored_crops(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """The crops and classes kept in several .npz files, one after the other."""
    xs, ys = [], []
    for path in paths:
        with np.load(path) as stored:
            xs.append(stored["x"])
            ys.append(stored["y"])
    return np.concatenate(xs), np.concatenate(ys)


def _rate(text: str) -> float:
    """A learning rate from the command line: a number over 0."""
    try:
        rate = float(text)
    except ValueError:
        rate = math.nan
    if not math.isfinite(rate) or rate <= 0:
        raise argparse.ArgumentTypeError(f"a learning rate is a number over 0, not {text!r}")
    return rate


def main(argv: list[str] | None = None) -> int:
    """Command line of the face trainer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1600, help="rendered frames to train on")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=25.0, help="stop after the epoch that passes this")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--net", choices=list(NETS), default="faces",
                        help="faces: every kind's faces from a die's crop (the finder); numerals: a d12's numeral "
                             "from a close crop; upright: every face standing upright, or turned (the reader); "
                             "cocked: whether a whole die leans on another or a wall; cocked-d6: the same for pip "
                             "d6 dice, also taught on the real photos' flat dice (start it from the cocked network: "
                             "--start vision/models/cocked.onnx); kind-d6: whether a whole die is a pip d6 or "
                             "another kind (start it from the d6 cocked network); cocked-letters: the cocked network for "
                             "letter dice on a calibrated tray (start it from the cocked network); cocked-heaps, "
                             "cocked-tilted, cocked-letters-heaps: crops for the cocked networks from heaps of dice "
                             "and from tilted cameras (render them with --render-only, then train --net cocked or "
                             "cocked-letters on them with the others: vision/README.md)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--start", type=Path, help="go on from the weights of this exported network (ONNX)")
    parser.add_argument("--lr", type=_rate, help="first learning rate, over 0 (default 3e-3; 1e-3 with --start)")
    parser.add_argument("--crops", type=Path, nargs="+", default=[],
                        help="train on the crops kept in these .npz files; with one file that does not exist "
                             "yet, render the crops and keep them there")
    parser.add_argument("--render-only", action="store_true", help="render and keep the crops (--crops), no training")
    parser.add_argument("--fonts", nargs="+", default=[], metavar="FONT",
                        help=f"print {FONT_SHARE * 100:.0f}%% of the lettered frames in these font files (TrueType or "
                             f"OpenType; needs OpenCV 5), beside OpenCV's own faces: nets {', '.join(FONT_NETS)}")
    args = parser.parse_args(argv)
    if args.fonts and args.net not in FONT_NETS:
        parser.error(f"--fonts: the {args.net} network learns no numerals or letters (fonts teach {', '.join(FONT_NETS)})")
    for font in args.fonts:
        if not draws_with(font):
            parser.error(f"--fonts: {font} is not a font file OpenCV can draw with")
    cv2.setNumThreads(1)
    began = time.perf_counter()
    made, classes, out = NETS[args.net]
    missing = [path for path in args.crops if not path.is_file()]
    if len(args.crops) > 1 and missing:
        parser.error(f"{missing[0]} does not exist: crops are rendered into one file at a time")
    if missing:  # before minutes of rendering for it
        try:
            check_output(missing[0], force=False, what="crops file")
        except FileProblem as problem:
            parser.error(f"--crops: {problem}")
    if args.frames < 1 and not (args.crops and not missing):
        parser.error("--frames: render at least one frame")
    if args.crops and not missing:
        x, y = _stored_crops(args.crops)
    else:
        x, y = FONT_NETS[args.net](args.frames, args.seed, tuple(args.fonts)) if args.fonts else made(args.frames, args.seed)
        if args.crops:
            np.savez(args.crops[0], x=x, y=y)
    print(f"{len(y)} crops in {time.perf_counter() - began:.0f} s", flush=True)
    if args.render_only:
        return 0
    import torch

    torch.set_num_threads(args.threads)
    out = args.out or out
    export(train(x, y, args.epochs, args.minutes, args.seed, args.start, classes, args.lr), out)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
