"""``tikki serve``'s limits are declared once, on :class:`Policy` and :class:`Limits`
(:mod:`tikki.serve_settings`): the command's options are built from them, with their
flags, help texts and defaults, and the command line reads them without the server."""

from __future__ import annotations

import subprocess
import sys

import typer.main

from tikki.cli import app
from tikki.serve_settings import Limits, Policy, options


def test_every_setting_is_an_option_with_its_flag_help_and_default() -> None:
    group = typer.main.get_command(app)
    serve = group.commands["serve"]  # type: ignore[attr-defined]
    by_flag = {opt: p for p in serve.params for opt in getattr(p, "opts", [])}
    settings = options(Policy) + options(Limits)
    assert len(settings) == 32  # counted: a new setting is added here on purpose
    for _name, _kind, flag, text, default in settings:
        param = by_flag[flag]
        assert param.default == default, flag
        assert text and param.help, flag
    assert Policy().max_tables == by_flag["--max-tables"].default


def test_the_command_line_reads_the_settings_without_the_server() -> None:
    code = (
        "import sys, tikki.cli.serve; print(any(m.startswith('tikki.server') for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
