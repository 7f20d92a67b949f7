"""Figures of the table (not a test): the whole path from camera frame to durable record.

    .venv/bin/python bench/table.py [--hands 6] [--kills 1000] [--game tao] [--camera-games N] [--players P]
                                    [--first-seed S] [--camera-game G ...]

Prints:
- with ``--camera-games N``, for each game (or each ``--camera-game G`` named): N whole demo games (``--players``, default 4 as the
  demo's; seeds S..S+N-1, ``--first-seed`` S default 1), the rolls the camera read whole and those
  the dealer entered, by what the question said, each printed with its seed (issue 18, acceptance
  6: every die read by camera, no dealer entries), the
  questions about a die lying cocked that the players settled themselves (thrown again, or laid
  flat, as the table said), those about a die the camera doubted or did not find that they moved
  (the same face up), and the throws in which a die landed cocked
  (``controller.table.build.COCKED_THROWS``); the simulated camera draws the dice lying in every
  zone (a hand revealed before, the community dice at a reveal, Tao Dice's d12s in the centre while
  the hands are revealed), as a real tray shows them;
- inputs per second through the whole simulated table (bots pressing buttons and laying stones,
  camera frames rendered and read, every input durable in SQLite before it is shown), and the
  camera-read inputs among them;
- the 95th percentile (and median, slowest) from the settled frame to the acknowledged input,
  for every roll the camera read;
- the time from a start after SIGKILL to the resumed game (its first new record), median and
  95th percentile, over ``--kills`` kills at random moments, and whether the killed series ended
  exactly as an uninterrupted run with no acknowledged input lost.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the crash harness lives with the tests

from controller.games.base import DiceNeeded  # noqa: E402
from controller.store import Record  # noqa: E402
from controller.table.camera import MOVE_APART, MOVE_IT, zone_for  # noqa: E402
from controller.table.build import build_demo  # noqa: E402
from controller.table.demo import Demo, play_out  # noqa: E402
from controller.table.ledger import Ledger  # noqa: E402
from controller.table.records import Ack, DieSeen, Entry  # noqa: E402
from controller.table.table import Sighting  # noqa: E402
from tests.table.crashes import kill_until_done, outcome, run_once  # noqa: E402
from vision.render import DieTruth  # noqa: E402

Sight = tuple[tuple[DieTruth, ...], tuple[DieSeen, ...]]
"""The dice of a throw: the renderer's truth and the dice the camera read (:func:`_watched`)."""


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def whole_path(game: str, hands: int, folder: Path) -> None:
    """Play ``hands`` hands at full speed and time every camera-read input."""
    demo: Demo = build_demo(game, 3, 7, folder / "path.db", None, ["heuristic"])[0]
    table, eyes = demo.table, demo.table.eyes
    assert eyes is not None
    latencies: list[float] = []
    started: list[float] = []
    look, submit = eyes.look, table.submit

    def timed_look(need: DiceNeeded | None) -> Sighting | None:
        begun = time.perf_counter()
        sight = look(need)
        if sight is not None and sight.roll is not None:
            started.append(begun)  # the frame on which the tray was found settled
        return sight

    def timed_submit(entry: Entry, **kwargs: Any) -> Ack:
        ack = submit(entry, **kwargs)
        if entry.origin == "camera" and started:
            latencies.append(time.perf_counter() - started.pop())
        return ack

    # timed in place: the table calls its own eyes and submit (mypy still checks each wrapper
    # against the method it stands in for; only the assigning itself is let through)
    eyes.look = timed_look  # type: ignore[method-assign]
    table.submit = timed_submit  # type: ignore[method-assign]
    begin = time.perf_counter()
    play_out(demo, hands)
    seconds = time.perf_counter() - begin
    records = table.store.records(table.game_no)
    inputs = [r for r in records if r.kind in ("input", "answer")]
    camera = [r for r in inputs if r.origin == "camera"]
    demo.close()
    print(f"whole path ({game}, 3 players, {hands} hands, --speed max): {len(inputs)} inputs in "
          f"{seconds:.1f} s = {len(inputs) / seconds:.1f} inputs/s ({len(camera)} read by the "
          f"camera, {len(camera) / seconds:.2f}/s)")
    if latencies:
        print(f"settled frame -> acknowledged input ({len(latencies)} camera rolls): median "
              f"{statistics.median(latencies) * 1000:.0f} ms, 95th percentile "
              f"{percentile(latencies, 0.95) * 1000:.0f} ms, slowest {max(latencies) * 1000:.0f} ms")


def camera_games(count: int, folder: Path, players: int = 4, first_seed: int = 1,
                 games: list[str] | None = None) -> None:
    """Play ``count`` demo games of each of ``games`` (default: every game) with ``players`` bots
    (seeds from ``first_seed``); print how many camera rolls went to the dealer, and each such
    roll's question with its seed."""
    from controller.table import build
    from controller.table.sim_seats import AGAIN, MISREAD, MOVED

    cocked_keys: dict[str, DiceNeeded] = {}  # the render key of each throw with a cocked die: its need
    thrown_keys: set[str] = set()
    cocked_dice = build.cocked_dice

    def counted(key: str, need: DiceNeeded) -> int:
        cocked = cocked_dice(key, need)
        thrown_keys.add(key)
        if cocked:
            cocked_keys[key] = need
        return cocked

    build.cocked_dice = counted
    for game, options in chosen(games):
        taken, entered, settled, moved, misread, why = 0, 0, 0, 0, 0, Counter[str]()
        cocked, cocked_taken, flat = 0, 0, 0
        for seed in range(first_seed, first_seed + count):
            cocked_keys.clear()
            thrown_keys.clear()
            demo: Demo = build_demo(game, players, seed, folder / f"{game}-{seed}.db", None, ["heuristic"], options)[0]
            sights, lying = _watched(demo)
            play_out(demo, None)
            records = demo.table.store.records(demo.table.game_no)
            flat_keys = [key for key in cocked_keys if not _landed_cocked(key, lying)]
            flat += len(flat_keys)
            for key in flat_keys:
                del cocked_keys[key]
            taken_keys = [key for key in cocked_keys if not {key + AGAIN, key + MOVED} & thrown_keys  # taken from this throw
                          and _taken_by_camera(demo.table.ledger, key)]
            for key in taken_keys:
                print(f"  {game} seed {seed}: {_cocked_taken(demo.table.ledger, key, cocked_keys[key], sights.get(key))}",
                      flush=True)
            cocked_taken += len(taken_keys)
            cocked += len(cocked_keys)
            demo.close()
            taken += sum(r.origin == "camera" and r.kind == "input" and r.line.startswith("roll") for r in records)
            answered = _answered(records)
            entered += len(answered)
            for line in answered:
                print(f"  {game} seed {seed}: the dealer entered {line}", flush=True)
            why.update(_said(line) for line in answered)
            settled += _asked(records, answered, COCKED_SAID)
            moved += _asked(records, answered, MOVE_IT) + _asked(records, answered, MOVE_APART)
            misread += sum(r.why == MISREAD for r in records)
        reasons = ", ".join(f"{n} {what}" for what, n in why.most_common())
        print(f"{game}: {count} games of {players} players, {taken + entered} rolls seen by the camera: {taken} read whole, "
              f"{entered} entered by the dealer ({100 * entered / max(taken + entered, 1):.1f}%)"
              f"{': ' + reasons if entered else ''}; questions of a die lying cocked that the players settled "
              f"(thrown again or laid flat): {settled}; questions of a die the camera doubted or did not "
              f"find that the players moved (the same face up): {moved}; misread but taken (the simulated dealer corrected them): "
              f"{misread}; throws with a cocked die (build.COCKED_THROWS): {cocked}, taken by the camera with a "
              f"value for it: {cocked_taken} (and {flat} asked to land cocked that lay flat, with nothing in "
              f"their zone to lean on)", flush=True)
    build.cocked_dice = cocked_dice


def chosen(games: list[str] | None) -> list[tuple[str, dict[str, str]]]:
    """The camera games to play, each with its options (``tests/table/test_every_die.GAMES``):
    those named in ``games`` (default: all), in name order, each once."""
    from tests.table.test_every_die import GAMES

    return [(game, options) for game, (options, _) in sorted(GAMES.items()) if games is None or game in games]


def _check_players(parser: argparse.ArgumentParser, players: int, games: list[str] | None) -> None:
    """Refuse, before any game is played, a count of players one of the chosen games cannot seat."""
    from controller.games.errors import DiceTableError
    from controller.games.registry import create_game

    for game, options in chosen(games):
        try:
            create_game(game, players, dict(options))
        except DiceTableError as err:
            parser.error(f"--players {players}: {err}")


def _taken_by_camera(ledger: Ledger | None, key: str) -> bool:
    """Whether the roll the throw rendered from ``key`` answers (``seed/game/index/render``: the
    ledger's ``index``-th input) was taken from the camera, not answered by the dealer."""
    assert ledger is not None  # the game was played
    index = int(key.split("/")[2])
    return index < len(ledger.played) and ledger.played[index].origin == "camera"


def _watched(demo: Demo) -> tuple[dict[str, Sight], dict[str, tuple[DieTruth, ...]]]:
    """Filled as ``demo`` plays, by the throw's render key: the dice of every throw the camera took
    a roll from, the renderer's truth (``vision.render.DieTruth``: which die lies cocked) and the
    dice the camera read, by which :func:`_cocked_taken` names what it read for a cocked die; and
    the renderer's truth of every throw the camera looked at (:func:`_landed_cocked`)."""
    eyes, camera = demo.table.eyes, demo.parts.devices.camera
    assert eyes is not None
    sights: dict[str, Sight] = {}
    lying: dict[str, tuple[DieTruth, ...]] = {}
    look = eyes.look

    def watched_look(need: DiceNeeded | None) -> Sighting | None:
        sight = look(need)
        if camera.scene is not None:
            lying[str(camera.last_key())] = camera.scene.dice  # not the frames: a game has many
        if sight is not None and sight.roll is not None:
            sights[str(camera.last_key())] = (camera.scene.dice, sight.seen)
        return sight

    eyes.look = watched_look  # type: ignore[method-assign]  # watched in place: the table calls its own eyes
    return sights, lying


def _landed_cocked(key: str, lying: dict[str, tuple[DieTruth, ...]]) -> bool:
    """Whether the throw ``key``, asked to land a die cocked (``build.COCKED_THROWS``), did: a die
    thrown alone into a zone with nothing to lean on lies flat (``vision.render._leaning_in``). A
    throw the camera never looked at counts as cocked."""
    return key not in lying or any(die.cocked for die in lying[key])


def _cocked_taken(ledger: Ledger | None, key: str, need: DiceNeeded, sight: Sight | None) -> str:
    """One line naming a throw with a cocked die that the camera took with a value: the hand, the
    need (its zone), the cocked die (where the renderer put it) and what the camera read there, so
    the throw can be replayed (``build_demo`` with the seed; the throw's render key is given)."""
    assert ledger is not None  # the game was played
    played = ledger.played[int(key.split("/")[2])]
    said = (f"a cocked die taken with a value: hand {played.hand}, need {need.count} {need.kind.value} "
            f"in {zone_for(need.seat)}, taken as {played.input}, render key {key}")
    if sight is None:
        return said + "; the camera's sighting was not seen"
    truths, seen = sight
    return said + "; " + "; ".join(_die_taken(truth, seen) for truth in truths if truth.cocked)


def _die_taken(truth: DieTruth, seen: tuple[DieSeen, ...]) -> str:
    """The cocked die ``truth`` (a ``vision.render.DieTruth``) and the die the camera read nearest
    its top face's centre (a ``controller.table.records.DieSeen``), in a few words."""
    x, y = truth.center
    where = f"die at ({x:.0f}, {y:.0f}) px"
    if truth.tray_mm is not None:
        where += f", tray ({truth.tray_mm[0]:.0f}, {truth.tray_mm[1]:.0f}) mm"
    where += f", {truth.visible:.0%} of its top in view"
    if not seen:
        return where + ": not read"
    die = min(seen, key=lambda d: (d.center[0] - x) ** 2 + (d.center[1] - y) ** 2)
    flag = f" (flag {die.flag})" if die.flag else ""
    return f"{where}: read {die.face} at {die.confidence:.2f} in {die.zone}{flag}"


COCKED_SAID = "lies cocked"
"""How a question about a die lying cocked says it (``controller.table.camera._cocked``)."""


def _asked(records: list[Record], answered: list[str], said: str) -> int:
    """The camera's questions saying ``said`` that the players settled (not ``answered``)."""
    return sum(r.kind == "question" and said in r.line for r in records) - sum(said in line for line in answered)


def _answered(records: list[Record]) -> list[str]:
    """The camera's questions that the dealer answered (each answer follows its question)."""
    answered, open_question = [], None
    for record in records:
        if record.kind == "question" and record.origin == "camera":
            open_question = record.line
        elif record.kind == "answer" and open_question is not None:
            answered.append(open_question)
            open_question = None
        elif record.kind == "input":
            open_question = None
    return answered


def _said(question: str) -> str:
    """What a camera question says of its die, in a few words."""
    if question.endswith(" confidence: " + MOVE_IT):
        return "read below the threshold"
    if COCKED_SAID in question:
        return "flagged cocked"
    found = re.search(r"cannot be read \(([^)]*)\)", question)
    return f"flagged {found.group(1)}" if found else question.split(": ", 1)[-1]


def kills(game: str, count: int, folder: Path) -> None:
    """Kill a demo ``count`` times (in as many series as it takes) and compare with a calm run."""
    args = ["--game", game, "--players", "2", "--seed", "11", "--hands", "3"]
    run_once(folder / "calm.db", args, None)
    calm = outcome(folder / "calm.db")[:2]
    rng = random.Random(1000)
    total, series, resumes, lost, differ = 0, 0, [], 0, 0
    begin = time.perf_counter()
    while total < count:
        series += 1
        db = folder / f"killed-{series}.db"
        run = kill_until_done(db, args, count - total, rng, most_delay=0.12)
        inputs, final, recorded = outcome(db)
        lost += len(run.printed - recorded)
        differ += (inputs, final) != calm
        resumes += run.resume_s
        total += run.kills
        print(f"  {total} kills, {series} series, {time.perf_counter() - begin:.0f} s", flush=True)
    print(f"kills: {total} SIGKILLs in {series} series; acknowledged inputs lost: {lost}; series "
          f"ending otherwise than the uninterrupted run: {differ}")
    if resumes:
        print(f"start after a kill -> resumed game (its first new record): median "
              f"{statistics.median(resumes):.2f} s, 95th percentile {percentile(resumes, 0.95):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tao")
    parser.add_argument("--hands", type=int, default=6, help="hands of the timed whole path (0: none)")
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--camera-games", type=int, default=0, metavar="N",
                        help="also play N demo games of each game and count the camera's dealer questions")
    parser.add_argument("--players", type=int, default=4, metavar="P",
                        help="bots in each of those games (default 4, as dicetable demo)")
    parser.add_argument("--first-seed", type=int, default=1, metavar="S",
                        help="those games' first seed (default 1: seeds 1..N)")
    parser.add_argument("--camera-game", action="append", metavar="G", choices=[g for g, _ in chosen(None)],
                        help="play those games of this game only (again for more; default: every game)")
    args = parser.parse_args()
    if args.camera_games:
        _check_players(parser, args.players, args.camera_game)
    with tempfile.TemporaryDirectory() as folder:
        if args.camera_games:
            camera_games(args.camera_games, Path(folder), args.players, args.first_seed, args.camera_game)
        if args.hands:
            whole_path(args.game, args.hands, Path(folder))
        if args.kills:
            kills(args.game, args.kills, Path(folder))


if __name__ == "__main__":
    main()
