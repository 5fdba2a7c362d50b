"""How every tikki command line reads and answers: typer's help in the chosen language
(headings, value words, usage lines) and a bad command line as one ``error:`` line with
exit status 2.  The ``tikki`` console script (:mod:`tikki.cli`) and the commands of their
own (``python -m tikki.learn``, ``python -m tikki.interop.dataset``,
``python -m tikki.server.cluster_run``) all run through :func:`run`."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import typer
import typer.main
import typer.rich_utils
from rich.console import Console
from rich.markup import escape
from typer import _click as click  # type: ignore[attr-defined,unused-ignore]
from typer._click import exceptions as click_errors
from typer.exceptions import Abort

from tikki.i18n import N_, _, current, either, translator

console = Console(highlight=False)
"""Where a command writes what it was asked for."""
errors = Console(stderr=True, highlight=False)
"""Where a command writes what went wrong."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one ``error:`` line on standard error; the exit (status ``code``) to raise."""
    label = _("error:")
    errors.print(f"[bold red]{escape(label)}[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


HELP_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
}
"""The headings of typer's help panels (``typer.rich_utils``), translated with the rest."""
N_("Show this message and exit.")  # the help option's own help, from click
HELP_STRINGS = {
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
}
"""typer's own help texts (``typer.rich_utils``): defaults and required arguments."""
USAGE = N_("Usage: ")
"""The first words of a command's usage line."""
OPTIONS_WORD = N_("[OPTIONS]")
"""Where a usage line shows the command's options."""
COMMAND_WORDS = N_("COMMAND [ARGS]...")
"""Where the usage line of ``tikki`` shows the command and its arguments."""

METAVARS = {
    "game": N_("GAME"),
    "target": N_("FILE"),
    "players": "N",
    "seat": N_("SEAT"),
    "seed": "N",
    "variant": N_("VARIANT"),
    "option": N_("KEY=VALUE"),
    "bots": N_("BOT,BOT"),
    "bot": N_("BOT"),
    "hint_bot": N_("BOT"),
    "record": N_("FILE"),
    "records": N_("FILE"),
    "reward": "game|round",
    "fmt": "npz|parquet",
    "json_out": N_("FILE"),
    "plot": N_("FILE"),
    "delay": N_("SECONDS"),
    "bot_delay": N_("SECONDS"),
    "waiting_expiry": N_("SECONDS"),
    "away_after": N_("SECONDS"),
    "stalled_expiry": N_("SECONDS"),
    "watcher_idle": N_("SECONDS"),
    "min_turn_timer": N_("SECONDS"),
    "lang": N_("LANGUAGE"),
    "db": N_("DATABASE"),
    "first": N_("MOVE"),
    "ray": N_("ADDRESS"),
    "host": N_("ADDRESS"),
    "port": N_("PORT"),
    "serve_args": "SERVE_OPTIONS",
}
"""The word each option's value is shown as in the help (``--seat SEAT``); options not
listed show ``N`` (a whole number), ``NUMBER``, ``FILE`` or ``TEXT`` by their type."""
TYPE_METAVARS = {"int": "N", "float": N_("NUMBER"), "Path": N_("FILE")}
"""The value word of an option not in :data:`METAVARS`, by its type."""


def reflow(text: str) -> str:
    """``text`` with each paragraph on one line, for the terminal to wrap.

    Typer's rich help keeps a help text's line breaks, so a docstring wrapped at 88
    columns came out ragged in an 80-column terminal; paragraphs (split by blank lines)
    are joined here instead.
    """
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))


Gettext = Callable[[str], str]
"""A catalogue's lookup: an English text to its translation."""
COMPOSED: dict[str, Callable[[Gettext], str]] = {}
"""Help texts made of parts that change with what is installed (the registered games'
titles), by their English text: how to say each in another language from its parts, so a
plug-in game does not turn a translated help back into English."""


def _say(gettext: Gettext, text: str) -> str:
    """``text`` in the catalogue's language: composed from its parts where it is composed."""
    compose = COMPOSED.get(text)
    return compose(gettext) if compose is not None else gettext(text)


def translated_command(lang: str, command_app: typer.Typer) -> Any:
    """The click command of ``command_app`` with its help texts in ``lang``."""
    command: Any = typer.main.get_command(command_app)
    speak = translator(lang)
    for name, text in {**HELP_WORDS, **HELP_STRINGS}.items():
        setattr(typer.rich_utils, name, speak.gettext(text))
    for cmd in every_command(command):
        _word_usage(cmd, speak.gettext(USAGE), speak.gettext(OPTIONS_WORD))
        for param in cmd.params:
            _word_param(param, _metavar(param, speak.gettext))
        if cmd.help:
            cmd.help = reflow(_say(speak.gettext, cmd.help))
        if getattr(cmd, "short_help", None):
            cmd.short_help = speak.gettext(cmd.short_help)
        for param in cmd.params:
            if getattr(param, "help", None):
                param.help = _say(speak.gettext, param.help)
        helper = cmd.get_help_option(click.Context(cmd))  # made once, then kept
        if helper is not None and helper.help:
            helper.help = speak.gettext(helper.help)
            helper.metavar = ""
        if hasattr(cmd, "commands"):
            cmd.subcommand_metavar = speak.gettext(COMMAND_WORDS)
    return command


def every_command(command: Any) -> Iterator[Any]:
    """``command`` and every command under it, at any depth (``tikki puzzles build``
    as well as ``tikki play``), parents first."""
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from every_command(sub)


def _metavar(param: Any, gettext: Any) -> str | None:
    """The word that stands for ``param``'s value in the help: ``SEAT``, ``N``, ``FILE``;
    ``""`` for a flag (it takes no value).  A command's own ``metavar=`` wins (translated
    where the catalogue has it), and a value given one or more times ends in ``...``."""
    if getattr(param, "is_flag", False) or param.name == "help":
        return ""
    many = "..." if getattr(param, "nargs", 1) == -1 else ""  # FILE...: one or more
    if param.metavar:  # the command's own word for it (a catalogue's msgid, or a|b)
        return str(gettext(param.metavar.removesuffix("..."))) + many
    if param.name in METAVARS:
        return str(gettext(METAVARS[param.name]))
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    name = getattr(annotation, "__name__", "")
    return str(gettext(TYPE_METAVARS.get(name, N_("TEXT"))))


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


def run(command_app: typer.Typer, argv: Sequence[str] | None, prog: str) -> int:
    """Run the command ``command_app`` (``prog``: its name in the usage line, e.g.
    ``python -m tikki.learn``) on ``argv`` (default: the process's arguments) in the
    current language; its exit status.

    A bad command line is one ``error:`` line and status 2, as for ``tikki``.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    command = translated_command(current(), command_app)
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
    ctx = getattr(err, "ctx", None)
    where = ctx.command_path if ctx is not None else "tikki"
    param = getattr(err, "param", None)
    if isinstance(err, click_errors.NoSuchOption):
        message = _("{command} has no option {option}", command=where, option=err.option_name)
        if err.possibilities:
            message += " " + _(
                "(did you mean {options}?)",
                options=either(tuple(sorted(err.possibilities))),
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
