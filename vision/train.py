"""Train the d6 face networks (small CNNs, PyTorch) on labelled photos and export them to ONNX.

Run: ``python -m vision.train [PHOTO_SET] [--net finder|reader|deep-reader] [--epochs N] [--all] [--out FILE]``.
The finder (``models/d6_faces.onnx``) says whether a die is centred in a 32 px crop; the reader
(``models/d6_read.onnx``) reads the face from a sharper 48 px crop of each die the finder found,
so train the finder first. Classes: 0 = not a die centred here, 1..6 = the top face, 7 = a die
that cannot be read (cocked or cut off: rendered frames only). Photos for which
:func:`vision.photos.is_held_out` is true are trained on only with ``--all`` (without, they
measure generalisation). Needs the ``train`` extra (PyTorch, ONNX); the table itself runs the
ONNX files through ``cv2.dnn``. About 15 minutes for the finder and 30 for the reader on two cores;
the deep reader (``--net deep-reader``, the second reader ``models/d6_read_2.onnx``) takes about 90
minutes on one core.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.classify import MODEL_PATH, READER_PATHS
from vision.crops import CROP_PX, CROP_SCALE, READ_PX, aligned_crop, crop, dominant_angle, normalise
from vision.detect import working_view
from vision.photos import DEFAULT_SET, LabelledPhoto, is_held_out, load_set
from vision.render import DieTruth, SceneSpec, render_scene

CLASSES = 8
UNREADABLE = 7
"""Class 7: a die that cannot be read: cocked (top face tilted away) or cut by the frame edge."""


# ----- samples -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Photo:
    """A training photo in memory, with its hard negative centres (proposals far from every die).

    ``sightings`` holds, per die, where the finder saw it (centre x, y and side, image pixels;
    NaN when it did not): the reader is trained on the crops it will be given.
    """

    image: np.ndarray
    centers: np.ndarray
    sizes: np.ndarray
    values: np.ndarray
    negatives: np.ndarray
    side: float
    sightings: np.ndarray | None = None


def prepare(photo: LabelledPhoto) -> Photo:
    """Load a labelled photo and find the detector's proposals that are not dice (hard negatives)."""
    image = photo.load()
    centers = np.array([d.center for d in photo.dice], dtype=np.float32).reshape(-1, 2)
    sizes = np.array([d.side for d in photo.dice], dtype=np.float32)
    values = np.array([d.value for d in photo.dice])
    side = float(np.median(sizes)) if len(sizes) else 0.06 * min(image.shape[:2])
    return Photo(image, centers, sizes, values, _far_proposals(image, centers, sizes), side)


def with_sightings(photo: Photo) -> Photo:
    """The photo with where the shipped finder sees each of its dice (:attr:`Photo.sightings`)."""
    from vision.read import sightings

    seen = np.array(sightings(photo.image), np.float32).reshape(-1, 3)
    rows = np.full((len(photo.values), 3), np.nan, np.float32)
    for k, (center, size) in enumerate(zip(photo.centers, photo.sizes)):
        distance = np.linalg.norm(seen[:, :2] - center, axis=1)
        if len(seen) and distance.min() < 0.5 * size:
            rows[k] = seen[distance.argmin()]
    return replace(photo, sightings=rows)


def synthetic_photos(count: int, seed: int) -> list[Photo]:
    """``count`` rendered frames (:mod:`vision.render`) of every hard case; cocked and cut-off dice get class 7
    (see :data:`PI_FRAMES` for their sizes)."""
    rng = random.Random(seed)
    photos = []
    for _ in range(count):
        size, die_px = ((1536, 864), (18.0, 56.0)) if rng.random() < PI_FRAMES else ((576, 324), (24.0, 48.0))
        spec = SceneSpec(size=size, n_dice=rng.randint(2, 9), die_px=die_px, touching=rng.random() < 0.4,
                         glare=rng.choice([0, 0, 0.5, 1]), translucent=rng.random() < 0.25,
                         blur=rng.choice([0, 0, 0.6, 1.2]), noise=rng.choice([0, 3, 6]),
                         perspective=rng.choice([0, 0, 0.5, 1]), cocked=rng.choice([0, 1, 1, 2]),
                         cut_off=rng.choice([0, 0, 1]), background="random",
                         clutter=rng.choice([0, 0, 2, 5]), walls=rng.random() < 0.3, marbled=rng.choice([0.25, 0.6]),
                         tint=rng.choice([0.0, 0.5, 1.0]), jpeg_quality=rng.choice([None, None, 60, 85]))
        scene = render_scene(random.Random(rng.random()), spec)
        centers = np.array([_visible_center(d) for d in scene.dice], np.float32).reshape(-1, 2)
        sizes = np.array([max(d.box[2], d.box[3]) if d.cut_off else d.side for d in scene.dice],
                         np.float32)
        values = np.array([UNREADABLE if d.value is None else d.value for d in scene.dice])
        if not len(values):
            continue
        negatives = _far_proposals(scene.image, centers, sizes)
        photos.append(Photo(scene.image, centers, sizes, values, negatives, float(np.median(sizes))))
    return photos


PI_FRAMES = 1 / 6
"""Share of the rendered frames at the Pi camera's working size (1536x864) with small dice in them;
the rest are smaller frames, their dice larger in them."""


def _visible_center(die: DieTruth) -> tuple[float, float]:
    """The top face's centre, or for a die cut by the frame edge the centre of what is in view."""
    x, y, w, h = die.box
    return (x + w / 2, y + h / 2) if die.cut_off else die.center


def _far_proposals(image: np.ndarray, centers: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Detector proposals farther than about half a die from every die: the hard negatives."""
    view = working_view(image)
    points = np.array([c.center for c in view.proposals.candidates], dtype=np.float32).reshape(-1, 2) / view.scale
    far = np.ones(len(points), dtype=bool)
    for center, size in zip(centers, sizes):
        far &= np.linalg.norm(points - center, axis=1) > 0.55 * size
    return np.concatenate([points[far], _between(centers, sizes)])


def _between(centers: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Midpoints of neighbouring dice: a crop there shows two half dice, which is not a die."""
    pairs = [(centers[i] + centers[j]) / 2 for i in range(len(centers)) for j in range(i + 1, len(centers))
             if np.linalg.norm(centers[i] - centers[j]) < 1.5 * max(sizes[i], sizes[j])]
    return np.array(pairs, np.float32).reshape(-1, 2)


def positive(photo: Photo, k: int, rng: np.random.Generator, px: int = CROP_PX) -> np.ndarray:
    """An augmented crop of die ``k``: shifted up to a fifth of its box, aligned as the reader aligns, size jitter."""
    size = float(photo.sizes[k])
    radius = 0.2 * size * math.sqrt(rng.random())
    phi = rng.random() * 2 * math.pi
    center = (photo.centers[k][0] + radius * math.cos(phi), photo.centers[k][1] + radius * math.sin(phi))
    side = size * rng.uniform(0.95, 1.55)
    return _aligned(photo.image, center, side, rng, px)


def negative(photo: Photo, rng: np.random.Generator, px: int = CROP_PX) -> np.ndarray:
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
    return _aligned(photo.image, (float(center[0]), float(center[1])), side, rng, px)


def reader_positive(photo: Photo, k: int, rng: np.random.Generator, px: int = READ_PX) -> np.ndarray:
    """A crop of die ``k`` for the reader: mostly as the finder placed it (its centre and side,
    a little jitter), else around the labelled box with wider jitter (the finder can be off)."""
    seen = photo.sightings[k] if photo.sightings is not None else np.full(3, np.nan)
    if not np.isnan(seen[0]) and rng.random() < SEEN_SHARE:
        side = float(seen[2]) * CROP_SCALE
        center = seen[:2] + rng.normal(0, 0.03 * side, 2)
    else:
        size = float(photo.sizes[k])
        radius, phi = 0.12 * size * math.sqrt(rng.random()), rng.random() * 2 * math.pi
        center = photo.centers[k] + radius * np.array([math.cos(phi), math.sin(phi)])
        side = size * LABEL_TO_CROP * rng.uniform(0.85, 1.2)
    return _aligned(photo.image, (float(center[0]), float(center[1])), side, rng, px)


SEEN_SHARE = 0.6
"""Share of the reader's training crops placed where the finder saw the die."""

LABEL_TO_CROP = 1.3
"""A reader crop's side as a multiple of a labelled box's side (the finder's crop is about this)."""


def _aligned(image: np.ndarray, center: tuple[float, float], side: float, rng: np.random.Generator,
             px: int) -> np.ndarray:
    """A crop aligned to the die's axes, then turned by a random quarter turn (and maybe mirrored);
    most crops are first seen through a bar's camera and light (:func:`camera`)."""
    if rng.random() < CAMERA_SHARE:
        image, center, side = camera(image, center, side, rng)
    if rng.random() < ARBITRARY_TURN:
        angle = rng.uniform(0, 360)  # the reader's alignment can miss: an unaligned die must read too
    else:
        angle = dominant_angle(image, center, side) + 90.0 * int(rng.integers(4)) + rng.normal(0, 4)
    return crop(image, center, side * rng.uniform(0.85, 1.15), angle, bool(rng.random() < 0.5), px)


ARBITRARY_TURN = 0.3
"""Share of training crops turned by any angle instead of the die's own axes."""

CAMERA_SHARE = 0.7
"""Share of training crops seen through :func:`camera` first (the rest as photographed)."""


def camera(image: np.ndarray, center: tuple[float, float], side: float,
           rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float], float]:
    """The part of ``image`` around a crop of ``side`` at ``center`` as a bar's camera and light might
    give it (the changes of :mod:`vision.perturb`, drawn at random over their whole range): out of
    focus (blur sigma up to 1.5), the die 35% to 150% of its size, light x0.6 to x1.4 and warmer or
    cooler, sensor noise sigma up to 10 and JPEG quality 30 to 90; with the crop's centre and side
    in the returned part's pixels. Each effect is applied to the photo's pixels, in the camera's
    order, as the bench's changes are, not to the network's small crop."""
    half = 0.9 * side + 4
    x0, y0 = max(0, int(center[0] - half)), max(0, int(center[1] - half))
    part: np.ndarray = image[y0:int(center[1] + half) + 1, x0:int(center[0] + half) + 1].astype(np.float32)
    if part.shape[0] < 4 or part.shape[1] < 4:
        return image, center, side
    if rng.random() < 0.25:
        part = cv2.GaussianBlur(part, (0, 0), rng.uniform(0.3, 1.5))
    height, width = part.shape[:2]
    factor = math.exp(rng.uniform(math.log(0.35), math.log(1.5))) if rng.random() < 0.6 else 1.0
    if factor != 1.0:
        size = (max(4, round(part.shape[1] * factor)), max(4, round(part.shape[0] * factor)))
        part = cv2.resize(part, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)
    light = rng.uniform(0.6, 1.4) if rng.random() < 0.6 else 1.0
    warmth = rng.uniform(-0.2, 0.2) if rng.random() < 0.4 else 0.0
    part = part * np.array([light * (1 - warmth), light, light * (1 + warmth)], np.float32)
    if rng.random() < 0.4:
        part = part + rng.normal(0.0, rng.uniform(1.0, 10.0), part.shape).astype(np.float32)
    out: np.ndarray = np.clip(part, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 91))])
        out = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR)) if ok else out
    fx, fy = out.shape[1] / width, out.shape[0] / height
    return np.asarray(out), ((center[0] - x0) * fx, (center[1] - y0) * fy), side * (fx + fy) / 2


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
    return np.asarray(out)


def _turn_hue(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The patch with every hue turned by one random angle (a blue die with red pips is no longer rare)."""
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int16) + int(rng.integers(180))) % 180).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def epoch_samples(photos: list[Photo], rng: np.random.Generator, per_die: int, negatives_per_photo: int,
                  net: str = "finder") -> tuple[np.ndarray, np.ndarray]:
    """One epoch of freshly augmented crops and their classes, for the ``finder`` or a reader."""
    make, px = (positive, CROP_PX) if net == "finder" else (reader_positive, READ_PX)
    patches: list[np.ndarray] = []
    labels: list[int] = []
    for photo in photos:
        for k in range(len(photo.values)):
            for _ in range(per_die):
                patches.append(jitter(make(photo, k, rng, px), rng))
                labels.append(int(photo.values[k]))
        for _ in range(negatives_per_photo):
            patches.append(jitter(negative(photo, rng, px), rng))
            labels.append(0)
    order = rng.permutation(len(labels))
    return np.stack(patches)[order], np.array(labels)[order]


def centred_samples(photos: list[Photo], px: int = CROP_PX) -> tuple[np.ndarray, np.ndarray]:
    """Unaugmented crops of every die at the reader's crop scale, for validation."""
    patches = [aligned_crop(p.image, (float(c[0]), float(c[1])), s * 0.77 * CROP_SCALE, px) for p in photos
               for c, s in zip(p.centers, p.sizes)]
    labels = [int(v) for p in photos for v in p.values]
    return np.stack(patches), np.array(labels)


# ----- networks (trained with PyTorch, run with cv2.dnn) ------------------------------------

@dataclass(frozen=True)
class NetSpec:
    """One of the face networks (finder, readers): its crop, its shape and what an epoch of training holds.

    Each conv stage is ``convs`` times a 3x3 convolution, batch norm and ReLU (once when not
    given), then a 2x2 max-pool; then an optional hidden dense layer and the 8-way output (not a
    die, 1..6, unreadable).
    """

    name: str
    px: int
    widths: tuple[int, ...]
    hidden: int
    negatives_per_photo: int
    path: Path
    per_die: int = 8
    convs: tuple[int, ...] = ()

    @property
    def stages(self) -> tuple[tuple[int, int], ...]:
        """Each conv stage's width and number of convolutions."""
        return tuple(zip(self.widths, self.convs or (1,) * len(self.widths)))


FINDER = NetSpec("finder", CROP_PX, (16, 32, 64), 128, 30, MODEL_PATH)
"""Is a die centred in this crop (and a first guess at its face): run on every candidate, so small."""

READER = NetSpec("reader", READ_PX, (24, 48, 64, 96), 0, 6, READER_PATHS[0])
"""The face of a die the finder found, from a sharper crop: the first reader, run on every die found."""

DEEP_READER = NetSpec("deep-reader", READ_PX, (24, 48, 96, 128), 0, 6, READER_PATHS[1], convs=(1, 1, 2, 2))
"""The second reader: deeper and wider where the crop is small (1.3x the training time of
:data:`READER`, 4x its weights), asked only about the dice the first reader is unsure of."""

NETS = {spec.name: spec for spec in (FINDER, READER, DEEP_READER)}


def build(spec: NetSpec) -> Any:
    """The network of ``spec`` as a ``torch.nn.Sequential``."""
    from torch import nn  # only the trainer needs PyTorch; the table runs the ONNX file

    layers: list[Any] = []
    cin = 3
    for cout, convs in spec.stages:
        for _ in range(convs):
            layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
            cin = cout
        layers.append(nn.MaxPool2d(2))
    flat = cin * (spec.px >> len(spec.widths)) ** 2
    head = [nn.Linear(flat, spec.hidden), nn.ReLU(), nn.Linear(spec.hidden, CLASSES)] if spec.hidden else \
        [nn.Linear(flat, CLASSES)]
    return nn.Sequential(*layers, nn.Flatten(), nn.Dropout(0.3), *head)


def train(spec: NetSpec, photos: list[Photo], held_out: list[Photo], epochs: int, seed: int,
          start: Path | None = None) -> Any:
    """Train (AdamW, cosine learning rate, label smoothing) from scratch, or on from the ONNX model
    ``start`` at a third of the learning rate (see :func:`load_onnx`); prints loss and held-out
    accuracy on centred dice after every epoch."""
    import torch
    from torch.nn import functional

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net, lr = (build(spec), 3e-3) if start is None else (load_onnx(spec, start), 1e-3)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    val_x, val_y = centred_samples(held_out, spec.px) if held_out else (None, None)
    for epoch in range(epochs):
        began = time.perf_counter()
        x, y = epoch_samples(photos, rng, spec.per_die, spec.negatives_per_photo, spec.name)
        inputs, targets = torch.from_numpy(normalise(x)), torch.from_numpy(y)
        net.train()
        if start is not None:
            freeze_norms(net)
        losses = []
        for i in range(0, len(y), 128):
            for group in opt.param_groups:
                group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * (epoch + i / len(y)) / epochs))
            loss = functional.cross_entropy(net(inputs[i:i + 128]), targets[i:i + 128], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        message = f"epoch {epoch + 1}/{epochs}: loss {np.mean(losses):.3f} ({time.perf_counter() - began:.0f} s)"
        if val_x is not None:
            net.eval()
            with torch.no_grad():
                acc = (net(torch.from_numpy(normalise(val_x))).argmax(1).numpy() == val_y).mean()
            message += f", held-out centred dice read right {acc:.3f}"
        print(message, flush=True)
    return net.eval()


def load_onnx(spec: NetSpec, path: Path) -> Any:
    """The network of ``spec`` with the weights of the ONNX model at ``path`` (:func:`load_weights`)."""
    net = build(spec)
    load_weights(net, path)
    return net


def load_weights(net: Any, path: Path) -> None:
    """Set ``net``'s weights from the ONNX model at ``path`` (as :func:`export_onnx` wrote it: each
    batch norm folded into its convolution). The batch norms are set to pass the folded
    convolution through unchanged (mean 0, spread 1, gain 1, the folded bias as their shift);
    :func:`freeze_norms` keeps them so while training on."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    weights = {init.name: numpy_helper.to_array(init) for init in onnx.load(str(path)).graph.initializer}
    layers = [layer for layer in net if not isinstance(layer, (nn.Dropout, nn.BatchNorm2d))]
    norms = [layer for layer in net if isinstance(layer, nn.BatchNorm2d)]
    with torch.no_grad():
        for i, layer in enumerate(layers):
            if not isinstance(layer, (nn.Conv2d, nn.Linear)):
                continue
            weight, bias = torch.from_numpy(weights[f"l{i}w"].copy()), torch.from_numpy(weights[f"l{i}b"].copy())
            layer.weight.copy_(weight)
            if isinstance(layer, nn.Linear):
                layer.bias.copy_(bias)
                continue
            norm = norms.pop(0)
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            assert norm.running_mean is not None and norm.running_var is not None
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)


def freeze_norms(net: Any) -> None:
    """Keep every batch norm's statistics as they are (evaluation mode) while the rest trains: a
    network loaded by :func:`load_onnx` has them folded away, and a batch's own would undo that."""
    from torch import nn

    for layer in net:
        if isinstance(layer, nn.BatchNorm2d):
            layer.eval()


# ----- export --------------------------------------------------------------------------------

def export_onnx(net: Any, spec: NetSpec, path: Path) -> None:
    """Write a trained network as ONNX (NCHW input ``crops``, output ``probs``) for ``cv2.dnn``,
    each batch norm folded into the convolution before it."""
    from onnx import helper, numpy_helper
    from torch import nn

    nodes, inits, current = [], [], "crops"
    layers = [layer for layer in net if not isinstance(layer, (nn.Dropout, nn.BatchNorm2d))]
    norms = [layer for layer in net if isinstance(layer, nn.BatchNorm2d)]
    for i, layer in enumerate(layers):
        name, (op, attrs) = f"l{i}", _ONNX_OPS[type(layer).__name__]
        inputs = [current]
        if isinstance(layer, (nn.Conv2d, nn.Linear)):
            weight, bias = _folded(layer, norms.pop(0)) if isinstance(layer, nn.Conv2d) else \
                (layer.weight.detach().numpy(), layer.bias.detach().numpy())
            inits += [numpy_helper.from_array(weight, name + "w"), numpy_helper.from_array(bias, name + "b")]
            inputs += [name + "w", name + "b"]
        nodes.append(helper.make_node(op, inputs, [name], **attrs))
        current = name
    nodes.append(helper.make_node("Softmax", [current], ["probs"], axis=1))
    _save_onnx(nodes, inits, spec.px, path)


_ONNX_OPS: dict[str, tuple[str, dict[str, Any]]] = {
    "Conv2d": ("Conv", {"pads": [1, 1, 1, 1], "kernel_shape": [3, 3]}),
    "Linear": ("Gemm", {"transB": 1}),
    "ReLU": ("Relu", {}),
    "MaxPool2d": ("MaxPool", {"kernel_shape": [2, 2], "strides": [2, 2]}),
    "Flatten": ("Flatten", {"axis": 1}),
}
"""The ONNX operator (and its attributes) for each kind of layer the face networks use."""


def _folded(conv: Any, norm: Any) -> tuple[np.ndarray, np.ndarray]:
    """A convolution's weight and bias with the batch norm after it folded in."""
    gain = (norm.weight / (norm.running_var + norm.eps).sqrt()).detach().numpy()
    weight = conv.weight.detach().numpy() * gain[:, None, None, None]
    bias = norm.bias.detach().numpy() - norm.running_mean.detach().numpy() * gain
    return np.ascontiguousarray(weight, np.float32), bias.astype(np.float32)


def _save_onnx(nodes: list[Any], inits: list[Any], px: int, path: Path) -> None:
    """Write a graph from NCHW ``crops`` of ``px`` pixels to class ``probs`` as an ONNX file."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(nodes, path.stem,
                              [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, px, px])],
                              [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", CLASSES])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="dicetable")
    model.ir_version = 8
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    """Command line of the trainer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="?", type=Path, default=DEFAULT_SET, help="labelled photo set folder")
    parser.add_argument("--net", choices=sorted(NETS), default="finder",
                        help="finder: is a die centred here (32 px crops, run on every candidate); reader: the first "
                             "reader, the face from a sharper crop (48 px), trained on where the shipped finder sees the "
                             "dice; deep-reader: the second reader, deeper, asked about the dice the first is unsure of")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--out", type=Path, help="model file (default: the shipped one of --net)")
    parser.add_argument("--synthetic", type=int, default=400, help="rendered frames added to the photos")
    parser.add_argument("--all", action="store_true", help="train on the held-out photos too")
    parser.add_argument("--start", type=Path, metavar="ONNX",
                        help="train on from this model of the same net (e.g. the shipped one) instead of from scratch")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    labelled = load_set(args.photos)
    photos = [prepare(p) for i, p in enumerate(labelled) if args.all or not is_held_out(i)]
    held_out = [prepare(p) for i, p in enumerate(labelled) if is_held_out(i)]
    print(f"{len(photos)} training photos, {len(held_out)} held out", flush=True)
    photos += synthetic_photos(args.synthetic, args.seed)
    print(f"{args.synthetic} synthetic frames rendered", flush=True)
    spec = NETS[args.net]
    if spec is not FINDER:
        photos = [with_sightings(p) for p in photos]
    out = args.out or spec.path
    export_onnx(train(spec, photos, held_out, args.epochs, args.seed, args.start), spec, out)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
