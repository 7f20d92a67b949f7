"""How a file's path is named to a person, in the commands' refusals and in the hardware's.

Stdlib only and outside :mod:`controller.games` (which stays pure), so that ``hardware`` can
import it as it imports the exception tree, and the commands too (``controller.commands.common``).
"""

from __future__ import annotations

import os
from pathlib import Path


def shown(path: str | Path, quoted: bool = True) -> str:
    r"""``path`` quoted as a person can read it, even when its name is not UTF-8 (bytes as ``\xff``);
    unquoted where it stands inside a quoted command or starts a line of output.

    >>> print(shown(Path(os.fsdecode(b"photos/d\xffe.jpg"))))
    'photos/d\xffe.jpg'
    >>> print(shown(Path(os.fsdecode(b"photos/d\xffe.jpg")), quoted=False))
    photos/d\xffe.jpg
    """
    text = os.fsencode(path).decode("utf-8", "backslashreplace")
    return f"'{text}'" if quoted else text
