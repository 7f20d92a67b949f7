"""Train the d6 face classifier (a small CNN, numpy only) on labelled photos and export it to ONNX.

Run: ``python -m vision.train [PHOTO_SET] [--epochs N] [--out vision/models/d6_faces.onnx]``.
Classes: 0 = not a die centred here, 1..6 = the top face. Photos for which
:func:`vision.photos.is_held_out` is true are never trained on (they measure generalisation).
Takes a few minutes on two cores; needs the ``onnx`` package only to write the model file.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.crops import CROP_PX, CROP_SCALE, aligned_crop, crop, dominant_angle, normalise
from vision.detect import propose, shrink, working_scale
from vision.photos import DEFAULT_SET, LabelledPhoto, is_held_out, load_set
from vision.render import DieTruth, SceneSpec, render_scene

MODEL_PATH = Path(__file__).resolve().parent / "models" / "d6_faces.onnx"
CHANNELS = (16, 32, 64)
HIDDEN = 128
CLASSES = 8
UNREADABLE = 7
"""Class 7: a die that cannot be read: cocked (top face tilted away) or cut by the frame edge."""


# ----- samples -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Photo:
    """A training photo in memory, with its hard negative centres (proposals far from every die)."""

    image: np.ndarray
    centers: np.ndarray
    sizes: np.ndarray
    values: np.ndarray
    negatives: np.ndarray
    side: float


def prepare(photo: LabelledPhoto) -> Photo:
    """Load a labelled photo and find the detector's proposals that are not dice (hard negatives)."""
    image = photo.load()
    centers = np.array([d.center for d in photo.dice], dtype=np.float32).reshape(-1, 2)
    sizes = np.array([d.size for d in photo.dice], dtype=np.float32)
    values = np.array([d.value for d in photo.dice])
    side = float(np.median(sizes)) if len(sizes) else 0.06 * min(image.shape[:2])
    return Photo(image, centers, sizes, values, _far_proposals(image, centers, sizes), side)


def synthetic_photos(count: int, seed: int) -> list[Photo]:
    """``count`` rendered frames (:mod:`vision.render`) of every hard case; cocked and cut-off dice get class 7."""
    rng = random.Random(seed)
    photos = []
    for _ in range(count):
        spec = SceneSpec(size=(576, 324), n_dice=rng.randint(2, 9), die_px=(24, 48), touching=rng.random() < 0.4,
                         glare=rng.choice([0, 0, 0.5, 1]), translucent=rng.random() < 0.25,
                         blur=rng.choice([0, 0, 0.6, 1.2]), noise=rng.choice([0, 3, 6]),
                         perspective=rng.choice([0, 0, 0.5, 1]), cocked=rng.choice([0, 1, 1, 2]),
                         cut_off=rng.choice([0, 0, 1]), background="random",
                         clutter=rng.choice([0, 0, 2, 5]), walls=rng.random() < 0.3, marbled=rng.choice([0.25, 0.6]),
                         tint=rng.choice([0.0, 0.5, 1.0]), jpeg_quality=rng.choice([None, None, 60, 85]))
        scene = render_scene(random.Random(rng.random()), spec)
        centers = np.array([_visible_center(d) for d in scene.dice], np.float32).reshape(-1, 2)
        sizes = np.array([max(d.box[2], d.box[3]) if d.cut_off else (d.box[2] + d.box[3]) / 2 for d in scene.dice],
                         np.float32)
        values = np.array([UNREADABLE if d.value is None else d.value for d in scene.dice])
        if not len(values):
            continue
        negatives = _far_proposals(scene.image, centers, sizes)
        photos.append(Photo(scene.image, centers, sizes, values, negatives, float(np.median(sizes))))
    return photos


def _visible_center(die: DieTruth) -> tuple[float, float]:
    """The top face's centre, or for a die cut by the frame edge the centre of what is in view."""
    x, y, w, h = die.box
    return (x + w / 2, y + h / 2) if die.cut_off else die.center


def _far_proposals(image: np.ndarray, centers: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Detector proposals farther than about half a die from every die: the hard negatives."""
    scale = working_scale(image.shape)
    work = shrink(image, scale)
    points = np.array([c.center for c in propose(work).candidates], dtype=np.float32).reshape(-1, 2) / scale
    far = np.ones(len(points), dtype=bool)
    for center, size in zip(centers, sizes):
        far &= np.linalg.norm(points - center, axis=1) > 0.55 * size
    return np.concatenate([points[far], _between(centers, sizes)])


def _between(centers: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Midpoints of neighbouring dice: a crop there shows two half dice, which is not a die."""
    pairs = [(centers[i] + centers[j]) / 2 for i in range(len(centers)) for j in range(i + 1, len(centers))
             if np.linalg.norm(centers[i] - centers[j]) < 1.5 * max(sizes[i], sizes[j])]
    return np.array(pairs, np.float32).reshape(-1, 2)


def positive(photo: Photo, k: int, rng: np.random.Generator) -> np.ndarray:
    """An augmented crop of die ``k``: shifted up to a fifth of its box, aligned as the reader aligns, size jitter."""
    size = float(photo.sizes[k])
    radius = 0.2 * size * math.sqrt(rng.random())
    phi = rng.random() * 2 * math.pi
    center = (photo.centers[k][0] + radius * math.cos(phi), photo.centers[k][1] + radius * math.sin(phi))
    side = size * rng.uniform(0.95, 1.55)
    return _aligned(photo.image, center, side, rng)


def negative(photo: Photo, rng: np.random.Generator) -> np.ndarray:
    """A crop centred on a hard negative (or a random point far from dice), at a die-like scale."""
    h, w = photo.image.shape[:2]
    for _ in range(20):
        if len(photo.negatives) and rng.random() < 0.8:
            center = photo.negatives[rng.integers(len(photo.negatives))] + rng.normal(0, 2, 2)
        else:
            center = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        if not len(photo.centers) or (np.linalg.norm(photo.centers - center, axis=1) > 0.45 * photo.sizes).all():
            break
    side = photo.side * rng.uniform(0.95, 1.55) * rng.uniform(0.8, 1.25)
    return _aligned(photo.image, (float(center[0]), float(center[1])), side, rng)


def _aligned(image: np.ndarray, center: tuple[float, float], side: float, rng: np.random.Generator) -> np.ndarray:
    """A crop aligned to the die's axes, then turned by a random quarter turn (and maybe mirrored)."""
    if rng.random() < ARBITRARY_TURN:
        angle = rng.uniform(0, 360)  # the reader's alignment can miss: an unaligned die must read too
    else:
        angle = dominant_angle(image, center, side) + 90.0 * int(rng.integers(4)) + rng.normal(0, 4)
    return crop(image, center, side * rng.uniform(0.85, 1.15), angle, bool(rng.random() < 0.5))


ARBITRARY_TURN = 0.2
"""Share of training crops turned by any angle instead of the die's own axes."""


def jitter(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour and quality augmentation: hue turn, channel order, inversion, grey, saturation,
    contrast, brightness, gamma, blur, noise and JPEG re-compression, each drawn at random."""
    x = patch
    if rng.random() < 0.7:
        x = _turn_hue(x, rng)
    x = x[..., rng.permutation(3)].astype(np.float32)
    if rng.random() < 0.2:
        x = 255.0 - x  # dark die with light pips vs light die with dark pips
    grey = x.mean(axis=2, keepdims=True)
    x = grey + (x - grey) * (0.0 if rng.random() < 0.1 else rng.uniform(0.4, 1.6))
    x = (x - 128.0) * rng.uniform(0.55, 1.45) + 128.0 + rng.uniform(-50, 50) + rng.normal(0, 8, 3)
    x = np.clip(x, 0, 255)
    if rng.random() < 0.5:
        x = 255.0 * (x / 255.0) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 1.1))
    x = x + rng.normal(0, rng.uniform(0, 8), x.shape)
    out = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else out
    return out


def _turn_hue(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The patch with every hue turned by one random angle (a blue die with red pips is no longer rare)."""
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int16) + int(rng.integers(180))) % 180).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def epoch_samples(photos: list[Photo], rng: np.random.Generator, per_die: int,
                  negatives_per_photo: int) -> tuple[np.ndarray, np.ndarray]:
    """One epoch of freshly augmented crops and their classes."""
    patches: list[np.ndarray] = []
    labels: list[int] = []
    for photo in photos:
        for k in range(len(photo.values)):
            for _ in range(per_die):
                patches.append(jitter(positive(photo, k, rng), rng))
                labels.append(int(photo.values[k]))
        for _ in range(negatives_per_photo):
            patches.append(jitter(negative(photo, rng), rng))
            labels.append(0)
    order = rng.permutation(len(labels))
    return np.stack(patches)[order], np.array(labels)[order]


def centred_samples(photos: list[Photo]) -> tuple[np.ndarray, np.ndarray]:
    """Unaugmented crops of every die at the reader's crop scale, for validation."""
    patches = [aligned_crop(p.image, (float(c[0]), float(c[1])), s * 0.77 * CROP_SCALE) for p in photos
               for c, s in zip(p.centers, p.sizes)]
    labels = [int(v) for p in photos for v in p.values]
    return np.stack(patches), np.array(labels)


# ----- network -------------------------------------------------------------------------------

class Net:
    """Three 3x3 conv + ReLU + 2x2 max-pool stages, a hidden dense layer, a 7-way output (NHWC)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.params: dict[str, np.ndarray] = {}
        cin = 3
        for i, cout in enumerate(CHANNELS):
            self.params[f"c{i}w"] = rng.normal(0, math.sqrt(2 / (9 * cin)), (9 * cin, cout)).astype(np.float32)
            self.params[f"c{i}b"] = np.zeros(cout, np.float32)
            cin = cout
        flat = cin * (CROP_PX // 8) ** 2
        self.params["f0w"] = rng.normal(0, math.sqrt(2 / flat), (flat, HIDDEN)).astype(np.float32)
        self.params["f0b"] = np.zeros(HIDDEN, np.float32)
        self.params["f1w"] = rng.normal(0, math.sqrt(1 / HIDDEN), (HIDDEN, CLASSES)).astype(np.float32)
        self.params["f1b"] = np.zeros(CLASSES, np.float32)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[tuple[str, tuple[Any, ...]]]]:
        """Logits for a batch (N, H, W, 3) and the tape for :meth:`backward`."""
        tape: list[tuple[str, tuple[Any, ...]]] = []
        for i in range(len(CHANNELS)):
            y, cols = _conv(x, self.params[f"c{i}w"], self.params[f"c{i}b"])
            y = np.maximum(y, 0)
            pooled, mask = _pool(y)
            tape.append((f"c{i}", (x.shape, cols, y > 0, mask)))
            x = pooled
        flat = x.reshape(len(x), -1)
        h = np.maximum(flat @ self.params["f0w"] + self.params["f0b"], 0)
        logits = h @ self.params["f1w"] + self.params["f1b"]
        tape.append(("f", (x.shape, flat, h)))
        return logits, tape

    def backward(self, dlogits: np.ndarray, tape: list[tuple[str, tuple[Any, ...]]]) -> dict[str, np.ndarray]:
        """Gradients of every parameter given the loss gradient on the logits."""
        grads: dict[str, np.ndarray] = {}
        shape, flat, h = tape[-1][1]
        grads["f1w"], grads["f1b"] = h.T @ dlogits, dlogits.sum(0)
        dh = (dlogits @ self.params["f1w"].T) * (h > 0)
        grads["f0w"], grads["f0b"] = flat.T @ dh, dh.sum(0)
        dx = (dh @ self.params["f0w"].T).reshape(shape)
        for i in reversed(range(len(CHANNELS))):
            xshape, cols, active, mask = tape[i][1]
            dy = _unpool(dx, mask) * active
            dx, grads[f"c{i}w"], grads[f"c{i}b"] = _conv_back(dy, cols, self.params[f"c{i}w"], xshape)
        return grads


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n, hh, ww, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2)).reshape(n * hh * ww, c * 9)
    return (cols @ w + b).reshape(n, hh, ww, -1), cols


def _conv_back(dy: np.ndarray, cols: np.ndarray, w: np.ndarray,
               xshape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, hh, ww, c = xshape
    flat = dy.reshape(-1, dy.shape[-1])
    dcols = (flat @ w.T).reshape(n, hh, ww, c, 3, 3)
    dpad = np.zeros((n, hh + 2, ww + 2, c), np.float32)
    for i in range(3):
        for j in range(3):
            dpad[:, i:i + hh, j:j + ww, :] += dcols[..., i, j]
    return dpad[:, 1:-1, 1:-1, :], cols.T @ flat, flat.sum(0)


def _pool(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n, hh, ww, c = y.shape
    r = y.reshape(n, hh // 2, 2, ww // 2, 2, c)
    pooled = r.max(axis=(2, 4))
    return pooled, r == pooled[:, :, None, :, None, :]


def _unpool(d: np.ndarray, mask: np.ndarray) -> np.ndarray:
    n, h2, _, w2, _, c = mask.shape
    return (mask * d[:, :, None, :, None, :]).reshape(n, h2 * 2, w2 * 2, c)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax."""
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class Adam:
    """Adam with decoupled weight decay."""

    def __init__(self, params: dict[str, np.ndarray], lr: float, decay: float = 1e-4) -> None:
        self.params, self.lr, self.decay, self.t = params, lr, decay, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, grads: dict[str, np.ndarray]) -> None:
        """Apply one update."""
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9 ** self.t)
            vhat = self.v[k] / (1 - 0.999 ** self.t)
            self.params[k] -= self.lr * (mhat / (np.sqrt(vhat) + 1e-8) + self.decay * self.params[k])


def to_input(patches: np.ndarray) -> np.ndarray:
    """Crops to the numpy network's NHWC input, normalised as the reader does."""
    return np.ascontiguousarray(normalise(patches).transpose(0, 2, 3, 1))


def predict(net: Net, patches: np.ndarray, batch: int = 256) -> np.ndarray:
    """Class probabilities of crops."""
    out = [softmax(net.forward(to_input(patches[i:i + batch]))[0]) for i in range(0, len(patches), batch)]
    return np.concatenate(out)


def train(photos: list[Photo], held_out: list[Photo], epochs: int, seed: int) -> Net:
    """Train from scratch; prints loss and held-out accuracy after every epoch."""
    rng = np.random.default_rng(seed)
    net = Net(rng)
    opt = Adam(net.params, lr=2e-3)
    val_x, val_y = centred_samples(held_out) if held_out else (None, None)
    for epoch in range(epochs):
        start = time.perf_counter()
        opt.lr = 2e-3 * 0.5 * (1 + math.cos(math.pi * epoch / epochs))
        x, y = epoch_samples(photos, rng, per_die=8, negatives_per_photo=30)
        losses = []
        for i in range(0, len(y), 128):
            logits, tape = net.forward(to_input(x[i:i + 128]))
            p = softmax(logits)
            target = y[i:i + 128]
            losses.append(-np.log(p[np.arange(len(target)), target] + 1e-9).mean())
            p[np.arange(len(target)), target] -= 1
            opt.step(net.backward(p / len(target), tape))
        message = f"epoch {epoch + 1}/{epochs}: loss {np.mean(losses):.3f} ({time.perf_counter() - start:.0f} s)"
        if val_x is not None:
            acc = (predict(net, val_x).argmax(1) == val_y).mean()
            message += f", held-out centred dice read right {acc:.3f}"
        print(message, flush=True)
    return net


# ----- export --------------------------------------------------------------------------------

def export_onnx(net: Net, path: Path) -> None:
    """Write the network as ONNX (NCHW input ``crops``, output ``probs``) for ``cv2.dnn``."""
    import onnx  # only the trainer needs it
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    current, cin = "crops", 3
    for i, cout in enumerate(CHANNELS):
        w = net.params[f"c{i}w"].reshape(cin, 3, 3, cout).transpose(3, 0, 1, 2)
        inits += [numpy_helper.from_array(np.ascontiguousarray(w), f"c{i}w"),
                  numpy_helper.from_array(net.params[f"c{i}b"], f"c{i}b")]
        nodes += [helper.make_node("Conv", [current, f"c{i}w", f"c{i}b"], [f"c{i}"], pads=[1, 1, 1, 1],
                                   kernel_shape=[3, 3]),
                  helper.make_node("Relu", [f"c{i}"], [f"r{i}"]),
                  helper.make_node("MaxPool", [f"r{i}"], [f"p{i}"], kernel_shape=[2, 2], strides=[2, 2])]
        current, cin = f"p{i}", cout
    side = CROP_PX // 8
    # numpy flattens (h, w, c); ONNX flattens (c, h, w)
    f0 = net.params["f0w"].reshape(side, side, cin, HIDDEN).transpose(2, 0, 1, 3).reshape(-1, HIDDEN)
    inits += [numpy_helper.from_array(np.ascontiguousarray(f0), "f0w"),
              numpy_helper.from_array(net.params["f0b"], "f0b"),
              numpy_helper.from_array(net.params["f1w"], "f1w"),
              numpy_helper.from_array(net.params["f1b"], "f1b")]
    nodes += [helper.make_node("Flatten", [current], ["flat"], axis=1),
              helper.make_node("Gemm", ["flat", "f0w", "f0b"], ["h0"]),
              helper.make_node("Relu", ["h0"], ["h1"]),
              helper.make_node("Gemm", ["h1", "f1w", "f1b"], ["logits"]),
              helper.make_node("Softmax", ["logits"], ["probs"], axis=1)]
    graph = helper.make_graph(nodes, "d6_faces",
                              [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, CROP_PX, CROP_PX])],
                              [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", CLASSES])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="dicetable")
    model.ir_version = 8
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    """Command line of the trainer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="?", type=Path, default=DEFAULT_SET, help="labelled photo set folder")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--synthetic", type=int, default=400, help="rendered frames added to the photos")
    parser.add_argument("--all", action="store_true", help="train on the held-out photos too")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    labelled = load_set(args.photos)
    photos = [prepare(p) for i, p in enumerate(labelled) if args.all or not is_held_out(i)]
    held_out = [prepare(p) for i, p in enumerate(labelled) if is_held_out(i)]
    print(f"{len(photos)} training photos, {len(held_out)} held out", flush=True)
    photos += synthetic_photos(args.synthetic, args.seed)
    print(f"{args.synthetic} synthetic frames rendered", flush=True)
    net = train(photos, held_out, args.epochs, args.seed)
    export_onnx(net, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
