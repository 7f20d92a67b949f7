"""The command line's frame: help, unknown commands, clean errors."""

import subprocess
import sys

from controller.cli import main


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
