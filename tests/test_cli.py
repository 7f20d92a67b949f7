"""The command line's frame: help, unknown commands, clean errors."""

import io
import signal
import subprocess
import sys

import pytest

from controller.cli import main
from controller.commands import rank


def test_help_lists_commands(capsys):
    try:
        main(["--help"])
    except SystemExit as stop:
        assert stop.code == 0
    out = capsys.readouterr().out
    assert "dicetable" in out and "commands" in out


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "usage" in capsys.readouterr().out


def test_packages_import_without_pi_hardware():
    code = "import controller, vision, web, hardware, controller.cli"
    subprocess.run([sys.executable, "-c", code], check=True)


class SecondCtrlC(io.StringIO):
    """stderr, where a second Ctrl-C arrives as the first one's line is written."""

    def write(self, text):
        if not self.getvalue():
            signal.raise_signal(signal.SIGINT)
        return super().write(text)


def test_a_second_ctrl_c_while_the_first_is_told_stops_with_one_line(monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(rank, "run", interrupted)
    monkeypatch.setattr(sys, "stderr", SecondCtrlC())
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own, whatever ran pytest
    try:
        status = main(["rank", "--game", "tauren", "WWW55C2"])
    except KeyboardInterrupt:
        pytest.fail("the second Ctrl-C escaped main (a traceback)")
    finally:
        signal.signal(signal.SIGINT, before)
    assert status == 130 and sys.stderr.getvalue() == "dicetable: interrupted\n"


@pytest.mark.parametrize("args, whose", [
    (["demo", "--bogus"], "dicetable demo"),
    (["stones", "list", "--registry", "x.db"], "dicetable stones list"),
    (["vision", "read", "photo.jpg", "--bogus"], "dicetable vision read"),
    (["--bogus", "demo"], "dicetable"),
])
def test_an_unknown_option_is_refused_by_the_command_whose_help_lists_the_options(capsys, args, whose):
    # it was always "dicetable: unrecognized arguments: ... (see dicetable --help)", a help that
    # lists no command's options
    with pytest.raises(SystemExit) as stop:
        main(args)
    unknown = " ".join(a for a in args if a.startswith("--") or a == "x.db")
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"{whose}: unrecognized arguments: {unknown} (see {whose} --help)\n"
