"""The ``tikki`` console script: help texts in the chosen language, and a bad command
line as one ``error:`` line.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer

from tikki import i18n
from tikki.cli.shared import app, console, errors, fail
from tikki.i18n import _
from tikki.tui import outputs

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


HELP_WORDS = {
    "ARGUMENTS_PANEL_TITLE": i18n.N_("Arguments"),
    "OPTIONS_PANEL_TITLE": i18n.N_("Options"),
    "COMMANDS_PANEL_TITLE": i18n.N_("Commands"),
    "ERRORS_PANEL_TITLE": i18n.N_("Error"),
}
"""The headings of typer's help panels (``typer.rich_utils``), translated with the rest."""
i18n.N_("Show this message and exit.")  # the help option's own help, from click
HELP_STRINGS = {
    "DEFAULT_STRING": i18n.N_("[default: {}]"),
    "REQUIRED_LONG_STRING": i18n.N_("[required]"),
}
"""typer's own help texts (``typer.rich_utils``): defaults and required arguments."""
USAGE = i18n.N_("Usage: ")
"""The first words of a command's usage line."""
OPTIONS_WORD = i18n.N_("[OPTIONS]")
"""Where a usage line shows the command's options."""
COMMAND_WORDS = i18n.N_("COMMAND [ARGS]...")
"""Where the usage line of ``tikki`` shows the command and its arguments."""

METAVARS = {
    "game": i18n.N_("GAME"),
    "target": i18n.N_("FILE"),
    "players": "N",
    "seat": i18n.N_("SEAT"),
    "seed": "N",
    "variant": i18n.N_("VARIANT"),
    "option": i18n.N_("KEY=VALUE"),
    "bots": i18n.N_("BOT,BOT"),
    "bot": i18n.N_("BOT"),
    "hint_bot": i18n.N_("BOT"),
    "record": i18n.N_("FILE"),
    "records": i18n.N_("FILE"),
    "reward": "game|round",
    "json_out": i18n.N_("FILE"),
    "plot": i18n.N_("FILE"),
    "delay": i18n.N_("SECONDS"),
    "bot_delay": i18n.N_("SECONDS"),
    "waiting_expiry": i18n.N_("SECONDS"),
    "away_after": i18n.N_("SECONDS"),
    "stalled_expiry": i18n.N_("SECONDS"),
    "min_turn_timer": i18n.N_("SECONDS"),
    "lang": i18n.N_("LANGUAGE"),
    "first": i18n.N_("MOVE"),
    "ray": i18n.N_("ADDRESS"),
    "host": i18n.N_("ADDRESS"),
    "port": i18n.N_("PORT"),
    "serve_args": "SERVE_OPTIONS",
}
"""The word each option's value is shown as in the help (``--seat SEAT``); options not
listed show ``N`` (a whole number), ``NUMBER``, ``FILE`` or ``TEXT`` by their type."""
TYPE_METAVARS = {"int": "N", "float": i18n.N_("NUMBER"), "Path": i18n.N_("FILE")}
"""The value word of an option not in :data:`METAVARS`, by its type."""


def reflow(text: str) -> str:
    """``text`` with each paragraph on one line, for the terminal to wrap.

    Typer's rich help keeps a help text's line breaks, so a docstring wrapped at 88
    columns came out ragged in an 80-column terminal; paragraphs (split by blank lines)
    are joined here instead.
    """
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))


def translated_command(lang: str, command_app: typer.Typer = app) -> Any:
    """The click command of ``tikki`` (or of ``command_app``) with its help texts in
    ``lang``."""
    try:  # typer 0.29 carries its own click; the bare install has no other
        from typer import _click as click  # type: ignore[attr-defined,unused-ignore]
    except ImportError:  # pragma: no cover - an older typer on top of click
        import click  # type: ignore[no-redef]
    import typer.main
    import typer.rich_utils

    command: Any = typer.main.get_command(command_app)
    speak = i18n.translator(lang)
    for name, text in {**HELP_WORDS, **HELP_STRINGS}.items():
        setattr(typer.rich_utils, name, speak.gettext(text))
    for cmd in (command, *getattr(command, "commands", {}).values()):
        _word_usage(cmd, speak.gettext(USAGE), speak.gettext(OPTIONS_WORD))
        for param in cmd.params:
            _word_param(param, _metavar(param, speak.gettext))
        if cmd.help:
            cmd.help = reflow(speak.gettext(cmd.help))
        if getattr(cmd, "short_help", None):
            cmd.short_help = speak.gettext(cmd.short_help)
        for param in cmd.params:
            if getattr(param, "help", None):
                param.help = speak.gettext(param.help)
        helper = cmd.get_help_option(click.Context(cmd))  # made once, then kept
        if helper is not None and helper.help:
            helper.help = speak.gettext(helper.help)
            helper.metavar = ""
    if hasattr(command, "commands"):
        command.subcommand_metavar = speak.gettext(COMMAND_WORDS)
    return command


def _metavar(param: Any, gettext: Any) -> str | None:
    """The word that stands for ``param``'s value in the help: ``SEAT``, ``N``, ``FILE``;
    ``""`` for a flag (it takes no value)."""
    if getattr(param, "is_flag", False) or param.name == "help":
        return ""
    if param.name in METAVARS:
        return str(gettext(METAVARS[param.name]))
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    name = getattr(annotation, "__name__", "")
    return str(gettext(TYPE_METAVARS.get(name, i18n.N_("TEXT"))))


def _word_param(param: Any, word: str | None) -> None:
    """Show ``param`` as ``word``: in the usage line (``GAME``, not ``{game}``) and in the
    help's type column (``N``, not ``<int>``; an argument's column is its name already)."""
    param.metavar = word
    if param.param_type_name == "argument":
        param.get_usage_pieces = lambda ctx: [word if param.required else f"[{word}]"]
        param.display_type_rich = lambda ctx: None


def _word_usage(cmd: Any, prefix: str, options: str) -> None:
    """Let ``cmd``'s usage line begin with ``prefix`` (``Usage:`` in the help's language)."""
    cmd.options_metavar = options

    def format_usage(ctx: Any, formatter: Any) -> None:
        pieces = cmd.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=prefix)

    cmd.format_usage = format_usage


def main() -> None:
    """Entry point of the ``tikki`` console script (help texts in the chosen language).

    A bad command line (an unknown option or command, a missing argument, a value that is
    not a number) is one ``error:`` line in the chosen language, exit status 2.
    """
    from typer._click import exceptions as click_errors
    from typer.exceptions import Abort

    args = bare_options(sys.argv[1:])
    lang = i18n.known(_argv_language(args) or "") or i18n.resolve(None)
    i18n.activate(lang)
    command = translated_command(lang)
    try:
        status = command.main(args=args, prog_name="tikki", standalone_mode=False)
    except click_errors.NoArgsIsHelpError as err:
        console.print(err.format_message(), markup=False, highlight=False)
        status = err.exit_code
    except click_errors.UsageError as err:
        raise SystemExit(_usage_error(err, args)) from None
    except Abort:
        errors.print(_("Aborted."))
        status = 1
    raise SystemExit(status if isinstance(status, int) else 0)


def run(command_app: typer.Typer, argv: Sequence[str] | None, prog: str) -> int:
    """Run a command of its own (``python -m tikki.learn``, ``prog``) on ``argv`` (default:
    the process's arguments); its exit status.

    A bad command line is one ``error:`` line and status 2, as for ``tikki``.
    """
    from typer._click import exceptions as click_errors
    from typer.exceptions import Abort

    args = list(sys.argv[1:] if argv is None else argv)
    command = translated_command(i18n.current(), command_app)
    try:
        status = command.main(args=args, prog_name=prog, standalone_mode=False)
    except click_errors.NoArgsIsHelpError as err:
        console.print(err.format_message(), markup=False, highlight=False)
        return err.exit_code
    except click_errors.UsageError as err:
        return _usage_error(err, args)
    except Abort:
        errors.print(_("Aborted."))
        return 1
    return status if isinstance(status, int) else 0


def _usage_error(err: Any, args: list[str]) -> int:
    """Say what is wrong with the command line in one line; the exit status (2)."""
    import re

    from typer._click import exceptions as click_errors

    ctx = getattr(err, "ctx", None)
    where = ctx.command_path if ctx is not None else "tikki"
    param = getattr(err, "param", None)
    if isinstance(err, click_errors.NoSuchOption):
        message = _("{command} has no option {option}", command=where, option=err.option_name)
        if err.possibilities:
            message += " " + _(
                "(did you mean {options}?)",
                options=outputs.either(tuple(sorted(err.possibilities))),
            )
    elif isinstance(err, click_errors.MissingParameter) and param is not None:
        what = param.metavar or param.name
        message = _("{command} needs {what}", command=where, what=what)
        if param.help:
            message += f" ({param.help})"
    elif isinstance(err, click_errors.BadParameter) and param is not None:
        message = _bad_value(param, args)
    elif isinstance(err, click_errors.BadOptionUsage):
        message = _("{option} needs a value", option=err.option_name)
    elif (
        ctx is not None
        and ctx.command is not None
        and hasattr(ctx.command, "commands")
        and (err.message.startswith("No such command"))
    ):
        names = ", ".join(ctx.command.commands)
        named = re.search(r"No such command '([^']*)'", err.message)
        typed = named.group(1) if named else err.message
        message = _(
            "there is no command {name!r}: the commands are {names}", name=typed, names=names
        )
    else:
        message = err.format_message()
    help_hint = _("({command} --help shows how)", command=where)
    fail(f"{message} {help_hint}")
    return 2


def _bad_value(param: Any, args: list[str]) -> str:
    """``--seed takes a whole number, not 'abc'``: what the option takes, in words."""
    option = param.opts[0] if param.opts else str(param.metavar)
    given = _given(param.opts, args)
    kind = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if kind is int:
        return _("{option} takes a whole number, not {value!r}", option=option, value=given)
    if kind is float:
        return _("{option} takes a number, not {value!r}", option=option, value=given)
    return _("{option} does not take {value!r}", option=option, value=given)


def _given(opts: list[str], args: list[str]) -> str:
    """The value given to an option on the command line (its last use)."""
    found = ""
    for i, arg in enumerate(args):
        if arg in opts and i + 1 < len(args):
            found = args[i + 1]
        for opt in opts:
            if arg.startswith(opt + "="):
                found = arg.partition("=")[2]
    return found
