"""Output files of the terminal commands: checked before the work starts, kept if a write fails.

Every file option (``play --record``, ``analyse --json/--plot``, ``arena --db/--plot/--json``,
``dataset --out``) goes through :func:`check` before the game or the run begins: a folder,
a missing folder, a read-only file, a file of the wrong kind or an extension the output
cannot have is refused then, in one line, so that no work is lost.  A write that fails
anyway (a full disk, ``/dev/full``) goes through :func:`save`, which writes the result to a
fallback file in the temporary folder instead, names it in one line, and reports the
failure (exit status 1).
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tikki.i18n import _, either

SUFFIXES: dict[str, tuple[str, ...]] = {
    "json": (".json",),
    "plot": (".png", ".svg", ".pdf"),
    "sqlite": (".sqlite", ".sqlite3", ".db"),
    "npz": (".npz",),
    "parquet": (".parquet",),
}
"""The extensions each kind of output file may have (the first is the default)."""
SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""


class OutputError(ValueError):
    """An output path that cannot be used (the message says why and what would do)."""


@dataclass(frozen=True)
class Output:
    """A checked output file: the option that named it, the path to write and its kind."""

    option: str
    path: Path
    kind: str


def check(option: str, path: Path, kind: str) -> Output:
    """``path`` checked as the output of ``option`` (``kind``: json, plot, sqlite, npz or
    parquet).

    A chart without an extension gets ``.png`` (the path reported is the one written).
    Devices such as ``/dev/stdout`` are taken as they are. Raise :class:`OutputError`.
    """
    if kind == "plot" and not path.suffix and not path.exists():
        path = path.with_name(path.name + SUFFIXES["plot"][0])
    if path.is_dir():
        raise OutputError(
            _(
                "{option} {path} is a folder: give a file name, e.g. {example}",
                option=option,
                path=path,
                example=path / f"out{SUFFIXES[kind][0]}",
            )
        )
    if path.exists() and not path.is_file():
        if kind == "sqlite":
            raise OutputError(
                _("{option} {path} is not a file: give an SQLite file", option=option, path=path)
            )
        return Output(option, path, kind)
    _check_suffix(option, path, kind)
    _check_folder(option, path)
    if path.exists():
        _check_file(option, path, kind)
    return Output(option, path, kind)


def _check_suffix(option: str, path: Path, kind: str) -> None:
    allowed = SUFFIXES[kind]
    if path.suffix.lower() not in allowed:
        raise OutputError(
            _(
                "{option} {path}: the file name must end in {suffixes}",
                option=option,
                path=path,
                suffixes=either(allowed),
            )
        )


def _check_folder(option: str, path: Path) -> None:
    folder = path.parent
    if not folder.is_dir():
        raise OutputError(
            _(
                "{option} {path}: there is no folder {folder} (create it first)",
                option=option,
                path=path,
                folder=folder,
            )
        )
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(
            _(
                "{option} {path}: the folder {folder} is not writable",
                option=option,
                path=path,
                folder=folder,
            )
        )


def _check_file(option: str, path: Path, kind: str) -> None:
    mode = path.stat().st_mode
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        raise OutputError(
            _("{option} {path} is read-only: choose another file", option=option, path=path)
        )
    if kind == "sqlite" and path.stat().st_size > 0:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
        if header != SQLITE_HEADER:
            raise OutputError(
                _(
                    "{option} {path} is not an SQLite database: give a new file name or an "
                    "arena database",
                    option=option,
                    path=path,
                )
            )


def fallback_path(output: Output) -> Path:
    """A new file in the temporary folder for what ``output`` could not take."""
    stem = output.path.stem or "tikki"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    suffix = output.path.suffix if output.path.is_file() or not output.path.exists() else ""
    suffix = suffix if suffix.lower() in SUFFIXES[output.kind] else SUFFIXES[output.kind][0]
    handle, name = tempfile.mkstemp(prefix=f"tikki-{stem}-{stamp}-", suffix=suffix)
    os.close(handle)
    return Path(name)


def save(output: Output, write: Callable[[Path], None], say: Callable[[str], None]) -> bool:
    """Run ``write(output.path)``; if it fails, ``write`` a fallback file instead.

    ``say`` gets one line telling what failed and where the result went. Return ``True``
    when the output was written where asked.
    """
    try:
        write(output.path)
        return True
    except (OSError, ValueError) as err:
        reason = _reason(err)
    try:
        spare = fallback_path(output)
        write(spare)
    except (OSError, ValueError) as err:
        say(
            _(
                "could not write {path} ({reason}), nor a spare copy ({spare_reason})",
                path=output.path,
                reason=reason,
                spare_reason=_reason(err),
            )
        )
        return False
    say(
        _(
            "could not write {path} ({reason}); saved it to {spare} instead",
            path=output.path,
            reason=reason,
            spare=spare,
        )
    )
    return False


def _reason(err: BaseException) -> str:
    """What went wrong, in words: the system's own (``No space left on device``)."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def check_input(option: str, path: Path, kind: str = "sqlite") -> Path:
    """``path`` checked as an input file: it exists, is a file (not a folder), is readable
    and (``kind`` sqlite) is an SQLite database."""
    if not path.exists():
        raise OutputError(_("{option}: no such file: {path}", option=option, path=path))
    if path.is_dir():
        raise OutputError(_("{option}: {path} is a folder, not a file", option=option, path=path))
    if not os.access(path, os.R_OK):
        raise OutputError(_("{option}: {path} is not readable", option=option, path=path))
    if kind == "sqlite":
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
        if header != SQLITE_HEADER:
            raise OutputError(
                _("{option}: {path} is not an SQLite database", option=option, path=path)
            )
    return path


__all__ = ["Output", "OutputError", "check", "check_input", "fallback_path", "save"]
