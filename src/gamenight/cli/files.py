"""Files named on the command line, with errors that name the file and the problem."""

from __future__ import annotations

import os
from pathlib import Path

from gamenight.core.errors import GamenightError, NotationError


def read_text(path: Path, error: type[GamenightError] = NotationError) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise error(f"cannot read {path}: not UTF-8 text (byte {exc.start})") from exc


def check_writable(path: Path) -> None:
    """Refuse now a file that could not be written later, when a game or a run whose
    results it should keep is over. Creates nothing."""
    folder = path.parent
    if path.is_dir():
        problem = "it is a folder"
    elif not folder.is_dir():
        problem = f"there is no folder {folder}"
    elif not os.access(path if path.exists() else folder, os.W_OK):
        problem = "permission denied"
    else:
        return
    raise NotationError(f"cannot write {path}: {problem}")
