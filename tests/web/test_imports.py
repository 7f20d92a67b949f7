"""What importing the web loads: the table's narrow interface, never the command line."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB_MODULES = sorted(f"web.{path.stem}" for path in (ROOT / "web").glob("*.py") if path.stem != "__init__")


def _loaded_by(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after ``statement``."""
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return set(json.loads(done.stdout))


def test_the_web_imports_nothing_of_the_command_line() -> None:
    # web.security imported controller.commands.common for its whole-file writer, so the
    # scoreboard depended on the commands (argparse types, progress lines, signal handling)
    loaded = _loaded_by("import " + ", ".join(["web", *WEB_MODULES]))
    assert "web.security" in loaded
    assert not {name for name in loaded if name.startswith("controller.commands")}
