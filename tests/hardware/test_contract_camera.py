"""The Camera contract, run against every camera backend."""

import numpy as np

from hardware.devices import Camera


def test_camera_is_a_camera(any_camera):
    assert isinstance(any_camera.device, Camera)


def test_camera_checks_ok(any_camera):
    assert any_camera.device.check().ok


def test_frame_is_bgr_uint8(any_camera):
    frame = any_camera.device.frame()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3


def test_frames_keep_their_size(any_camera):
    first, second = any_camera.device.frame(), any_camera.device.frame()
    assert first.shape == second.shape


def test_frame_is_not_blank(any_camera):
    assert any_camera.device.frame().std() > 1.0


def test_close_twice_is_harmless(any_camera):
    any_camera.device.close()
    any_camera.device.close()
