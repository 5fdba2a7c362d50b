"""The ``tikki`` console script: help texts in the chosen language, and a bad command
line as one ``error:`` line.
"""

from __future__ import annotations

import sys

from tikki import i18n
from tikki.cli.shared import app
from tikki.commandline import run

OPTIONAL_VALUES = {"--ray": "local"}
"""Options whose value may be left out (``tikki arena … --ray`` is ``--ray local``)."""


def bare_options(args: list[str]) -> list[str]:
    """``args`` with the default value put after a bare :data:`OPTIONAL_VALUES` option (one
    at the end, or followed by another option)."""
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg in OPTIONAL_VALUES:
            following = args[i + 1] if i + 1 < len(args) else None
            if following is None or following.startswith("-"):
                out.append(OPTIONAL_VALUES[arg])
    return out


def _argv_language(argv: list[str]) -> str | None:
    """The ``--lang`` of a command line, read before typer parses it (for ``--help``)."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def main() -> None:
    """Entry point of the ``tikki`` console script (help texts in the chosen language).

    A bad command line (an unknown option or command, a missing argument, a value that is
    not a number) is one ``error:`` line in the chosen language, exit status 2.
    """
    args = bare_options(sys.argv[1:])
    lang = i18n.known(_argv_language(args) or "") or i18n.resolve(None)
    i18n.activate(lang)
    raise SystemExit(run(app, args, "tikki"))
