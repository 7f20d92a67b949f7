"""``dicetable stones``: enrolling tags placed on a (simulated) reader, listing the registry."""

import json

import pytest

from controller.cli import main
from hardware.rfid import StoneRegistry, StoneColour, TagKind, TagRecord, UnknownTag, normalise_tag
from controller.games.errors import InvalidInput


pytestmark = pytest.mark.usefixtures("simulated_hardware")


def test_enroll_registers_each_placed_tag(capsys, tmp_path):
    db = tmp_path / "stones.db"
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "white", "--db", str(db),
                 "--sim-tags", "DEADBEEF,04A1B2C3D4E5F6"]) == 0
    registry = StoneRegistry(db)
    assert registry.lookup("DEADBEEF").colour is StoneColour.WHITE
    assert registry.lookup("04A1B2C3D4E5F6").kind is TagKind.STONE


def test_enroll_prints_one_json_object_per_tag(capsys, tmp_path):
    main(["stones", "enroll", "--kind", "chip", "--denomination", "25", "--owner", "ana",
          "--db", str(tmp_path / "s.db"), "--sim-tags", "DEADBEEF", "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [{"tag": "DEADBEEF", "kind": "chip", "colour": None, "denomination": 25,
                      "owner": "ana"}]


def test_enroll_on_another_spot(capsys, tmp_path):
    db = tmp_path / "s.db"
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "black", "--spot", "seat2",
                 "--db", str(db), "--sim-tags", "DEADBEEF"]) == 0
    assert StoneRegistry(db).get("DEADBEEF") is not None


def test_enroll_without_tags_times_out_with_a_clear_error(capsys, tmp_path):
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "black", "--count", "1",
                 "--timeout", "2", "--db", str(tmp_path / "s.db")]) == 2
    assert "only 0 of 1 tags enrolled" in capsys.readouterr().err


def test_stone_needs_a_colour(capsys, tmp_path):
    assert main(["stones", "enroll", "--kind", "stone", "--db", str(tmp_path / "s.db")]) == 2
    assert "--colour" in capsys.readouterr().err


def test_unknown_spot_lists_the_spots(capsys, tmp_path):
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "black", "--spot", "moon",
                 "--db", str(tmp_path / "s.db"), "--sim-tags", "DEADBEEF"]) == 2
    assert "seat0" in capsys.readouterr().err


def test_sim_tags_need_the_simulated_backend(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("DICETABLE_HW", "pi")
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "black",
                 "--db", str(tmp_path / "s.db"), "--sim-tags", "DEADBEEF"]) == 2


def test_list_prints_registered_tags(capsys, tmp_path):
    db = tmp_path / "s.db"
    registry = StoneRegistry(db)
    registry.enroll(TagRecord("DEADBEEF", TagKind.CHIP, denomination=5))
    registry.enroll(TagRecord("0BADC0DE", TagKind.STONE, StoneColour.BLACK, owner="bo"))
    registry.close()
    assert main(["stones", "list", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["0BADC0DE       black stone (bo)", "DEADBEEF       5 chip"]


def test_registry_survives_reopening(tmp_path):
    db = tmp_path / "s.db"
    StoneRegistry(db).enroll(TagRecord("DEADBEEF", TagKind.STONE, StoneColour.WHITE))
    assert StoneRegistry(db).all() == [TagRecord("DEADBEEF", TagKind.STONE, StoneColour.WHITE)]


def test_lookup_of_unknown_tag_says_how_to_enrol(tmp_path):
    with pytest.raises(UnknownTag, match="stones enroll"):
        StoneRegistry(tmp_path / "s.db").lookup("DEADBEEF")


def test_chip_needs_a_positive_denomination():
    with pytest.raises(InvalidInput):
        TagRecord("DEADBEEF", TagKind.CHIP, denomination=0)


def test_tag_ids_are_normalised():
    assert normalise_tag("de:ad:be:ef") == "DEADBEEF"


def test_malformed_tag_id_is_refused():
    with pytest.raises(InvalidInput, match="not a tag id"):
        normalise_tag("XYZ")


def _enrol_white(db, *extra):
    return main(["stones", "enroll", "--kind", "stone", "--colour", "white", "--owner", "ana",
                 "--db", str(db), "--sim-tags", "DEADBEEF", *extra])


def test_re_enrolling_a_tag_as_something_else_is_refused_and_changes_nothing(capsys, tmp_path):
    db = tmp_path / "s.db"
    assert _enrol_white(db) == 0
    assert main(["stones", "enroll", "--kind", "chip", "--denomination", "5", "--db", str(db),
                 "--sim-tags", "DEADBEEF"]) == 2
    err = capsys.readouterr().err
    assert "already enrolled as white stone (ana), not 5 chip: add --replace" in err
    assert StoneRegistry(db).lookup("DEADBEEF").colour is StoneColour.WHITE


def test_replace_changes_an_enrolled_tag(capsys, tmp_path):
    db = tmp_path / "s.db"
    assert _enrol_white(db) == 0
    assert main(["stones", "enroll", "--kind", "chip", "--denomination", "5", "--db", str(db),
                 "--sim-tags", "DEADBEEF", "--replace"]) == 0
    assert StoneRegistry(db).lookup("DEADBEEF").denomination == 5


def test_re_enrolling_a_tag_as_the_same_thing_is_no_change(capsys, tmp_path):
    db = tmp_path / "s.db"
    assert _enrol_white(db) == 0 and _enrol_white(db) == 0
    assert StoneRegistry(db).enroll(TagRecord("DEADBEEF", TagKind.STONE, StoneColour.WHITE,
                                              owner="ana")) is False


def test_enroll_until_the_timeout_with_no_tag_is_an_error_not_a_silent_success(capsys, tmp_path):
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "black", "--timeout", "2",
                 "--db", str(tmp_path / "s.db")]) == 2
    assert "no tag arrived on spot 'seat0' in 2 s" in capsys.readouterr().err


def test_list_never_creates_a_registry(capsys, tmp_path):
    assert main(["stones", "list", "--db", str(tmp_path / "s.db")]) == 2
    assert "no stone registry" in capsys.readouterr().err
    assert not (tmp_path / "s.db").exists()


def seat_node_table(tmp_path, monkeypatch, unplugged):
    """A simulated table whose stones are read by seat nodes: seat 0's under spot 'pot', seat
    5's under 'seat5'; the node of each seat of ``unplugged`` is unplugged throughout."""
    from controller.commands import stones
    from hardware.factory import build_devices

    def unplugging(config):
        devices = build_devices(config)
        for seat in unplugged:
            node = devices.sim.nodes[seat]
            node.unplug()
            monkeypatch.setattr(node, "plug", lambda: None)  # the simulated table plugs it back
        return devices

    monkeypatch.setattr(stones, "build_devices", unplugging)
    config = tmp_path / "table.toml"
    config.write_text('[rfid]\nsource = "seatnode"\n'
                      '[[seatnodes]]\nseat = 0\nurl = "sim://node0"\nspot = "pot"\n'
                      '[[seatnodes]]\nseat = 5\nurl = "sim://node5"\nspot = "seat5"\n')
    return str(config)


def test_enroll_on_a_spot_whose_node_answers_while_another_spots_node_is_unplugged(
        capsys, monkeypatch, tmp_path):
    # the reader waited for every node: seat 5's, unplugged, stopped the enrolment at 'pot'
    db = tmp_path / "s.db"
    config = seat_node_table(tmp_path, monkeypatch, unplugged=[5])
    assert main(["stones", "enroll", "--config", config, "--kind", "stone", "--colour", "white",
                 "--spot", "pot", "--db", str(db), "--sim-tags", "DEADBEEF,04A1B2C3D4E5F6,CAFEF00D,0BADC0DE"]) == 0
    assert "4 tags enrolled" in capsys.readouterr().err  # the last two after the node's 1.5 s
    assert StoneRegistry(db).get("0BADC0DE") is not None


def test_enroll_on_a_spot_whose_node_is_unplugged_says_so_at_once(capsys, monkeypatch, tmp_path):
    db = tmp_path / "s.db"
    config = seat_node_table(tmp_path, monkeypatch, unplugged=[0])
    assert main(["stones", "enroll", "--config", config, "--kind", "stone", "--colour", "white",
                 "--spot", "pot", "--db", str(db), "--sim-tags", "DEADBEEF"]) == 2
    err = capsys.readouterr().err
    assert "the node of spot 'pot' has never answered: seat node on sim://node0 not found" in err
    assert "then enrol again" in err and "goes on by itself" not in err  # enrolment stops
    assert "Traceback" not in err and not db.exists()


def test_tags_enrolled_before_the_spots_node_went_away_are_kept(capsys, monkeypatch, tmp_path):
    # the registry the command made was removed when the node went away mid-enrolment: the count
    # of tags enrolled was never returned, so it was taken for an enrolment of none
    from controller.commands import stones
    from hardware.factory import build_devices

    def away_after_a_tag(config):
        devices = build_devices(config)
        poll = devices.rfid.poll

        def polled():
            events = poll()
            if events:  # the first tag is in: seat 0's node is unplugged for good
                node = devices.sim.nodes[0]
                node.unplug()
                monkeypatch.setattr(node, "plug", lambda: None)
            return events

        monkeypatch.setattr(devices.rfid, "poll", polled)
        return devices

    db = tmp_path / "s.db"
    config = seat_node_table(tmp_path, monkeypatch, unplugged=[])
    monkeypatch.setattr(stones, "build_devices", away_after_a_tag)
    assert main(["stones", "enroll", "--config", config, "--kind", "stone", "--colour", "white",
                 "--spot", "pot", "--db", str(db), "--sim-tags", "DEADBEEF,CAFEF00D"]) == 2
    err = capsys.readouterr().err
    assert "the node of spot 'pot' on sim://node0 is unplugged" in err and "then enrol again" in err
    assert StoneRegistry(db).get("DEADBEEF") is not None


def test_enroll_on_a_seats_spot_while_another_seats_rc522_fails(capsys, monkeypatch, tmp_path):
    # the RC522s on the Pi's SPI bus were waited for, every one: seat 3's, stuck, stopped the
    # enrolment at seat 0 (as an unplugged node of another spot did, 057dd7f)
    from hardware.config import ENV_FAULTS
    db = tmp_path / "s.db"
    monkeypatch.setenv(ENV_FAULTS, "rfid[seat3]:timeout")
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "white", "--spot", "seat0",
                 "--db", str(db), "--sim-tags", "DEADBEEF,CAFEF00D"]) == 0
    assert "2 tags enrolled" in capsys.readouterr().err
    monkeypatch.setenv(ENV_FAULTS, "rfid[seat0]:timeout")  # the spot's own reader stops it, in one line
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "white", "--spot", "seat0",
                 "--db", str(db), "--sim-tags", "0BADC0DE"]) == 2
    err = capsys.readouterr().err
    assert "reader under 'seat0' timed out" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 2 and err.startswith("place tags on spot 'seat0'")


def test_enroll_on_real_devices_warns_once_that_simulated_faults_are_ignored(capsys, tmp_path, monkeypatch):
    # the configuration is read once: a second reading said the warning twice
    (tmp_path / "table.toml").write_text('[hardware]\nbackend = "pi"\nfaults = ["camera:drops"]\n'
                                         '[camera]\nsource = "folder"\nfolder = "."\n'
                                         '[panel]\nsource = "none"\n[rfid]\nsource = "none"\n')
    monkeypatch.delenv("DICETABLE_HW")
    assert main(["stones", "enroll", "--config", "table.toml", "--kind", "stone",
                 "--colour", "black"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "warning: simulated faults are ignored on real hardware (backend pi): camera:drops; remove "
        "them from [hardware] faults and $DICETABLE_SIM_FAULTS, or rehearse them with DICETABLE_HW=sim",
        "dicetable: the configuration has no RFID reader to enrol on ([rfid] source = \"none\")"]


def test_the_registry_check_tries_the_folder_and_leaves_nothing_behind(tmp_path):
    # os.access said root may write in /sys: the check passed, and the registry was refused only
    # as it opened, after run had made its state folder and enroll had opened the devices
    from pathlib import Path

    from hardware.rfid import registry_problem
    assert registry_problem(tmp_path / "stones.db") is None
    assert list(tmp_path.iterdir()) == []  # the file it made to try the folder is gone
    if Path("/sys").is_dir():
        assert registry_problem(Path("/sys/stones.db")).startswith(
            "cannot make '/sys/stones.db': its folder takes no new file (")


def test_enroll_refuses_an_empty_registry_file_saying_how_to_start_a_new_one(capsys, tmp_path):
    # the refusal lost its hint: "or remove it to start a new registry there"
    empty = tmp_path / "stones.db"
    empty.write_bytes(b"")
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "black", "--db", str(empty),
                 "--sim-tags", "DEADBEEF"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"dicetable: {str(empty)!r} is an empty file, not a stone registry (remove it to "
                   "start a new registry there); give the registry's file with --db"]
    assert empty.read_bytes() == b""


def test_enroll_into_a_registry_whose_folder_this_user_cannot_write_is_refused_before_a_tag_is_placed(
        capsys, tmp_path, monkeypatch):
    # SQLite writes its journal beside the registry: the first tag placed was refused ("attempt
    # to write a readonly database"); root writes through permission bits, so os.access is told
    # what it says to the table's user
    import os
    from pathlib import Path

    db = tmp_path / "stones.db"
    StoneRegistry(db).close()
    before = db.read_bytes()
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: access(path, mode, **kw)
                        and Path(path) != tmp_path.resolve())
    assert main(["stones", "enroll", "--kind", "stone", "--colour", "white", "--db", str(db),
                 "--sim-tags", "DEADBEEF"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"dicetable: the stone registry's folder '{tmp_path.resolve()}' is not writable by this user: "
                   f"`dicetable stones enroll` cannot add a tag to '{db}' (SQLite writes its journal beside it); "
                   "give the registry's file with --db"]
    assert db.read_bytes() == before
