"""Benchmark of the dice reader: accuracy on labelled real photos and synthetic frames, and speed.

Usage: ``python bench/dice_reader.py [PHOTO_SET] [--wide K] [--synthetic N] [--seed S] [--speed-rounds R] [--errors]
[--error-sheet PNG] [--model ONNX] [--reader ONNX...]``, or ``python bench/dice_reader.py --changes [NAME...]
[--every K] [--dump JSONL]`` for the photos under a bar's camera and light (:func:`under_changes`).

Accuracy: a reading matches a labelled die when its centre lies inside the label's box (each
label at most once, most confident readings first); prints dice found / labelled, dice read
right / labelled, false dice per image and dice read wrong without a flag (the table would
not ask the dealer about them), for all photos, the training part and the held-out
part (see :func:`vision.photos.is_held_out`); then on every K-th photo in a frame three times as
wide (the photo mirrored around itself: small dice in a large frame), and on N seeded synthetic frames.
Speed (one core): median time to read a 1536x864 synthetic frame with 7 dice and of the settle
check per frame, each also as a ratio to one ``cvtColor`` + ``GaussianBlur`` of the same frame.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import time
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

import cv2
import numpy as np

from controller.commands.vision import write_png
from controller.games.errors import DiceTableError
from controller.paths import shown
from vision.classify import classifier, readers
from vision.perturb import CHANGES
from vision.photos import DEFAULT_SET, is_held_out, load_set
from vision.read import UNCERTAIN, DieReading, read_dice

if TYPE_CHECKING:
    from vision.render import SceneSpec


@dataclass(frozen=True)
class Truth:
    """A labelled die: value (None for a die that should be flagged unreadable) and box."""

    value: int | None
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class Tally:
    """Counts over a set of frames."""

    frames: int = 0
    labelled: int = 0
    found: int = 0
    right: int = 0
    false: int = 0
    sure_wrong: int = 0
    faceless: int = 0
    """Of ``sure_wrong``: dice that show no face (labelled None: cocked or hidden) given a value."""

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(astuple(self), astuple(other))))

    def line(self, name: str) -> str:
        """The three figures, readable."""
        n = max(self.labelled, 1)
        return (f"{name}: {self.frames} images, found {self.found}/{self.labelled} ({100 * self.found / n:.1f}%), "
                f"read right {self.right}/{self.labelled} ({100 * self.right / n:.1f}%), "
                f"false dice per image {self.false / max(self.frames, 1):.3f} ({self.false}), "
                f"read wrong but not flagged {self.sure_wrong} ({self.faceless} on dice showing no face)")


def match(readings: Sequence[DieReading], truths: Sequence[Truth]) -> tuple[dict[int, DieReading], int]:
    """Readings matched to truths by centre-in-box, each truth once, most confident reading first:
    the reading of each truth found (by index), and how many readings matched no truth."""
    taken: dict[int, DieReading] = {}
    false = 0
    for reading in sorted(readings, key=lambda r: -r.confidence):
        inside = [i for i, t in enumerate(truths) if i not in taken and _inside(reading.center, t.box)]
        if not inside:
            false += 1
            continue
        taken[min(inside, key=lambda i: _distance(reading.center, truths[i].box))] = reading
    return taken, false


def score(readings: Sequence[DieReading], truths: Sequence[Truth]) -> Tally:
    """The counts of one frame (see :func:`match`)."""
    return _tally(truths, *match(readings, truths))


def _tally(truths: Sequence[Truth], taken: dict[int, DieReading], false: int) -> Tally:
    right = sum(reading.value == truths[i].value for i, reading in taken.items())
    sure_wrong = [i for i, reading in taken.items() if reading.value != truths[i].value and reading.flag is None]
    faceless = sum(truths[i].value is None for i in sure_wrong)
    return Tally(1, len(truths), len(taken), right, false, len(sure_wrong), faceless)


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def _distance(point: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    x, y, w, h = box
    return float(np.hypot(point[0] - x - w / 2, point[1] - y - h / 2))


def real_photos(folder: Path, show_errors: bool, sheet: Path | None = None) -> None:
    """Print the three figures on a labelled photo set: all, training part, held-out part; with
    ``sheet``, write a picture of every labelled die not read right (see :func:`error_tiles`)."""
    parts = {"all": Tally(), "training part": Tally(), "held-out part": Tally()}
    times = []
    tiles: list[np.ndarray] = []
    for index, photo in enumerate(load_set(folder)):
        image = photo.load()
        observation = read_dice(image)
        times.append(observation.ms)
        tally = _judge(image, observation.dice, [Truth(d.value, d.box) for d in photo.dice], photo.path.stem,
                       tiles if sheet is not None else None)
        part = "held-out part" if is_held_out(index) else "training part"
        parts["all"] += tally
        parts[part] += tally
        if show_errors and (tally.right < tally.labelled or tally.false):
            print(f"  {photo.path.name}: {tally.found}/{tally.labelled} found, {tally.right} right, "
                  f"{tally.false} false", flush=True)
    for name, tally in parts.items():
        print(tally.line(f"real photos, {name}"), flush=True)
    print(f"real photos, read time per photo (OpenCV's default threads): median {statistics.median(times):.1f} ms, "
          f"slowest {max(times):.1f} ms", flush=True)
    if sheet is not None:
        write_sheet(sheet, tiles)


def _judge(image: np.ndarray, readings: Sequence[DieReading], truths: Sequence[Truth], name: str,
           tiles: list[np.ndarray] | None) -> Tally:
    """The counts of one frame; the pictures of its dice not read right are added to ``tiles`` when given."""
    taken, false = match(readings, truths)
    if tiles is not None:
        tiles += error_tiles(image, truths, taken, name)
    return _tally(truths, taken, false)


TILE = 160
"""Side of one die's picture on the error sheet, in pixels."""


def error_tiles(image: np.ndarray, truths: Sequence[Truth], found: dict[int, DieReading], name: str,
                accepted: bool = False) -> list[np.ndarray]:
    """One picture per labelled die not read right (with ``accepted``, also per die with a face
    read right but flagged: those the table asks the dealer about): the die and its surroundings,
    captioned with the label (L), the reading (value, flag, confidence, or "missed") and the photo's name."""
    tiles = []
    for i, truth in enumerate(truths):
        reading = found.get(i)
        asked = accepted and reading is not None and reading.flag is not None and truth.value is not None
        if reading is not None and reading.value == truth.value and not asked:
            continue
        x, y, w, h = truth.box
        margin = 0.3 * max(w, h)
        lo_x, lo_y = max(0, int(x - margin)), max(0, int(y - margin))
        tile = cv2.resize(image[lo_y:int(y + h + margin) + 1, lo_x:int(x + w + margin) + 1], (TILE, TILE),
                          interpolation=cv2.INTER_CUBIC)
        said = "missed" if reading is None else \
            f"{reading.value if reading.value is not None else '-'} {reading.flag or ''} {reading.confidence:.2f}"
        _caption(tile, f"L{truth.value}: {said}", 14)
        _caption(tile, name[-15:], TILE - 5)
        tiles.append(tile)
    return tiles


def _caption(tile: np.ndarray, text: str, y: int) -> None:
    """White ``text`` outlined in black: drawn thin in black one pixel around, then in white (a thick
    stroke would widen Hershey glyphs' advance, and the outline would drift off the letters)."""
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1)):
        cv2.putText(tile, text, (3 + dx, y + dy), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(tile, text, (3, y), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (255, 255, 255), 1, cv2.LINE_AA)


def write_sheet(path: Path, tiles: list[np.ndarray], columns: int = 8, what: str = "labelled dice not read right") -> None:
    """Write ``tiles`` as one picture, ``columns`` across."""
    if not tiles:
        print(f"no errors: {shown(path)} not written", flush=True)
        return
    padded = tiles + [np.zeros_like(tiles[0])] * (-len(tiles) % columns)
    rows = [np.hstack(padded[k:k + columns]) for k in range(0, len(padded), columns)]
    path.parent.mkdir(parents=True, exist_ok=True)
    try:  # through Python: cv2.imwrite crashes the process on a name that is not UTF-8
        write_png(path, np.vstack(rows), force=True)
    except DiceTableError as err:
        raise SystemExit(str(err)) from None
    print(f"wrote {shown(path)}: the {len(tiles)} {what}", flush=True)


def wide_view(folder: Path, every: int) -> None:
    """The figures on every ``every``-th photo seen from three times as far (see
    :meth:`vision.photos.LabelledPhoto.seen_wide`): small dice in a large frame."""
    total = Tally()
    for photo in load_set(folder)[::every]:
        wide, dice = photo.seen_wide()
        total += score(read_dice(wide).dice, [Truth(d.value, d.box) for d in dice])
    print(total.line(f"real photos, every {every}th seen 3x as wide (mirrored around)"), flush=True)


def synthetic_specs(count: int, seed: int) -> Iterable[tuple[random.Random, SceneSpec]]:
    """``count`` seeded scene specs mixing every hard case the renderer knows."""
    from vision.render import SceneSpec

    rng = random.Random(seed)
    for _ in range(count):
        spec = SceneSpec(n_dice=rng.randint(1, 9), touching=rng.random() < 0.3, glare=rng.choice([0, 0, 0.5, 1]),
                         translucent=rng.random() < 0.2, blur=rng.choice([0, 0, 0.8, 1.5]),
                         noise=rng.choice([0, 3, 6]), perspective=rng.choice([0, 0, 0.5, 1]),
                         cocked=int(rng.random() < 0.15), cut_off=int(rng.random() < 0.15),
                         background="random")
        yield random.Random(rng.random()), spec


def synthetic(count: int, seed: int, sheet: Path | None = None) -> None:
    """Print the three figures on ``count`` seeded synthetic frames; with ``sheet``, write a
    picture of every rendered die not read right."""
    from vision.render import render_scene

    total = Tally()
    tiles: list[np.ndarray] = []
    for number, (frame_rng, spec) in enumerate(synthetic_specs(count, seed)):
        scene = render_scene(frame_rng, spec)
        observation = read_dice(scene.image)
        total += _judge(scene.image, observation.dice, [Truth(d.value, d.box) for d in scene.dice], f"frame {number}",
                        tiles if sheet is not None else None)
    print(total.line(f"synthetic frames (seed {seed})"), flush=True)
    if sheet is not None:
        write_sheet(sheet.with_stem(sheet.stem + "-synthetic"), tiles)


@dataclass(frozen=True)
class Seen:
    """One labelled die read under a change (for calibrating the confidence threshold)."""

    change: str
    photo: str
    truth: int | None
    value: int | None
    confidence: float
    flag: str | None


def under_changes(folder: Path, every: int, names: Sequence[str], dump: Path | None,
                  sheet: Path | None = None) -> None:
    """Read every ``every``-th labelled photo under each change of :data:`vision.perturb.CHANGES`
    (or those in ``names``) on one core: per change and part (training, held-out), the figures,
    the photos that lost more than one die, and the read time (median, slowest); then the least
    confidence threshold that accepts none of the wrong readings, and what it sends to the dealer.
    With ``dump``, every labelled die's reading is written there as JSON lines; with ``sheet``, a
    picture of the dice not read right under each change, beside ``sheet`` (:func:`named_sheet`)."""
    from vision.perturb import CHANGES, LEFT_OUT, change, changed

    cv2.setNumThreads(1)
    classifier(), readers()  # loaded before the first read's time
    photos = [(index, photo) for index, photo in enumerate(load_set(folder)) if index % every == 0]
    seen: list[Seen] = []
    for which in [change(n) for n in names] if names else CHANGES:
        parts = {"training": Tally(), "held-out": Tally()}
        times, losers = [], []
        tiles: list[np.ndarray] = []
        for index, photo in photos:
            image, boxes = changed(photo.load(), [d.box for d in photo.dice], which, index)
            truths = [Truth(d.value, box) for d, box in zip(photo.dice, boxes) if box != LEFT_OUT]
            cpu = time.process_time()  # the CPU time, not the wall time: this machine's other loads do not count
            observation = read_dice(image)
            times.append((time.process_time() - cpu) * 1000)
            taken, false = match(observation.dice, truths)
            tally = _tally(truths, taken, false)
            if sheet is not None:
                tiles += error_tiles(image, truths, taken, photo.path.stem)
            parts["held-out" if is_held_out(index) else "training"] += tally
            if tally.labelled - tally.found > 1:
                losers.append(f"{photo.path.stem} ({tally.labelled - tally.found})")
            seen += [Seen(which.name, photo.path.stem, truths[i].value, r.value, r.confidence, r.flag)
                     for i, r in taken.items()]
        for part, tally in parts.items():
            print(tally.line(f"{which.name}, {part}"), flush=True)
        print(f"{which.name}: {image.shape[1]}x{image.shape[0]}, read time (CPU, one core) median "
              f"{statistics.median(times):.1f} ms, slowest {max(times):.1f} ms; photos losing more than one die: "
              f"{len(losers)} {' '.join(losers)}", flush=True)
        if sheet is not None:
            write_sheet(named_sheet(sheet, which.name), tiles)
    print(threshold_line(seen), flush=True)
    if dump is not None:
        dump.write_text("".join(json.dumps(dataclasses.asdict(s)) + "\n" for s in seen))


def named_sheet(sheet: Path, name: str) -> Path:
    """Where the error sheet of one change (or one kind of die) goes: ``sheet``'s name with
    ``name``'s, in words.

    >>> named_sheet(Path("out/errors.png"), "JPEG quality 30").as_posix()
    'out/errors-jpeg-quality-30.png'
    >>> named_sheet(Path("out/faces.png"), "d8-tauren").as_posix()
    'out/faces-d8-tauren.png'
    """
    words = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")
    return sheet.with_name(f"{sheet.stem}-{'-'.join(w for w in words.split('-') if w)}{sheet.suffix}")


def threshold_line(seen: Sequence[Seen]) -> str:
    """The least confidence that accepts none of the wrong readings in ``seen`` (a value other than
    the label's, not withheld), and how many right readings of the clean photos fall below it."""
    wrong = [s.confidence for s in seen if s.value is not None and s.value != s.truth
             and s.flag not in WITHHELD]
    least = max(wrong, default=0.0) + 1e-4
    clean = [s for s in seen if s.change == "none" and s.value is not None and s.value == s.truth]
    asked = sum(s.confidence < least for s in clean)
    return (f"threshold accepting no wrong reading under any change: {least:.4f} (now {UNCERTAIN}); "
            f"right readings of the clean photos it flags: {asked}/{len(clean)} "
            f"({100 * asked / max(len(clean), 1):.1f}%)")


WITHHELD = ("cocked", "cut_off", "blurred")
"""Flags under which a reading has no value (the table never acts on it)."""


def speed(rounds: int, seed: int) -> None:
    """Median read and settle-check times on one core, and as ratios to cvtColor + GaussianBlur."""
    from vision.render import SceneSpec, render_roll, render_scene
    from vision.settle import time_settle

    cv2.setNumThreads(1)
    frame = render_scene(random.Random(seed), SceneSpec(size=(1536, 864), n_dice=7)).image
    base = _median_ms(lambda: cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0), rounds)
    read_ms = _median_ms(lambda: read_dice(frame), rounds)
    frames = [s.image for s in render_roll(random.Random(seed), SceneSpec(size=(1536, 864), n_dice=7), 12)]
    settle_ms = time_settle(frames).settle_ms
    print(f"speed (1 core, 1536x864, 7 dice): cvtColor+GaussianBlur {base:.2f} ms; "
          f"read {read_ms:.1f} ms ({read_ms / base:.1f}x); settle check {settle_ms:.2f} ms "
          f"({settle_ms / base:.2f}x)", flush=True)


def _median_ms(fn: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="?", type=Path, default=DEFAULT_SET, help="labelled photo set folder")
    parser.add_argument("--synthetic", type=int, default=1000, help="synthetic frames (0: none)")
    parser.add_argument("--wide", type=int, default=10, metavar="K",
                        help="also read every K-th photo as a frame 3x as wide, mirrored around (0: not)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--speed-rounds", type=int, default=30, help="timed reads (0: no speed test)")
    parser.add_argument("--errors", action="store_true", help="list the photos with errors")
    parser.add_argument("--error-sheet", type=Path, metavar="PNG",
                        help="write a picture of every labelled die not read right, with its label and reading "
                             "(and of the synthetic frames' dice beside it, as PNG's name + -synthetic; with "
                             "--changes, one per change, as PNG's name + the change's)")
    parser.add_argument("--model", type=Path, help="finder model to read with (default: the shipped one)")
    parser.add_argument("--reader", type=Path, nargs="+", help="reader models to read with (default: the shipped ones)")
    parser.add_argument("--changes", nargs="*", metavar="NAME", choices=[c.name for c in CHANGES],
                        help="read the photos under the changes of vision.perturb (all, or those named, in "
                             "quotes: " + ", ".join(repr(c.name).replace("%", "%%") for c in CHANGES) + ") instead")
    parser.add_argument("--every", type=int, default=1, help="with --changes: every K-th photo only")
    parser.add_argument("--dump", type=Path, help="with --changes: write every labelled die's reading here (JSON lines)")
    args = parser.parse_args(argv)
    import vision.classify

    vision.classify.MODEL_PATH = args.model or vision.classify.MODEL_PATH
    vision.classify.READER_PATHS = tuple(args.reader or vision.classify.READER_PATHS)
    if args.changes is not None:
        under_changes(args.photos, args.every, args.changes, args.dump, args.error_sheet)
        return 0
    real_photos(args.photos, args.errors, args.error_sheet)
    if args.wide:
        wide_view(args.photos, args.wide)
    if args.synthetic:
        synthetic(args.synthetic, args.seed, args.error_sheet)
    if args.speed_rounds:
        speed(args.speed_rounds, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
