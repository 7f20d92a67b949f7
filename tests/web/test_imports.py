"""What importing the web loads: the table's narrow interface, never the command line."""

from tests.imports import ROOT, loaded_by

WEB_MODULES = sorted(f"web.{path.stem}" for path in (ROOT / "web").glob("*.py") if path.stem != "__init__")


def test_the_web_imports_nothing_of_the_command_line() -> None:
    # web.security imported controller.commands.common for its whole-file writer, so the
    # scoreboard depended on the commands (argparse types, progress lines, signal handling)
    loaded = loaded_by("import " + ", ".join(["web", *WEB_MODULES]))
    assert "web.security" in loaded
    assert not {name for name in loaded if name.startswith("controller.commands")}
