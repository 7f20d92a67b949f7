"""Synthetic dice scenes with exact ground truth, for tests, benchmarks and the simulated camera.

A scene is rendered in 3-D: the dice are rounded solids on a tray plane (millimetres) seen by a
pinhole camera, so perspective, visible side faces, cocked dice and tray markers all come from one
geometry. Every kind of die the games use is drawn: pip d6, letter d6, d8 (Tauren) and d12; a new
kind needs a solid and its face marks in :mod:`vision.render_solid`. Everything random comes from
the ``random.Random`` passed in.

>>> import random
>>> scene = render_scene(random.Random(1), SceneSpec(size=(320, 240), n_dice=2, die_px=(30, 40)))
>>> scene.image.shape, len(scene.dice)
((240, 320, 3), 2)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Sequence

import cv2
import numpy as np

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput
from vision.calibrate import CORNER_IDS, TrayLayout
from vision.render_die import TOP, DiePose, DieStyle, Faces, draw_die, face_outline, random_faces
from vision.face_art import FONT_FACES, Lettering
from vision.render_solid import SOLIDS, Solid, turned
from vision.render_ground import BACKGROUNDS, Camera, finish, ground_image, make_camera

READABLE = 0.8
"""Share of the top face that must be in view for the truth to give its value."""

DIE_MM = 16.0
"""Edge of a standard d6; sets the tray scale when ``SceneSpec.px_per_mm`` is not given."""


@dataclass(frozen=True)
class DieTruth:
    """What a perfect reader would report for one die in a rendered scene.

    ``value`` is None when the top face cannot be read: the die is cocked or moving, or less than
    ``READABLE`` of its top face is in view (``visible``: hidden by a nearer die or the frame edge).
    ``center`` is the top face's centre; ``box`` bounds the whole visible die. ``value`` numbers
    the face in ``DieKind(kind).faces`` order from 1 (the pips or numeral on d6 and d12 dice);
    ``face`` is the face as games write it ('5', 'W', 'H'), None when ``value`` is. ``up_deg`` is
    the turn (degrees, as :func:`vision.crops.crop` takes it) of a crop in which the top face's
    design stands upright, as printed.
    """

    kind: str
    value: int | None
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    cocked: bool = False
    cut_off: bool = False
    colour: tuple[int, int, int] = (255, 255, 255)
    tray_mm: tuple[float, float] | None = None
    moving: bool = False
    edge_mm: float | None = None
    visible: float = 1.0
    face: str | None = None
    up_deg: float | None = None

    @property
    def side(self) -> float:
        """The die's size in pixels: the mean of its box's width and height."""
        return (self.box[2] + self.box[3]) / 2


@dataclass(frozen=True)
class Scene:
    """A rendered frame (BGR uint8) and the truth about every die in it."""

    image: np.ndarray
    dice: tuple[DieTruth, ...]
    moving: bool = False
    camera: Camera | None = field(default=None, compare=False)
    tray: TrayLayout | None = None
    layout: _Layout | None = field(default=None, compare=False, repr=False)
    """The scene's stage and dice as drawn (private to the renderer): a later roll on the same tray
    keeps the dice that lie still (:func:`render_roll`'s ``after``)."""


@dataclass(frozen=True)
class SceneSpec:
    """What to render; every field has a sensible default.

    ``die_px`` is the range of die edge lengths in pixels at the image centre; ``glare`` (0..1) the
    share and strength of specular spots; ``blur`` a gaussian sigma in pixels; ``noise`` the sensor
    noise in grey levels; ``perspective`` (0..1) tilts the camera up to 30 degrees; ``cocked`` and
    ``cut_off`` how many dice lean against something or cross the frame edge; ``markers`` draws the
    tray's ArUco markers (on ``tray``, or a tray fitted to the view); ``walls`` the tray's walls
    (dice stay inside); ``clutter`` how many distractors (holes, lines, print) lie on the surface;
    ``px_per_mm`` and ``fov_deg``
    set the camera; ``marbled`` is the share of marbled dice, ``shadow`` the shadows' greatest
    darkness (each scene's light makes them 50-100% of it), ``tint`` (0..1) a colour cast of up
    to 6% per channel as a camera's white balance gives, ``jpeg_quality`` compresses the frame
    like a camera's JPEG. ``positions_mm`` (one tray point per die: where its centre rests, on the
    tray or off it) or ``areas_mm`` (one polygon in tray mm per die: it rests wholly inside, clear
    of the markers, at a random point) place the dice; both need a tray (``tray`` or ``markers``).
    A cocked die of an area leans on a die of its area or on the tray's wall where the area
    reaches it, and lies flat (and is read) when its area holds neither (:func:`_leaning_in`).
    """

    size: tuple[int, int] = (1536, 864)
    n_dice: int = 7
    die_px: tuple[float, float] = (60, 110)
    touching: bool = False
    glare: float = 0.0
    translucent: bool = False
    blur: float = 0.0
    noise: float = 0.0
    perspective: float = 0.0
    cocked: int = 0
    cut_off: int = 0
    background: str = "felt"
    markers: bool = False
    walls: bool = False
    clutter: int = 0
    tray: TrayLayout | None = None
    px_per_mm: float | None = None
    fov_deg: float = 40.0
    marbled: float = 0.25
    shadow: float = 0.45
    tint: float = 0.0
    jpeg_quality: int | None = None
    kind: str = "d6"
    lettering: bool | Lettering = False
    palette: tuple[tuple[tuple[int, int, int], tuple[tuple[int, int, int], ...]], ...] | None = None
    positions_mm: tuple[tuple[float, float], ...] | None = None
    areas_mm: tuple[tuple[tuple[float, float], ...], ...] | None = None

    def __post_init__(self) -> None:
        if self.background not in (*BACKGROUNDS, "random"):
            raise InvalidInput(f"unknown background {self.background!r}")
        if self.kind not in {k.value for k in DieKind}:
            raise InvalidInput(f"unknown die kind {self.kind!r} (kinds: {', '.join(k.value for k in DieKind)})")
        if not 0 < self.die_px[0] <= self.die_px[1]:
            raise InvalidInput(f"die_px must be a rising pair of sizes, not {self.die_px!r}")
        if (self.positions_mm is not None or self.areas_mm is not None) and not (self.markers or self.walls):
            raise InvalidInput("placing dice at tray positions or in areas needs a tray: markers=True")


@dataclass(frozen=True, eq=False)
class _Die:
    pose: DiePose
    faces: Faces
    style: DieStyle
    cocked: bool
    yaw: float  # turn about the vertical, so dice put side by side can line up


@dataclass(frozen=True, eq=False)
class _Layout:
    camera: Camera
    ground: np.ndarray
    light: np.ndarray
    tray: TrayLayout | None
    dice: tuple[_Die, ...]
    shadow: float = 0.45
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)


Body = tuple[int, int, int]
"""A die body's colour (BGR)."""


def render_scene(rng: random.Random, spec: SceneSpec = SceneSpec(),
                 values: Sequence[int] | None = None, bodies: Sequence[Body] | None = None) -> Scene:
    """Render one frame of resting dice.

    ``values`` fixes the top faces (and the number of dice, overriding ``spec.n_dice``); the last
    ``spec.cocked`` dice lean over and their truth value is None. ``bodies`` paints each die's
    body (a seat's own colour; :func:`painted`), the renderer's own looks when None.
    """
    layout = _layout(rng, spec, values)
    layout = replace(layout, dice=painted(layout.dice, bodies))
    return _compose(rng, spec, layout, layout.dice, moving=())


def render_roll(rng: random.Random, spec: SceneSpec, frames: int, settle_at: int | None = None,
                values: Sequence[int] | None = None, rolls: int = 1,
                bodies: Sequence[Body] | None = None, after: Scene | None = None,
                staying: Sequence[int] = (), moved: Sequence[int] = (), rethrown: Sequence[int] = ()) -> list[Scene]:
    """A roll seen by a still camera: dice tumble in and slow down until frame ``settle_at``
    (default 2/3 of ``frames``), then lie still; every frame has fresh sensor noise.

    With ``rolls`` > 1 the dice are picked up and thrown again on the same tray, ``frames``
    frames per roll, one list for all of them. ``bodies`` as in :func:`render_scene`.

    ``after`` continues an earlier scene of this renderer on its tray, under its camera and light:
    its dice numbered in ``staying`` lie still where they lay, as they looked, first in the new
    scenes' dice, and the thrown dice (``values``, placed clear of them) tumble in beside them. A die
    staying may be of another kind than ``spec.kind`` (Tao Dice's d12s while the d6 are thrown):
    each die's truth is of its own kind. Its dice numbered in ``moved`` are not thrown anew but
    moved by hand (:func:`_moved_by_hand`): the same dice, the same faces up, in another place.
    Its dice numbered in ``rethrown`` are picked up and thrown again (:func:`_thrown_again`): the
    same dice, new faces (``values``), new places.
    """
    settle = frames * 2 // 3 if settle_at is None else settle_at
    stage = _stage(rng, spec) if after is None or after.layout is None else after.layout
    still: tuple[_Die, ...] = tuple(stage.dice[i] for i in staying)
    scenes = []
    for _ in range(rolls):
        if moved:
            thrown = _moved_by_hand(rng, spec, stage, still, moved, values)
        elif rethrown:
            thrown = _thrown_again(rng, spec, stage, still, rethrown, values)
        else:
            thrown = painted(_dice(rng, spec, stage, values, still), bodies)
        layout = replace(stage, dice=(*still, *thrown))
        paths = [None] * len(still) + [_tumble(rng, die) for die in thrown]
        for k in range(frames):
            left = max(0.0, 1.0 - k / settle) if settle > 0 else 0.0
            dice = tuple(die if path is None else _moved(die, path, left) for die, path in zip(layout.dice, paths))
            scenes.append(_compose(rng, spec, layout, dice, tuple(path is not None and left > 0 for path in paths)))
    return scenes


MOVE_SIDES = 1.5
"""How far a die moved by hand goes, at most, along each axis of the tray: in its sides."""


def _moved_by_hand(rng: random.Random, spec: SceneSpec, stage: _Layout, still: tuple[_Die, ...],
                   moved: Sequence[int], values: Sequence[int] | None) -> tuple[_Die, ...]:
    """The stage's dice numbered ``moved``, each moved a little by hand, the same face up: the
    same die (its size, looks and top face) turned about the vertical and slid up to
    :data:`MOVE_SIDES` of its sides, clear of the other dice, on the same tray under the same
    camera and light. A die lying cocked is laid flat, its ``values`` face up (another place
    from the renderer, the same looks). What a player does when asked to move a die the camera
    doubts: not a throw, whose new dice, felt and light would be kinder than the table."""
    placed = list(still)
    for n, index in enumerate(moved):
        die = stage.dice[index]
        own = replace(spec, cocked=0, cut_off=0, positions_mm=None,
                      areas_mm=None if spec.areas_mm is None else (spec.areas_mm[n],))  # its own area
        if die.cocked:
            top = values[n] if values is not None else 1
            flat = _place(rng, own, stage.camera, stage.tray, [top], _scale(spec), tuple(placed))[0]
            placed.append(replace(flat, style=die.style))
            continue
        placed.append(_slid(rng, own, stage, die, placed))
    return tuple(placed[len(still):])


def _thrown_again(rng: random.Random, spec: SceneSpec, stage: _Layout, still: tuple[_Die, ...],
                  rethrown: Sequence[int], values: Sequence[int] | None) -> tuple[_Die, ...]:
    """The stage's dice numbered ``rethrown`` picked up and thrown again on the same tray, under
    the same camera and light: each the same die (its size and looks) landing anew, ``values`` up
    (1 when None), in its area, the last ``spec.cocked`` of them leaning. What players do when
    asked to throw a cocked die again: a throw drawn from scratch would bring new dice, felt and
    light, a twin kinder than the table."""
    scale = _scale(spec)
    placed = list(still)
    for n, index in enumerate(rethrown):
        die = stage.dice[index]
        px = die.pose.edge_mm * scale
        own = replace(spec, die_px=(px, px), cut_off=0, positions_mm=None,
                      cocked=int(n >= len(rethrown) - spec.cocked),
                      areas_mm=None if spec.areas_mm is None else (spec.areas_mm[n],))
        top = values[n] if values is not None else 1
        landed = _place(rng, own, stage.camera, stage.tray, [top], scale, tuple(placed))[0]
        placed.append(replace(landed, style=die.style))
    return tuple(placed[len(still):])


def _slid(rng: random.Random, spec: SceneSpec, stage: _Layout, die: _Die, placed: list[_Die]) -> _Die:
    """``die`` turned and slid a little, clear of ``placed`` and inside its area (``spec``'s
    only one: its zone on the tray, which a player moving it keeps it in); where it lay when
    nowhere fits."""
    reach = MOVE_SIDES * die.pose.edge_mm
    for _ in range(300):
        turn = rng.uniform(-math.pi, math.pi)
        c, s_ = math.cos(turn), math.sin(turn)
        spin = np.array([[c, -s_, 0.0], [s_, c, 0.0], [0.0, 0.0, 1.0]])
        shift = np.array([rng.uniform(-reach, reach), rng.uniform(-reach, reach), 0.0])
        pose = replace(die.pose, position=die.pose.position + shift, rotation=spin @ die.pose.rotation)
        candidate = replace(die, pose=pose, yaw=die.yaw + turn)
        if _fits(candidate, placed, stage.camera, spec, stage.tray, False) and _in_area(candidate, spec, 0):
            return candidate
    return die


def painted(dice: tuple[_Die, ...], bodies: Sequence[Body] | None) -> tuple[_Die, ...]:
    """``dice`` with their bodies in ``bodies`` (plain, no marbling, opaque) and their marks in
    :func:`ink_for` the body; unchanged when ``bodies`` is None. Painting draws nothing random, so
    a seed gives the same dice whatever their colours."""
    if bodies is None:
        return dice
    if len(bodies) != len(dice):
        raise InvalidInput(f"{len(bodies)} body colours for {len(dice)} dice")
    return tuple(replace(die, style=replace(die.style, body=body, pips=ink_for(body), marble=None,
                                            translucent=False))
                 for die, body in zip(dice, bodies))


def ink_for(body: Body) -> Body:
    """The marks' colour on a die body (BGR): near black on a light body, near white on a dark one,
    as coloured dice are sold."""
    blue, green, red = body
    light = 0.114 * blue + 0.587 * green + 0.299 * red
    return (25, 25, 25) if light > 110 else (240, 240, 240)


def _layout(rng: random.Random, spec: SceneSpec, values: Sequence[int] | None) -> _Layout:
    """Camera, empty tray and resting dice of one scene."""
    stage = _stage(rng, spec)
    return replace(stage, dice=_dice(rng, spec, stage, values))


def _stage(rng: random.Random, spec: SceneSpec) -> _Layout:
    """Camera, light and the empty tray as seen, without dice."""
    scale = _scale(spec)
    tilt, towards = spec.perspective * 30 * rng.uniform(0.6, 1.0), rng.uniform(0, 2 * math.pi)
    tray = spec.tray or (_fitted_tray(spec, scale, tilt, towards) if spec.markers or spec.walls else None)
    target = (tray.width_mm / 2, tray.height_mm / 2) if tray else (spec.size[0] / 2 / scale, spec.size[1] / 2 / scale)
    camera = make_camera(spec.size, scale, spec.fov_deg, tilt, towards, target)
    ground = ground_image(rng, camera, spec.background, tray, scale, markers=spec.markers, walls=spec.walls,
                          clutter=spec.clutter)
    light = np.array([rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), -1.0])
    shadow = spec.shadow * rng.uniform(0.5, 1.0)
    gains = tuple(1 + spec.tint * rng.uniform(-0.06, 0.06) for _ in range(3))
    return _Layout(camera, ground, light / np.linalg.norm(light), tray, (), shadow, gains)  # type: ignore[arg-type]


def _scale(spec: SceneSpec) -> float:
    return spec.px_per_mm or (spec.die_px[0] + spec.die_px[1]) / 2 / DIE_MM


def _dice(rng: random.Random, spec: SceneSpec, stage: _Layout, values: Sequence[int] | None,
          lying: tuple[_Die, ...] = ()) -> tuple[_Die, ...]:
    """Resting dice for one throw on the stage's tray, clear of the dice ``lying`` there."""
    count = len(DieKind(spec.kind).faces)
    tops = list(values) if values is not None else [rng.randint(1, count) for _ in range(spec.n_dice)]
    if any(not 1 <= top <= count for top in tops):
        raise InvalidInput(f"a {spec.kind} die has faces 1 to {count}, not {tops!r}")
    bounded = spec.markers or spec.walls
    for wanted, name in ((spec.positions_mm, "positions_mm"), (spec.areas_mm, "areas_mm")):
        if wanted is not None and len(wanted) != len(tops):
            raise InvalidInput(f"{name} gives {len(wanted)} places for {len(tops)} dice")
    lit = replace(spec, shadow=stage.shadow)
    return _place(rng, lit, stage.camera, stage.tray if bounded else None, tops, _scale(spec), lying)


def _fitted_tray(spec: SceneSpec, scale: float, tilt: float, towards: float) -> TrayLayout:
    """The largest tray of the frame's shape whose corners the (tilted) camera sees, markers ~12%
    of its short side and their white quiet zones on the tray."""
    camera = make_camera(spec.size, scale, spec.fov_deg, tilt, towards, (0.0, 0.0))
    half = np.array(spec.size, np.float64) / 2 / scale
    corners = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float64)
    fraction = 0.9
    while fraction > 0.2:
        seen = camera.project(corners * np.append(half * fraction, 0))
        if (seen.min(axis=0) >= 8).all() and (seen.max(axis=0) <= np.array(spec.size) - 8).all():
            break
        fraction -= 0.02
    width, height = 2 * half * fraction
    marker = round(min(width, height) * 0.12, 1)
    return TrayLayout(width, height, marker_mm=marker, margin_mm=round(marker / 6 + 1, 1))


def _compose(rng: random.Random, spec: SceneSpec, layout: _Layout, dice: tuple[_Die, ...],
             moving: tuple[bool, ...]) -> Scene:
    """Draw ``dice`` (far ones first) on the layout's tray and apply the camera effects."""
    image = layout.ground.copy()
    camera = layout.camera
    order = sorted(range(len(dice)), key=lambda i: -float(np.linalg.norm(dice[i].pose.position - camera.centre)))
    hulls: dict[int, np.ndarray] = {}
    owner = np.full(image.shape[:2], len(dice), np.uint16)  # which die each pixel shows, in the end
    for i in order:
        hulls[i] = draw_die(image, dice[i].pose, dice[i].faces, dice[i].style, camera, layout.light)
        cv2.fillPoly(owner, [np.round(hulls[i]).astype(np.int32)], i)
    image = finish(rng, image, spec.blur, spec.noise, spec.jpeg_quality, layout.gains)
    truths = tuple(_truth(dice[i], hulls[i], camera, spec, bool(moving and moving[i]), _top_visible(owner, i, dice[i], camera))
                   for i in range(len(dice)))
    return Scene(image, truths, any(moving), camera, layout.tray, replace(layout, dice=dice))


def _top_visible(owner: np.ndarray, index: int, die: _Die, camera: Camera) -> float:
    """Share of the die's top face that ends up in view (not under a nearer die, not off-frame)."""
    outline = camera.project(die.pose.world(face_outline(die.pose, die.style, TOP)))
    lo = np.floor(outline.min(axis=0)).astype(int)
    hi = np.ceil(outline.max(axis=0)).astype(int)
    face = np.zeros((hi[1] - lo[1] + 1, hi[0] - lo[0] + 1), np.uint8)
    cv2.fillPoly(face, [np.round(outline - lo).astype(np.int32)], 1)
    total = int(face.sum())
    x0, y0 = max(0, lo[0]), max(0, lo[1])
    x1, y1 = min(owner.shape[1], hi[0] + 1), min(owner.shape[0], hi[1] + 1)
    if total == 0 or x1 <= x0 or y1 <= y0:
        return 0.0
    seen = face[y0 - lo[1]:y1 - lo[1], x0 - lo[0]:x1 - lo[0]] & (owner[y0:y1, x0:x1] == index)
    return float(seen.sum()) / total


def _truth(die: _Die, hull: np.ndarray, camera: Camera, spec: SceneSpec, moving: bool, visible: float) -> DieTruth:
    """Ground truth of a drawn die: box around its outline clipped to the frame, top-face centre."""
    width, height = spec.size
    lo, hi = hull.min(axis=0), hull.max(axis=0)
    cut = bool(lo[0] < 0 or lo[1] < 0 or hi[0] > width or hi[1] > height)
    x0, y0 = max(0.0, lo[0] - 0.5), max(0.0, lo[1] - 0.5)
    x1, y1 = min(float(width), hi[0] + 0.5), min(float(height), hi[1] + 0.5)
    top = camera.project(die.pose.world(die.pose.solid.centres[TOP:TOP + 1]))[0]
    unreadable = die.cocked or moving or visible < READABLE
    position = die.pose.position
    return DieTruth(kind=die.faces.kind.value, value=None if unreadable else die.faces.values[TOP],
                    face=None if unreadable else die.faces.label(TOP),
                    center=(float(top[0]), float(top[1])), box=(x0, y0, x1 - x0, y1 - y0),
                    cocked=die.cocked, cut_off=cut, colour=die.style.body,
                    tray_mm=(float(position[0]), float(position[1])), moving=moving,
                    edge_mm=die.pose.edge_mm, visible=round(visible, 3), up_deg=_up_deg(die, camera))


def _up_deg(die: _Die, camera: Camera) -> float:
    """The crop turn that stands the top face's design upright: the design's up (its -y, turned as
    the face is turned) as the camera sees it, measured as :func:`vision.crops.crop_matrix` turns."""
    solid = die.pose.solid
    up = turned(np.array([[0.0, 0.0], [0.0, -0.2 * solid.inradius]]), die.faces.turns[TOP])
    ends = camera.project(die.pose.world(solid.face_points(TOP, up)))
    dx, dy = ends[1] - ends[0]
    return math.degrees(math.atan2(dx, -dy)) % 360


PALETTE: tuple[tuple[tuple[int, int, int], tuple[tuple[int, int, int], ...]], ...] = (
    ((236, 236, 232), ((25, 25, 25), (25, 25, 25), (35, 35, 190), (150, 60, 20))),
    ((200, 228, 238), ((30, 30, 30),)),
    ((32, 30, 30), ((235, 235, 235), (235, 235, 235), (40, 200, 230), (40, 40, 200))),
    ((40, 40, 195), ((240, 240, 240), (240, 240, 240), (20, 20, 20))),
    ((165, 60, 20), ((240, 240, 240), (40, 210, 235))),
    ((60, 150, 40), ((240, 240, 240), (40, 210, 235))),
    ((40, 215, 235), ((25, 25, 25), (30, 30, 170))),
    ((120, 35, 85), ((235, 235, 235), (40, 200, 230))),
    ((30, 120, 235), ((240, 240, 240), (20, 20, 20))),
    ((175, 140, 240), ((245, 245, 245), (20, 20, 20))),
    ((150, 140, 30), ((240, 240, 240),)),
    ((55, 125, 175), ((25, 25, 25),)),
    ((115, 115, 115), ((240, 240, 240),)),
)
"""Die bodies (BGR) and pip colours they come with, from dice sets seen on real tables."""


def _style(rng: random.Random, spec: SceneSpec) -> DieStyle:
    """A random die look: body from the palette with some spread, contrasting pips, material.

    Draws the same random numbers whatever the spec asks, so that one seed gives the same dice
    with and without glare, translucency or marbling.
    """
    palette = spec.palette or PALETTE
    body, pip_choices = rng.choice(palette)
    body = tuple(max(0, min(255, c + rng.randint(-18, 18))) for c in body)  # type: ignore[assignment]
    pips = rng.choice(pip_choices)
    marble = _marble_for(rng.choice(palette)[0], pips, palette)
    see_through, marbled, shiny, shine = rng.random(), rng.random(), rng.random(), rng.uniform(0.6, 1.0)
    translucent = spec.translucent and see_through < 0.6
    glare = spec.glare * shine if shiny < max(0.35, spec.glare) else 0.0
    pip_radius, corner, seed = rng.uniform(0.065, 0.105), rng.uniform(0.1, 0.26), rng.getrandbits(32)
    return DieStyle(body=body, pips=pips, marble=marble if marbled < spec.marbled and not translucent else None,
                    translucent=translucent, pip_radius=pip_radius, corner=corner, glare=glare, seed=seed,
                    shadow=spec.shadow, lettering=_look(spec, seed))


MARBLE_CONTRAST = 126.0
"""Least distance (BGR, Euclidean) of a marbled die's second colour from its ink: the least at
which :data:`PALETTE` pairs a body with its ink (pink, white ink). A maker inks a two-colour die so
that the marks show on both colours; a swirl of the ink's own colour hides them where it runs (a
black and red die with black pips, a yellow-green one with yellow pips), a die nobody sells, which
the table then sent to the dealer: 12 of the 15 camera questions of 10 demo games of each game
(``bench/table.py --camera-games 10``). Without the rule, 14 of 72 dice marbled at random lay
within it of their ink."""


def _marble_for(drawn: Body, ink: Body, palette: Sequence[tuple[Body, tuple[Body, ...]]]) -> Body | None:
    """The second colour of a marbled die inked ``ink``: the ``drawn`` palette body, or when it lies
    within :data:`MARBLE_CONTRAST` of the ink, the next body of ``palette`` that does not (in the
    palette's order, round; None when none does). Draws nothing random."""
    bodies = [body for body, _ in palette]
    start = bodies.index(drawn)
    turn = bodies[start:] + bodies[:start]
    return next((body for body in turn if float(np.linalg.norm(np.subtract(body, ink))) >= MARBLE_CONTRAST), None)


def _look(spec: SceneSpec, seed: int) -> Lettering | None:
    """A die's lettering as the spec asks: the one given, one of its own, or the shipped design (None)."""
    if isinstance(spec.lettering, Lettering):
        return spec.lettering
    return _lettering(seed, DieKind(spec.kind)) if spec.lettering else None


def _lettering(seed: int, kind: DieKind) -> Lettering:
    """A die's own font face, weight, slant and width, drawn from its seed (so that asking for varied
    lettering draws no more numbers from the scene's generator); a d12's 6 and 9 underlined or dotted."""
    return lettering_in(random.Random(seed ^ 0x1E77E5), FONT_FACES)


def lettering_in(rng: random.Random, faces: Sequence[str]) -> Lettering:
    """A die's lettering in one of ``faces`` (OpenCV's faces or font files, whose one weight the
    drawn weight does not change), drawn from ``rng``: weight, slant, width and 6/9 mark."""
    face = rng.choice(faces)
    slant = rng.uniform(-0.12, 0.25) if rng.random() < 0.25 else 0.0
    return Lettering(face, rng.choice((300, 400, 500, 600, 700, 800, 900)), slant, rng.uniform(0.75, 1.25),
                     rng.choice(("underline", "dot")))


def _rz(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _rx(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _resting(xy: np.ndarray, rotation: np.ndarray, edge: float, solid: Solid, lift: float = 0.0) -> DiePose:
    """A pose at ``xy`` whose lowest corner touches the tray (or hovers ``lift`` mm above it)."""
    low = float((solid.vertices * edge @ rotation.T)[:, 2].max())
    return DiePose(np.array([xy[0], xy[1], -low - lift]), rotation, edge, solid)


def _footprint(pose: DiePose) -> np.ndarray:
    """The die's shadow straight down on the tray: convex hull of its corners' (x, y), float32."""
    corners = pose.world(pose.solid.vertices)[:, :2].astype(np.float32)
    return cv2.convexHull(corners).reshape(-1, 2)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area)


def _place(rng: random.Random, spec: SceneSpec, camera: Camera, tray: TrayLayout | None,
           tops: Sequence[int], scale: float, lying: tuple[_Die, ...] = ()) -> tuple[_Die, ...]:
    """Put the dice on the tray: apart, touching or leaning as the spec asks, all in view, clear
    of the dice ``lying`` there."""
    placed: list[_Die] = list(lying)
    n_cocked = min(spec.cocked, len(tops))
    for i, top in enumerate(tops):
        cocked = i >= len(tops) - n_cocked
        cut = not cocked and i < spec.cut_off
        area = None if spec.areas_mm is None else np.array(spec.areas_mm[i], np.float64)
        for _ in range(300):
            at = _spot(rng, spec, i)
            die = _candidate(rng, spec, camera, placed, top, cocked, cut, scale, tray, at, area)
            if die is not None and _fits(die, placed, camera, spec, tray, cut) and _in_area(die, spec, i):
                placed.append(die)
                break
        else:
            raise InvalidInput(f"cannot place {len(tops)} dice of {spec.die_px} px in a {spec.size} frame")
    return tuple(placed[len(lying):])


def _spot(rng: random.Random, spec: SceneSpec, index: int) -> np.ndarray | None:
    """Where die ``index`` must rest (tray mm): its given position, a random point of its area, or
    None (anywhere). Draws random numbers only for an area, so other scenes keep their seeds' dice."""
    if spec.positions_mm is not None:
        return np.array(spec.positions_mm[index], np.float64)
    if spec.areas_mm is None:
        return None
    polygon = np.array(spec.areas_mm[index], np.float64)
    lo, hi = polygon.min(axis=0), polygon.max(axis=0)
    contour = polygon.astype(np.float32).reshape(-1, 1, 2)
    for _ in range(100):
        point = np.array([rng.uniform(lo[0], hi[0]), rng.uniform(lo[1], hi[1])])
        if cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0:
            return point
    raise InvalidInput(f"area {spec.areas_mm[index]!r} has no room for a die")


def _in_area(die: _Die, spec: SceneSpec, index: int) -> bool:
    """True when the die's footprint lies wholly inside its area (always, without areas)."""
    if spec.areas_mm is None:
        return True
    area = np.array(spec.areas_mm[index], np.float64)
    return all(_holds(area, point) for point in _footprint(die.pose))


def _candidate(rng: random.Random, spec: SceneSpec, camera: Camera, placed: list[_Die], top: int,
               cocked: bool, cut: bool, scale: float, tray: TrayLayout | None,
               at: np.ndarray | None = None, area: np.ndarray | None = None) -> _Die | None:
    """One random try at a die's pose: at ``at`` (tray mm) when given, else next to another die,
    against a wall, or anywhere in view. A cocked die of an ``area`` (tray mm polygon) leans on
    something there (:func:`_leaning_in`): a die tilted on nothing stands in no real tray."""
    edge = rng.uniform(*spec.die_px) / scale
    kind = DieKind(spec.kind)
    faces = random_faces(rng, kind, top)
    style = _style(rng, spec)
    flat = [d for d in placed if not d.cocked]
    tilt = (_rx(math.radians(rng.uniform(20, 38))) if cocked else np.eye(3)) @ SOLIDS[kind].rest
    if at is not None and cocked and area is not None and tray is not None:
        leaning = _leaning_in(rng, area, flat, tray, edge, tilt, SOLIDS[kind])
        if leaning is not None:
            return _Die(leaning[0], faces, style, cocked, leaning[1])
        cocked, tilt = False, SOLIDS[kind].rest  # nothing to lean on: it lies flat where it stopped
    if at is not None:
        yaw = rng.uniform(0, 2 * math.pi)
        return _Die(_resting(at, _rz(yaw) @ tilt, edge, SOLIDS[kind]), faces, style, cocked, yaw)
    if cocked and spec.walls and tray is not None and rng.random() < 0.5:
        yaw, pose = _against_wall(rng, tray, edge, tilt, SOLIDS[kind])
        return _Die(pose, faces, style, cocked, yaw)
    if flat and not cut and rng.random() < (0.85 if cocked else 0.65 if spec.touching else 0.0):
        partner = rng.choice(flat)
        edge = partner.pose.edge_mm * rng.uniform(0.9, 1.1)  # dice that end up together are of one set
        placed_beside = _beside(rng, partner, edge, tilt, cocked)
        return None if placed_beside is None else _Die(placed_beside[0], faces, style, cocked, placed_beside[1])
    xy = _in_view(rng, camera, spec, edge * scale, cut)
    yaw = rng.uniform(0, 2 * math.pi)
    return _Die(_resting(xy, _rz(yaw) @ tilt, edge, SOLIDS[kind]), faces, style, cocked, yaw)


def _beside(rng: random.Random, partner: _Die, edge: float, tilt: np.ndarray,
            cocked: bool) -> tuple[DiePose, float] | None:
    """A pose (and yaw) touching ``partner`` side to side, or leaning its top against it when ``cocked``."""
    angle = partner.yaw + rng.randrange(4) * math.pi / 2
    direction = np.array([math.cos(angle), math.sin(angle)])
    near = partner.pose
    across = np.array([-direction[1], direction[0]]) * rng.uniform(-0.3, 0.3) * min(edge, near.edge_mm)
    yaw = angle + math.pi / 2 if cocked else partner.yaw + rng.uniform(-0.04, 0.04)
    rotation = _rz(yaw) @ tilt
    other = _footprint(near)
    for step in range(200):
        distance = (edge + near.edge_mm) / 2 + step * 0.2
        pose = _resting(near.position[:2] + direction * distance + across, rotation, edge, near.solid)
        if _overlap(_footprint(pose), other) < 0.05:
            return pose, yaw
    return None


WALL_GAP = 1.2
"""How far (mm) a die leaning on the tray's wall keeps its footprint from the wall's line."""

Wall = tuple[tuple[float, float], float, float]
"""A stretch of the tray's wall: its outward direction, and where it starts and ends (mm along it)."""

_OUTWARDS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))


def _walls(tray: TrayLayout, area: np.ndarray | None = None) -> list[Wall]:
    """The tray's four walls whole, or the stretches of them that ``area`` (tray mm polygon) reaches
    (its corners within :data:`WALL_GAP` of a wall): where a die of that area can lean on one."""
    size = np.array([tray.width_mm, tray.height_mm])
    if area is None:
        return [(outward, 0.0, float(np.abs(outward[::-1]) @ size)) for outward in _OUTWARDS]
    stretches: list[Wall] = []
    for outward in _OUTWARDS:
        out = np.array(outward)
        at_wall = area[area @ out >= max(0.0, float(out @ size)) - WALL_GAP - 1e-6] @ np.abs(out[::-1])
        if len(at_wall) >= 2:
            stretches.append((outward, float(at_wall.min()), float(at_wall.max())))
    return stretches


def _against_wall(rng: random.Random, tray: TrayLayout, edge: float, tilt: np.ndarray,
                  solid: Solid, walls: Sequence[Wall] | None = None) -> tuple[float, DiePose]:
    """A die leaning its top against one of the tray's walls (or of ``walls``), somewhere along it."""
    outward_, start, end = rng.choice(list(walls) if walls is not None else _walls(tray))
    outward = np.array(outward_)
    yaw = math.atan2(-outward[1], -outward[0]) + math.pi / 2  # the top leans towards the wall
    size = np.array([tray.width_mm, tray.height_mm])
    along = np.abs(outward[::-1])
    xy = size / 2 * (1 - along) + along * rng.uniform(start + 2 * edge, end - 2 * edge)
    pose = _resting(xy, _rz(yaw) @ tilt, edge, solid)
    wall = max(0.0, float(outward @ size))  # the wall's line: outward . p = wall
    gap = wall - WALL_GAP - float((_footprint(pose) @ outward).max())
    return yaw, _resting(xy + outward * gap, pose.rotation, edge, solid)


def _leaning_in(rng: random.Random, area: np.ndarray, flat: list[_Die], tray: TrayLayout, edge: float,
                tilt: np.ndarray, solid: Solid) -> tuple[DiePose, float] | None:
    """A pose (and yaw) of a cocked die of ``area`` leaning on what it finds there: a flat die of
    the area or a stretch of tray wall the area reaches, one of them at random (the caller keeps
    the footprint in the area). None when there is neither: a die thrown into an open zone with no
    die in it has nothing to cock against and settles flat, as a real one does; leaning it on a
    die of the next zone would lay it outside its own, where the table does not look for it."""
    own = [die for die in flat if _holds(area, die.pose.position)]
    walls = _walls(tray, area)
    if not own and not walls:
        return None
    pick = rng.randrange(len(own) + len(walls))
    if pick >= len(own):
        yaw, pose = _against_wall(rng, tray, edge, tilt, solid, [walls[pick - len(own)]])
        return pose, yaw
    return _beside(rng, own[pick], edge, tilt, True)  # its own size: a die thrown again keeps it


def _holds(area: np.ndarray, point: np.ndarray) -> bool:
    """True when the tray point (mm; a third coordinate is ignored) lies inside ``area``."""
    contour = area.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def _in_view(rng: random.Random, camera: Camera, spec: SceneSpec, edge_px: float, cut: bool) -> np.ndarray:
    """A tray point seen inside the frame, or on its border for a die that is cut off."""
    width, height = spec.size
    if cut:
        u = rng.choice([0.0, float(width)]) + rng.uniform(-0.3, 0.3) * edge_px
        v = rng.uniform(edge_px, height - edge_px)
        pixel = (u, v) if rng.random() < 0.5 else (v * width / height, rng.choice([0.0, float(height)]))
    else:
        margin = edge_px * 0.9
        pixel = (rng.uniform(margin, width - margin), rng.uniform(margin, height - margin))
    return np.asarray(camera.image_to_ground(np.array([pixel], np.float64))[0])


def _fits(die: _Die, placed: list[_Die], camera: Camera, spec: SceneSpec, tray: TrayLayout | None,
          cut: bool) -> bool:
    """True when the die overlaps no other die or marker and is in view as asked."""
    mine = _footprint(die.pose)
    if any(_overlap(mine, _footprint(other.pose)) > 0.05 for other in placed):
        return False
    if tray is not None and not cut and spec.positions_mm is None and not _on_free_tray(mine, tray, spec.markers):
        return False
    outline = camera.project(die.pose.world(die.pose.solid.vertices))
    inside = bool((outline.min(axis=0) >= 1).all() and (outline.max(axis=0) <= np.array(spec.size) - 1).all())
    return not inside if cut else inside


def _on_free_tray(footprint: np.ndarray, tray: TrayLayout, markers: bool) -> bool:
    """True when a footprint lies on the tray and clear of every marker's quiet zone."""
    lo, hi = footprint.min(axis=0), footprint.max(axis=0)
    if lo.min() < 1 or hi[0] > tray.width_mm - 1 or hi[1] > tray.height_mm - 1:
        return False
    if not markers:
        return True
    pad = tray.marker_mm / 6 + 2
    for marker_id in CORNER_IDS:
        x, y = tray.marker_origin_mm(marker_id)
        zone = np.array([[x - pad, y - pad], [x + tray.marker_mm + pad, y - pad],
                         [x + tray.marker_mm + pad, y + tray.marker_mm + pad], [x - pad, y + tray.marker_mm + pad]],
                        np.float32)
        if _overlap(footprint, zone) > 0:
            return False
    return True


@dataclass(frozen=True, eq=False)
class _Path:
    offset: np.ndarray
    axis: np.ndarray
    spin: float
    hops: float


def _tumble(rng: random.Random, die: _Die) -> _Path:
    """How a die arrives at its resting pose: from where, spinning about what, hopping how often."""
    angle = rng.uniform(0, 2 * math.pi)
    offset = np.array([math.cos(angle), math.sin(angle)]) * die.pose.edge_mm * rng.uniform(3, 7)
    axis = np.array([rng.gauss(0, 1) for _ in range(3)])
    return _Path(offset, axis / np.linalg.norm(axis), rng.uniform(6, 12), rng.uniform(1.5, 3.5))


def _moved(die: _Die, path: _Path, left: float) -> _Die:
    """The die part way along its path; ``left`` runs from 1 (thrown) to 0 (at rest)."""
    if left <= 0:
        return die
    ease = left * (0.5 + 0.5 * left)
    rotation = die.pose.rotation @ cv2.Rodrigues(path.axis * path.spin * ease)[0]
    lift = die.pose.edge_mm * 0.6 * abs(math.sin(left * math.pi * path.hops)) * left
    pose = _resting(die.pose.position[:2] + path.offset * ease, rotation, die.pose.edge_mm, die.pose.solid, lift)
    return replace(die, pose=pose)
