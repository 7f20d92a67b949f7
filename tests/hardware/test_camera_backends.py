"""Camera backends' own behaviour: picamera2 against a stand-in module, folders, video files, faults."""

import os
import random
import threading
import time

import cv2
import numpy as np
import pytest

from controller.games.errors import ConfigError, DeviceDisconnected, DeviceError, DeviceTimeout
from hardware.camera import open_camera
from hardware.camera_folder import FolderCamera
from hardware.camera_opencv import OpenCvCamera
from hardware.camera_picamera2 import Picamera2Camera
from hardware.camera_sim import SENSOR_NOISE, CameraFault, SimCamera
from hardware.config import CameraConfig
from vision.photos import DEFAULT_SET

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

PHOTOS = DEFAULT_SET / "images"  # the repo's own photos


class StandInPicamera2:
    """picamera2.Picamera2's methods as the backend uses them, recording the calls."""

    def __init__(self, shape=(864, 1536, 3), fail_capture=False, clamp_us=None, model="imx708",
                 scaler_crop=(0, 0, 4608, 2592)):
        self.calls, self.controls, self.shape, self.fail_capture = [], {}, shape, fail_capture
        self.camera_controls = {"ExposureTime": (26, 112_015, 20_000)}  # imx708's range
        self.camera_properties = {"Model": model, "PixelArraySize": (4608, 2592)}
        self.scaler_crop = scaler_crop  # the part of the sensor's array the frames show
        self.clamp_us = clamp_us
        self.frames_flow = threading.Event()
        self.frames_flow.set()

    def create_video_configuration(self, main):
        self.calls.append("create_video_configuration")
        return {"main": main}

    def configure(self, config):
        self.calls.append("configure")
        self.config = config

    def set_controls(self, controls):
        self.calls.append("set_controls")
        self.controls.update(controls)

    def start(self):
        self.calls.append("start")

    def capture_array(self, stream="main"):
        self.frames_flow.wait()  # cleared: the sensor hangs, as in picamera2 issue 1004
        if self.fail_capture:
            raise RuntimeError("Camera frontend has timed out!")
        return np.full(self.shape, 7, np.uint8)

    def capture_metadata(self):
        self.frames_flow.wait()
        exposure = self.controls["ExposureTime"]
        return {"ExposureTime": min(exposure, self.clamp_us or exposure), "ScalerCrop": self.scaler_crop}

    def stop(self):
        self.calls.append("stop")

    def close(self):
        self.calls.append("close")


class StandInModule:
    def __init__(self, camera=None, missing=False):
        self.camera, self.missing = camera or StandInPicamera2(), missing

    def Picamera2(self):
        if self.missing:
            raise IndexError("list index out of range")  # what picamera2 raises with no camera
        return self.camera


def test_picamera2_is_configured_before_it_starts():
    module = StandInModule()
    Picamera2Camera(CameraConfig(), module)
    assert module.camera.calls == ["create_video_configuration", "configure", "set_controls",
                                   "start"]


def test_picamera2_fixes_exposure_and_white_balance():
    module = StandInModule()
    Picamera2Camera(CameraConfig(exposure_us=8000, analogue_gain=2.0), module)
    controls = module.camera.controls
    assert controls["AeEnable"] is False and controls["AwbEnable"] is False
    assert controls["ExposureTime"] == 8000 and controls["AnalogueGain"] == 2.0


def test_picamera2_fixes_focus_when_a_lens_position_is_set():
    module = StandInModule()
    Picamera2Camera(CameraConfig(lens_position=2.5), module)
    assert module.camera.controls["AfMode"] == 0 and module.camera.controls["LensPosition"] == 2.5


def test_picamera2_leaves_focus_alone_by_default():
    module = StandInModule()
    Picamera2Camera(CameraConfig(), module)
    assert "AfMode" not in module.camera.controls


def test_picamera2_asks_for_bgr_frames_of_the_configured_size():
    module = StandInModule()
    Picamera2Camera(CameraConfig(width=640, height=480), module)
    assert module.camera.config["main"] == {"size": (640, 480), "format": "RGB888"}


def test_picamera2_drops_the_padding_channel():
    module = StandInModule(StandInPicamera2(shape=(864, 1536, 4)))
    assert Picamera2Camera(CameraConfig(), module).frame().shape == (864, 1536, 3)


def test_picamera2_check_reports_wrong_frame_size():
    module = StandInModule(StandInPicamera2(shape=(480, 640, 3)))
    status = Picamera2Camera(CameraConfig(), module).check()
    assert not status.ok and "width/height" in status.fix


def test_picamera2_without_camera_says_how_to_fix():
    status = Picamera2Camera(CameraConfig(), StandInModule(missing=True)).check()
    assert not status.ok and "ribbon" in status.fix and "python3-picamera2" in status.fix


def test_picamera2_module_missing_is_a_status_not_a_crash():
    status = open_camera(CameraConfig(source="picamera2")).check()
    # said once: it read "Pi camera not working (camera: Pi camera not working (...); connect ...)"
    assert not status.ok and status.problem == "Pi camera not working (ModuleNotFoundError: No module named 'picamera2')"


def test_a_pi_camera_that_did_not_open_gives_the_table_doctors_problem_and_fix():
    # run's fault said "camera: ModuleNotFoundError: ...; check the device's cable and power"
    with pytest.raises(DeviceError) as err:
        open_camera(CameraConfig(source="picamera2")).frame()
    assert getattr(err.value, "problem", "").startswith("Pi camera not working (ModuleNotFoundError")
    assert getattr(err.value, "fix", "") == open_camera(CameraConfig(source="picamera2")).check().fix


def test_picamera2_capture_failure_is_a_disconnect():
    camera = Picamera2Camera(CameraConfig(), StandInModule(StandInPicamera2(fail_capture=True)))
    with pytest.raises(DeviceDisconnected):
        camera.frame()


def test_picamera2_close_stops_the_camera():
    module = StandInModule()
    Picamera2Camera(CameraConfig(), module).close()
    assert module.camera.calls[-2:] == ["stop", "close"]


def test_folder_replays_images_in_name_order():
    camera = FolderCamera(PHOTOS)
    first = cv2.imread(str(camera.files[0]))
    assert np.array_equal(camera.frame(), first)


def test_folder_without_loop_stops_after_the_last_image(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    camera = FolderCamera(tmp_path, loop=False)
    camera.frame()
    with pytest.raises(DeviceDisconnected):
        camera.frame()


def test_folder_with_loop_starts_over(tmp_path):
    for name, value in (("a.png", 10), ("b.png", 200)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), value, np.uint8))
    camera = FolderCamera(tmp_path, loop=True)
    assert [int(camera.frame()[0, 0, 0]) for _ in range(3)] == [10, 200, 10]


def test_empty_folder_fails_check(tmp_path):
    status = FolderCamera(tmp_path).check()
    assert not status.ok and "folder" in status.fix


def test_a_folder_image_that_is_not_readable_is_named_escaped(tmp_path):
    # a name that is not UTF-8 was printed raw ('\udce9'), and the folder's junk unquoted
    (tmp_path / os.fsdecode(b"caf\xe9.png")).write_bytes(b"not a picture")
    with pytest.raises(DeviceError) as err:
        FolderCamera(tmp_path).frame()
    assert str(err.value).endswith(f": '{tmp_path}/caf\\xe9.png' is not a readable image")
    assert FolderCamera(tmp_path / "none").check().problem == f"no images in '{tmp_path}/none'"


def test_missing_video_file_fails_with_the_path(tmp_path):
    camera = OpenCvCamera(str(tmp_path / "none.avi"))
    with pytest.raises(DeviceError, match="none.avi") as err:
        camera.frame()
    status = camera.check()  # the table shows the error's problem and fix, as doctor says them
    assert (getattr(err.value, "problem", ""), getattr(err.value, "fix", "")) == (status.problem, status.fix)
    assert "USB webcam" in status.fix


def test_a_file_that_is_no_video_is_said_to_give_no_frame(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_text("not a video")
    with pytest.raises(DeviceError, match="'.*notes.jpg' gives no frame: not a video OpenCV reads"):
        OpenCvCamera(str(path)).frame()


def test_video_file_without_loop_ends(tmp_path):
    path = tmp_path / "one.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (32, 32))
    writer.write(np.full((32, 32, 3), 90, np.uint8))
    writer.release()
    camera = OpenCvCamera(str(path), loop=False)
    camera.frame()
    with pytest.raises(DeviceDisconnected):
        camera.frame()


def test_sim_camera_renders_the_dice_it_is_shown():
    camera = SimCamera(random.Random(3), (640, 360))
    camera.show([2, 5])
    camera.frame()
    assert sorted(d.value for d in camera.scene.dice) == [2, 5]


def _still_frames(seed, count, **spec):
    camera = SimCamera(random.Random(seed), (1536, 864))
    camera.show([2, 5, 6], **spec)
    return [camera.frame().astype(np.int16) for _ in range(count)]


def test_sim_camera_frames_of_a_still_tray_differ_by_sensor_noise_only():
    first, second = _still_frames(3, 2)
    difference = second - first
    assert np.count_nonzero(difference) > 0.5 * difference.size  # each frame its own noise
    # two frames' noise of SENSOR_NOISE each: their difference has a spread of SENSOR_NOISE * sqrt(2)
    assert abs(float(difference.mean())) < 0.1
    assert float(difference.std()) == pytest.approx(SENSOR_NOISE * 2 ** 0.5, rel=0.15)
    assert float(np.abs(difference).mean()) < 2 * SENSOR_NOISE


def test_sim_camera_gives_the_same_frames_noise_and_all_from_the_same_seed():
    frames = _still_frames(3, 3)
    assert all(np.array_equal(a, b) for a, b in zip(frames, _still_frames(3, 3)))
    camera = SimCamera(random.Random(3), (1536, 864))
    camera.show([2, 5, 6])
    assert not np.array_equal(camera.frame(), camera.scene.image)  # not the clean rendering


def test_a_throw_made_again_gives_the_same_frames():
    def throw(camera):
        camera.roll([1, 4], frames=2, key="hand 1 seat 0")
        return [camera.frame() for _ in range(4)]

    calm, stopped = SimCamera(random.Random(3), (640, 360)), SimCamera(random.Random(3), (640, 360))
    first = throw(stopped)[:1]  # the controller stopped after one frame: the dice are thrown again
    assert all(np.array_equal(a, b) for a, b in zip(throw(calm), first + throw(stopped)[1:]))


def test_sim_camera_shown_noise_replaces_the_sensor_noise():
    first, second = _still_frames(3, 2, noise=0)
    assert np.array_equal(first, second)


def test_sim_camera_drops_every_third_frame():
    camera = SimCamera(random.Random(3), (320, 240))
    camera.fault = CameraFault.DROPS
    camera.frame(), camera.frame()
    with pytest.raises(DeviceTimeout):
        camera.frame()


def test_stopped_sim_camera_raises_disconnected():
    camera = SimCamera(random.Random(3), (320, 240))
    camera.fault = CameraFault.STOPPED
    with pytest.raises(DeviceDisconnected):
        camera.frame()


def test_open_camera_refuses_sim_source():
    with pytest.raises(ConfigError, match="camera.source"):
        open_camera(CameraConfig(source="sim"))


def test_a_camera_that_stops_answering_is_a_device_fault_within_2_s():
    module = StandInModule()
    camera = Picamera2Camera(CameraConfig(timeout=0.3), module)
    camera.frame()
    module.camera.frames_flow.clear()
    started = time.monotonic()
    with pytest.raises(DeviceDisconnected, match="ribbon"):
        camera.frame()
    status = camera.check()  # no second capture piles up behind the hung one
    assert time.monotonic() - started < 2.0
    assert not status.ok and "reseat" in status.fix
    module.camera.frames_flow.set()
    time.sleep(0.05)
    assert camera.frame().shape == (864, 1536, 3)
    camera.close()


def test_frame_duration_fits_a_long_exposure():
    module = StandInModule()
    Picamera2Camera(CameraConfig(exposure_us=50_000), module)
    low, high = module.camera.controls["FrameDurationLimits"]
    assert low == high >= 50_000


def test_clamped_exposure_fails_the_check():
    module = StandInModule(StandInPicamera2(clamp_us=8_000))
    status = Picamera2Camera(CameraConfig(exposure_us=10_000), module).check()
    assert not status.ok and "8000 us" in status.problem and "10000" in status.problem


def test_exposure_the_sensor_cannot_do_is_an_error():
    camera = Picamera2Camera(CameraConfig(exposure_us=500_000), StandInModule())
    status = camera.check()
    assert not status.ok and "112015" in status.problem


def test_sim_camera_knows_its_lens_as_the_renderer_draws_it():
    """The demo's tray configuration takes the simulated lens's focal length (as an install writes
    its own): the camera's height follows, and with it the sides of dice the camera sees."""
    camera = SimCamera(random.Random(3), (1536, 864))
    camera.show([2])
    camera.frame()
    assert camera.focal_px == pytest.approx(camera.scene.camera.focal_px)
    camera.show([2], fov_deg=60.0)
    camera.frame()
    assert camera.focal_px == pytest.approx(camera.scene.camera.focal_px)
    assert camera.focal_px < 1536  # a wider lens: a shorter focal length


@pytest.mark.parametrize("model, crop, width, focal", [
    ("imx708", (0, 0, 4608, 2592), 1536, 4.74 / 1.4e-3 / 3),         # Camera Module 3, binned to 1536
    ("imx708_noir", (0, 0, 4608, 2592), 2304, 4.74 / 1.4e-3 / 2),    # the same lens without IR filter
    ("imx708_wide", (0, 0, 4608, 2592), 1536, 2.75 / 1.4e-3 / 3),    # Camera Module 3 Wide
    ("imx219", (680, 692, 1920, 1080), 1536, 3.04 / 1.12e-3 * 1536 / 1920),  # Module 2's 1080p crop
    ("imx477", (0, 0, 4056, 3040), 1536, None),                      # HQ camera: any lens
])
def test_a_pi_camera_module_knows_its_lens(model, crop, width, focal):
    """Its focal length in pixels of the frames, from the module's lens and the part of the
    sensor the frames show; none for a camera that takes any lens."""
    module = StandInModule(StandInPicamera2(model=model, scaler_crop=crop))
    camera = Picamera2Camera(CameraConfig(width=width, height=width * 9 // 16), module)
    assert camera.focal_px == (None if focal is None else pytest.approx(focal))


def test_a_pi_camera_that_gives_no_metadata_knows_no_lens_until_it_does():
    module = StandInModule()
    camera = Picamera2Camera(CameraConfig(timeout=0.3), module)
    module.camera.frames_flow.clear()
    assert camera.focal_px is None  # a hung capture: asked again later, never a crash
    module.camera.frames_flow.set()
    time.sleep(0.05)
    assert camera.focal_px == pytest.approx(4.74 / 1.4e-3 / 3)
    camera.close()
