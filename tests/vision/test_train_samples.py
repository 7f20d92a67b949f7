"""The trainers' samples: what the finder and the reader are taught on (no PyTorch needed)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify import FaceClassifier
from vision.crops import CROP_PX, READ_PX
from vision.train import (DEEP_READER, FINDER, READER, UNREADABLE, NetSpec, epoch_samples, synthetic_photos,
                          with_sightings)


def test_reader_is_taught_where_the_finder_sees_each_die() -> None:
    photo = with_sightings(synthetic_photos(1, seed=3)[0])
    assert photo.sightings is not None and len(photo.sightings) == len(photo.values)
    readable = [k for k, v in enumerate(photo.values) if v != UNREADABLE]
    for k in readable:
        seen = photo.sightings[k]
        assert not np.isnan(seen[0]), f"die {k} not seen"
        assert np.linalg.norm(seen[:2] - photo.centers[k]) < 0.3 * photo.sizes[k]
        assert 0.5 * photo.sizes[k] < seen[2] < 1.5 * photo.sizes[k]


@pytest.mark.parametrize("net", ["reader", "deep-reader"])
def test_reader_samples_are_sharper_crops_with_the_same_classes(net: str) -> None:
    photo = with_sightings(synthetic_photos(1, seed=4)[0])
    rng = np.random.default_rng(0)
    x, y = epoch_samples([photo], rng, per_die=2, negatives_per_photo=3, net=net)
    assert x.shape == (2 * len(photo.values) + 3, READ_PX, READ_PX, 3)
    assert sorted(set(y)) == sorted({0} | {int(v) for v in photo.values})


def test_finder_samples_stay_small() -> None:
    photo = synthetic_photos(1, seed=5)[0]
    x, y = epoch_samples([photo], np.random.default_rng(0), per_die=1, negatives_per_photo=2)
    assert x.shape == (len(photo.values) + 2, CROP_PX, CROP_PX, 3) and (y == 0).sum() >= 2


@pytest.mark.parametrize("spec", [FINDER, READER, DEEP_READER], ids=lambda spec: spec.name)
def test_each_shipped_model_has_the_layers_of_its_net(spec: NetSpec) -> None:
    """The shipped ONNX file of each net is the network its spec builds (layers l0, l1, ... in order:
    per convolution a Conv and a Relu, per stage a MaxPool, then Flatten and the dense layers)."""
    convs = sum(n for _, n in spec.stages)
    dense = 3 if spec.hidden else 1
    names = FaceClassifier(spec.path, spec.px)._net.getLayerNames()  # as the table loads it
    layers = {name.split("!")[1].split("/")[0] for name in names if "!l" in name}
    assert layers == {f"l{i}" for i in range(2 * convs + len(spec.stages) + 1 + dense)}
