"""The ``tikki`` command: play, replay, rules, games.

Every command reports bad input (an unknown game, option, bot or a broken record) with a
clear message and exit status 2 (usage) or 1 (bad record), never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from tikki import arena, extras, i18n, rules
from tikki import bots as botlib
from tikki.core import Game, RulesError, State, game_class, games, load, replay
from tikki.core import split_rulings as core_split_rulings
from tikki.i18n import _
from tikki.tui import analysis as analysis_view
from tikki.tui import common, outputs
from tikki.tui.app import Session, default_record_path, presenter
from tikki.tui.events import event_lines, headline
from tikki.views import match_outcome, shedding_outcome

app = typer.Typer(
    name="tikki",
    help="Myllymatti, Mattis and Mückenstich, played exactly by their rules.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)


def _fail(message: str, code: int = 2) -> typer.Exit:
    label = _("error:")
    errors.print(f"[bold red]{escape(label)}[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


LANG_HELP = "language: en, fi or de (default: LC_ALL, LC_MESSAGES or LANG; else English)"
LangOption = Annotated[str | None, typer.Option("--lang", help=LANG_HELP, show_default=False)]
"""The ``--lang`` option, taken by ``tikki`` itself and by each command."""


def set_language(lang: str | None) -> str:
    """Speak ``--lang`` (checked: a clear error for an unknown one), else the environment's
    language, for the rest of the command; return it."""
    if lang is not None:
        i18n.activate(i18n.resolve(None))  # an unknown --lang is refused in this one
    try:
        chosen = i18n.resolve(lang)  # the one choice of language (tikki.i18n)
    except ValueError as err:
        raise _fail(str(err)) from None
    i18n.activate(chosen)
    return chosen


@app.callback()
def _main(lang: LangOption = None) -> None:
    """Myllymatti, Mattis and Mückenstich, played exactly by their rules."""
    set_language(lang)


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["take=all", "runs=true"]`` → ``{"take": "all", "runs": "true"}``."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise RulesError(
                _("option {pair!r} is not KEY=VALUE (for example take=all)", pair=pair)
            )
        out[key.strip()] = value.strip()
    return out


def game_name(text: str) -> str:
    """A game name as typed (``Mückenstich``, ``MUECKENSTICH``) → its registered name."""
    name = text.strip().casefold()
    for umlaut, letters in (("ü", "ue"), ("ö", "oe"), ("ä", "ae")):
        name = name.replace(umlaut, letters)
    return name


def _make_game(name: str, players: int | None, variant: str | None, option: list[str]) -> Game:
    options: dict[str, Any] = parse_options(option)
    if variant is not None:
        options["variant"] = variant
    return load(game_name(name), players=players, **options)


def _bot_specs(game: Game, human: int | None, bots: str | None, bot: list[str]) -> list[str]:
    """One spec per seat (the human seat's entry is unused)."""
    given = list(bot) if bot else [s for s in (bots or "random").split(",") if s.strip()]
    if not given:
        given = ["random"]
    specs: list[str] = []
    others = iter(given)
    last = given[0]
    for seat in range(game.players):
        if seat == human:
            specs.append("you")
            continue
        last = next(others, last)
        specs.append(last)
    for spec in {s for i, s in enumerate(specs) if i != human}:
        botlib.make(spec, seed=0)  # validate early: unknown bots and parameters
    return specs


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="myllymatti, mattis or mueckenstich")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of players")
    ] = None,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 leads the first trick)")] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="deal seed (same seed, same game)")
    ] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="a preset, e.g. koira")] = None,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")
    ] = [],  # noqa: B006
    bots: Annotated[
        str | None, typer.Option("--bots", help="bots for the other seats, e.g. random,random")
    ] = None,
    bot: Annotated[
        list[str], typer.Option("--bot", help="one bot spec per other seat (repeatable)")
    ] = [],  # noqa: B006
    watch: Annotated[bool, typer.Option("--watch", help="bots play every seat; you watch")] = False,
    record: Annotated[
        Path | None, typer.Option("--record", help="where to save the record")
    ] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="do not save a record")] = False,
    delay: Annotated[float, typer.Option("--delay", help="seconds to pause after bot moves")] = 0.0,
    memory_aids: Annotated[
        bool,
        typer.Option(
            "--memory-aids",
            help="Mückenstich: show won tricks, the last trick and mosquito counts during a round",
        ),
    ] = False,
    auto: Annotated[
        bool,
        typer.Option("--auto/--no-auto", help="play your move for you when it is the only one"),
    ] = True,
    lang: LangOption = None,
) -> None:
    """Play a game in the terminal against bots.

    Exit status: 0 when the game ends or you quit, 1 when a bot fails (it forfeits),
    2 for a bad command line, 130 after Ctrl-C. The record is saved in every case.

    Example: [bold]tikki play myllymatti --players 3 --seed 7 --option take=all[/]
    """
    _use(lang)
    try:
        g = _make_game(game, players, variant, option)
        human = None if watch else seat
        if human is not None and not 0 <= human < g.players:
            raise RulesError(
                _("no seat {seat}: seats are 0–{last}", seat=human, last=g.players - 1)
            )
        if not 0 <= delay <= 60:
            raise RulesError(_("--delay is seconds from 0 to 60, not {delay}", delay=f"{delay:g}"))
        specs = _bot_specs(g, human, bots, bot)
        if memory_aids and not g.memory_aids:
            raise RulesError(
                _(
                    "--memory-aids is a Mückenstich table option: {game} always shows "
                    "every card played",
                    game=g.title,
                )
            )
        state = g.new_state(seed=seed)
        saved = None if no_record or record is None else outputs.check("--record", record, "json")
    except (RulesError, outputs.OutputError) as err:
        raise _fail(str(err)) from None
    path = None if no_record else (saved.path if saved else default_record_path(g))
    _line_editing()
    session = Session(
        g,
        state,
        human,
        specs,
        console,
        _reader(),
        path,
        delay=delay,
        auto=auto,
        memory_aids=memory_aids,
        complain=_complain,
    )
    raise typer.Exit(session.run())


def _complain(message: str) -> None:
    """Print one ``error:`` line on standard error (the command goes on)."""
    label = _("error:")
    errors.print(f"[bold red]{escape(label)}[/] {escape(message)}", soft_wrap=True)


def _line_editing() -> None:
    """Give the ``Your move:`` prompt line editing and history (readline), on a terminal."""
    import contextlib

    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # a Python built without readline
            import readline  # noqa: F401  (importing it is what turns it on for input())


def _reader() -> Any:
    """The function that asks the person: on a terminal, ``input`` itself gets the prompt
    (its colour codes wrapped in ``\\001…\\002``), so that readline knows where the line
    starts and redraws history and edits after the prompt, not over it."""
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return console.input

    def read(prompt: str) -> str:
        with console.capture() as captured:
            console.print(prompt, end="", markup=False)
        return input(readline_prompt(captured.get()))

    return read


def readline_prompt(text: str) -> str:
    """``text`` with each terminal escape sequence wrapped in ``\\001…\\002`` (readline's
    marks for characters that take no room on the screen)."""
    import re

    return re.sub(r"(\x1b\[[0-9;?]*[A-Za-z])", "\x01\\1\x02", text)


@app.command("replay")
def replay_command(
    target: Annotated[
        str, typer.Argument(help="a record file (JSON), or a game id with --db", metavar="FILE")
    ],
    db: Annotated[
        Path | None, typer.Option("--db", help="an arena database: FILE is a game id")
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="only verify; print the result")
    ] = False,
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="show what this seat saw (its own face-down cards too)"),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Replay a record move by move, verifying each move, and print the game.

    Without --seat the game is shown as an onlooker sees it: face-down cards stay hidden.

    Examples: [bold]tikki replay records/myllymatti-20261130-101500.json[/],
    [bold]tikki replay --seat 0 --db results.sqlite 17[/]
    """
    _use(lang)
    data = _read_record(target, db)
    state = _verify(target, data)
    if seat is not None and not 0 <= seat < state.game.players:
        raise _fail(_("no seat {seat}: seats are 0–{last}", seat=seat, last=state.game.players - 1))
    if not quiet:
        _replay_header(target, data, state)
        _print_replay(state, seat)
    moves, name = len(state.moves), state.game.title
    if state.is_over:
        verified = i18n.ngettext(
            "Verified {n} move of {game}: game over.",
            "Verified {n} moves of {game}: game over.",
            moves,
            game=name,
        )
    else:
        verified = i18n.ngettext(
            "Verified {n} move of {game}: game unfinished ({phase}; seat {seat} to act).",
            "Verified {n} moves of {game}: game unfinished ({phase}; seat {seat} to act).",
            moves,
            game=name,
            phase=common.phase_word(state.phase),
            seat=state.current_player,
        )
    console.print(verified, markup=False)
    if state.outcome is not None:
        seats = [common.seat_name(s) for s in range(state.game.players)]
        console.print(outcome_table(state, seats))


def _verify(target: str, data: Any) -> State:
    """Replay ``data``; a bad or truncated record ends the command with exit status 1."""
    if not isinstance(data, dict):
        raise _fail(_("{file}: a record is a JSON object", file=target), 1)
    if "game" in data and not isinstance(data["game"], str):
        names = ", ".join(games())
        raise _fail(
            _("{file}: the record's game must be a name ({names})", file=target, names=names), 1
        )
    claimed = data.get("outcome")
    try:
        state = replay({k: v for k, v in data.items() if k != "outcome"})
        if claimed is not None and not state.is_over:
            raise RulesError(
                _(
                    "the record ends before the game does (move {moves} of an unfinished "
                    "game, yet the record gives its outcome)",
                    moves=len(state.moves),
                )
            )
        state = replay(data)
    except RulesError as err:
        raise _fail(f"{target}: {err}", 1) from None
    except (TypeError, AttributeError) as err:  # a field of the wrong JSON type
        wrong = _(
            "{file}: a field of the record has the wrong type ({error})", file=target, error=err
        )
        raise _fail(wrong, 1) from None
    return state


def _replay_header(target: str, data: dict[str, Any], state: State) -> None:
    """The top of a replay: the game, players, seed, rules revision, options, who sat
    where (``seats``, when the record keeps it) and a bot's forfeit."""
    g = state.game
    console.print(
        _(
            "{game} — {players} players · seed {seed} · rules {rules}",
            game=g.title,
            players=g.players,
            seed=state.seed,
            rules=g.rules,
        ),
        markup=False,
        style="bold",
    )
    console.print(_("Options: {options}", options=common.options_line(g)), markup=False)
    seats = data.get("seats")
    if seats is not None:
        if not isinstance(seats, list) or len(seats) != g.players:
            wrong = _("{file}: the record's seats must list one player per seat", file=target)
            raise _fail(wrong, 1)
        who = [f"{common.seat_name(i)}: {_seat_word(spec)}" for i, spec in enumerate(seats)]
        console.print(_("Players: {players}", players=", ".join(who)), markup=False)
    forfeit = data.get("forfeit")
    if isinstance(forfeit, dict) and isinstance(forfeit.get("seat"), int):
        line = _(
            "{seat} ({bot}) forfeited the game after move {moves}: {error}",
            seat=common.seat_name(forfeit["seat"]),
            bot=forfeit.get("bot", "?"),
            moves=len(state.moves),
            error=forfeit.get("error", ""),
        )
        console.print(Text(line, style="bold red"))


def _seat_word(spec: Any) -> str:
    """Who sat in a seat, as the record says: ``a person`` or the bot spec."""
    return _("a person") if spec == "you" else str(spec)


def outcome_table(state: State, names: list[str]) -> Table:
    """The outcome of a finished game as a table: places and the loser, or the scores."""
    table = Table(title=_("Outcome"), title_justify="left")
    table.add_column(_("Seat"))
    match = match_outcome(state.outcome)
    if match is not None:
        table.add_column(_("Points"), justify="right")
        best = max(match["scores"])
        for seat, score in enumerate(match["scores"]):
            table.add_row(names[seat], str(score) + (" " + _("(winner)") if score == best else ""))
        return table
    table.add_column(_("Result"))
    shedding = shedding_outcome(state.outcome)  # None: the game is not over
    order = shedding["out_order"] if shedding else []
    for seat in range(state.game.players):
        if shedding and shedding["abandoned"]:
            result = _("abandoned (no loser)")
        elif shedding and seat == shedding["loser"]:
            result = _("lost (last to hold cards)")
        elif seat in order:
            result = _ordinal(order.index(seat) + 1)
        else:
            result = "—"
        table.add_row(names[seat], result)
    return table


def _ordinal(n: int) -> str:
    """``out first`` … ``out fifth``, then ``out #6`` (a place in the out order)."""
    words = {
        1: _("out first"),
        2: _("out second"),
        3: _("out third"),
        4: _("out fourth"),
        5: _("out fifth"),
    }
    return words.get(n) or _("out #{place}", place=n)


def _read_record(target: str, db: Path | None) -> Any:
    if db is not None:
        if not target.isdigit():
            raise _fail(_("with --db, give a game id (a number), not {target!r}", target=target))
        try:
            return arena.load_record(outputs.check_input("--db", db), int(target))
        except (RulesError, outputs.OutputError) as err:
            raise _fail(str(err), 1) from None
    file = Path(target)
    try:
        return json.loads(file.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise _fail(_("no such file: {file}", file=file), 1) from None
    except IsADirectoryError:
        raise _fail(_("{file} is a folder, not a record file", file=file), 1) from None
    except PermissionError:
        raise _fail(_("{file} is not readable (permission denied)", file=file), 1) from None
    except OSError as err:
        raise _fail(_("cannot read {file}: {error}", file=file, error=err.strerror), 1) from None
    except UnicodeDecodeError as err:
        bad = _(
            "{file} is not a JSON record: it is not UTF-8 text (byte {offset} is not valid)",
            file=file,
            offset=err.start + 1,
        )
        raise _fail(bad, 1) from None
    except json.JSONDecodeError as err:
        bad = _(
            "{file} is not a JSON record: the JSON breaks off at line {line}, column {column}",
            file=file,
            line=err.lineno,
            column=err.colno,
        )
        raise _fail(bad, 1) from None


def _print_replay(state: State, seat: int | None = None) -> None:
    g = state.game
    names = [common.seat_name(s) for s in range(g.players)]
    describe = presenter(g).event
    for i, whole in enumerate(state.history(seat), 1):
        line, entry = headline(whole, describe(whole, names), names, g.name)
        console.print(f"{i:4d}. ", line, sep="")
        for event in event_lines(entry, names, g.name):
            console.print("      ", event, sep="")


@app.command("analyse")
def analyse_command(
    target: Annotated[
        str, typer.Argument(help="a record file (JSON), or a game id with --db", metavar="FILE")
    ],
    seat: Annotated[int, typer.Option("--seat", help="the seat whose moves are judged")] = 0,
    iterations: Annotated[
        int,
        typer.Option(
            "--iterations",
            help="the judge's budget: expert search iterations per decision (more: surer)",
        ),
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="seed of the analysis")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="worker processes")] = 1,
    first: Annotated[
        int, typer.Option("--from", help="judge the moves from this move number on")
    ] = 1,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write every decision as JSON")
    ] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="write a PNG chart")] = None,
    db: Annotated[
        Path | None, typer.Option("--db", help="an arena database: FILE is a game id")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Judge every decision of one seat: each legal move's value from that seat's view.

    The judge is the expert bot's own search (the hint's too), from the seat's view only.
    Values are the chance of not being the loser (Myllymatti, Mattis) or the points the
    round in progress will score (Mückenstich). Moves that lose 5/10/20 points of chance
    (1/2/4 points), after taking off the sampling error, are inaccuracies, mistakes and
    blunders. --iterations sets the budget (the web table's default is the same).

    Example: [bold]tikki analyse records/myllymatti-20261130-101500.json --seat 0[/]
    """
    from tikki import analysis

    _use(lang)
    try:
        json_file = None if json_out is None else outputs.check("--json", json_out, "json")
        plot_file = None if plot is None else outputs.check("--plot", plot, "plot")
        if plot is not None:
            extras.require("plot", "analyse --plot")
    except (outputs.OutputError, extras.MissingExtra) as err:
        raise _fail(str(err)) from None
    data = _read_record(target, db)
    state = _verify(target, data)
    if not 1 <= first <= max(1, len(state.moves)):
        too_far = ngettext_moves(first, len(state.moves))
        raise _fail(too_far)
    try:
        result = analysis_view.run(console, data, seat, iterations, seed, jobs, first)
    except RulesError as err:
        raise _fail(str(err)) from None
    analysis_view.show(console, result)
    ok = True
    if json_file is not None:
        text = json.dumps(result.to_json(), indent=1) + "\n"
        ok &= _write(json_file, _("Analysis written to {file}"), lambda p: _write_text(p, text))
    if plot_file is not None:
        chart = _render(plot_file, lambda p: analysis.plot(result, p))
        ok &= _write(plot_file, _("Plot written to {file}"), lambda p: _write_bytes(p, chart))
    if not ok:
        raise typer.Exit(1)


def ngettext_moves(first: int, moves: int) -> str:
    """``--from 999``: the game has only so many moves."""
    return i18n.ngettext(
        "--from {first}: the game has {n} move; give a move number from 1 to {n}",
        "--from {first}: the game has {n} moves; give a move number from 1 to {n}",
        moves,
        first=first,
    )


def _write_text(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8") as file:
        file.write(text)


def _write_bytes(path: Path, data: bytes) -> None:
    with path.open("wb") as file:
        file.write(data)


def _render(output: outputs.Output, draw: Any) -> bytes:
    """A chart drawn by ``draw(path)`` into a temporary file of ``output``'s format, as
    bytes (matplotlib does not report every failed write; :func:`_write_bytes` does)."""
    import tempfile

    suffix = output.path.suffix.lower()
    suffix = suffix if suffix in outputs.SUFFIXES["plot"] else ".png"
    with tempfile.TemporaryDirectory(prefix="tikki-plot-") as folder:
        path = Path(folder) / f"chart{suffix}"
        draw(path)
        return path.read_bytes()


def _write(output: outputs.Output, done: str, write: Any) -> bool:
    """Write ``output`` (a spare file if that fails) and say where it went."""
    written: list[Path] = []

    def tracked(path: Path) -> None:
        write(path)
        written.append(path)

    ok = outputs.save(output, tracked, _complain)
    if written:
        console.print(done.format(file=written[-1]), markup=False, soft_wrap=True)
    return ok


@app.command("rules")
def rules_command(
    game: Annotated[str, typer.Argument(help="the game")],
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="en, fi or de (default: LC_ALL, LC_MESSAGES or LANG, else en)"),
    ] = None,
) -> None:
    """Print the rules of a game, in English, Finnish or German.

    Example: [bold]tikki rules myllymatti --lang fi[/]
    """
    _use(lang)  # tikki --lang (already spoken) or this command's own --lang
    try:
        name = game_class(game_name(game)).name
        text = rules.rules_text(name, i18n.current())
    except ValueError as err:  # an unknown game (RulesError) or --lang
        raise _fail(str(err)) from None
    console.print(Markdown(text))


_TYPE_WORDS = {
    "int": i18n.N_("a whole number"),
    "bool": i18n.N_("true or false"),
    "str": i18n.N_("text"),
}


@app.command("games")
def games_command(lang: LangOption = None) -> None:
    """List the games, their player counts, variants and options.

    Example: [bold]tikki games[/]
    """
    _use(lang)
    for name, info in i18n.localized_games(games()).items():
        p = info["players"]
        span = _(
            "{min}–{max} players (default {default})",
            min=p["min"],
            max=p["max"],
            default=p["default"],
        )
        title = f"{name} — {info['title']}, {span}"
        if not info["options"]:
            console.print(Text(title, style="italic"))
            console.print(_("No options: every table plays the same rules."))
        else:
            console.print(_options_table(title, info["options"]))
        variants = [f"{k} ({common.value_text(v)})" for k, v in info["variants"].items() if v]
        if variants:
            console.print(_("variants: {variants}", variants="; ".join(variants)), markup=False)
        console.print()


def _options_table(title: str, options: list[dict[str, Any]]) -> Table:
    """A game's options: name, default, values and meaning (in words, no ruling ids)."""
    table = Table(title=title, title_justify="left")
    table.add_column(_("Option"), no_wrap=True)
    table.add_column(_("Default"), no_wrap=True)
    table.add_column(_("Values"))
    table.add_column(_("Meaning"))
    for spec in options:
        values = common.value_text(spec.get("choices", [])) or _(
            _TYPE_WORDS.get(spec["type"], spec["type"])
        )
        meaning = spec.get("text") or core_split_rulings(spec["help"])[0]
        meaning = meaning.replace("( ", "(")  # an id taken out at the start: "(MM-1 deals 3)"
        table.add_row(spec["name"], common.value_text(spec["default"]), values, meaning)
    return table


@app.command("arena")
def arena_command(
    game: Annotated[str, typer.Argument(help="myllymatti, mattis or mueckenstich")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of players")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="lineup, one spec per seat, the last repeated: X,Y = X vs Y"),
    ] = None,
    bot: Annotated[
        list[str], typer.Option("--bot", help="one spec per seat (repeatable; for cmd: bots)")
    ] = [],  # noqa: B006
    games_count: Annotated[
        int, typer.Option("--games", "-n", help="games (rounded up to whole duplicate deals)")
    ] = 300,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="worker processes")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="arena seed (deals and bot seeds)")] = 0,
    variant: Annotated[str | None, typer.Option("--variant", help="a preset, e.g. koira")] = None,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")
    ] = [],  # noqa: B006
    db: Annotated[Path | None, typer.Option("--db", help="store every game in SQLite")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="write a PNG of the results")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the summary as JSON")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="play on Ray: a local Ray (bare --ray, or local), auto or a cluster address",
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play many games between bots and measure them.

    Example: [bold]tikki arena myllymatti --players 3 --bots heuristic,random --games 600
    --jobs 2 --seed 1 --db results.sqlite --plot results.png[/]
    """
    _use(lang)
    try:
        g = _make_game(game, players, variant, option)
        given = list(bot) if bot else [s for s in (bots or "").split(",") if s.strip()]
        lineup = arena.lineup_for(g.players, given)
        for spec_text in set(lineup):
            botlib.make(spec_text, seed=0)
        if games_count < 1 or jobs < 1:
            raise RulesError(_("--games and --jobs must be at least 1"))
        if plot is not None:
            extras.require("plot", "arena --plot")
        if ray is not None:
            extras.require("ray", "arena --ray")
        db_file = None if db is None else outputs.check("--db", db, "sqlite")
        plot_file = None if plot is None else outputs.check("--plot", plot, "plot")
        json_file = None if json_out is None else outputs.check("--json", json_out, "json")
    except (RulesError, extras.MissingExtra, outputs.OutputError) as err:
        raise _fail(str(err)) from None
    deals = -(-games_count // g.players)
    spec = arena.ArenaSpec(g.name, g.players, g.options, lineup, deals * g.players, seed)
    results = _run_with_progress(spec, jobs, ray)
    stats = arena.summarize(results, lineup)
    _report(spec, results, stats)
    ok = True
    if db_file is not None:
        ok &= _store(db_file, spec, results)
    if plot_file is not None:
        chart = _render(plot_file, lambda p: arena.plot(p, spec, stats))
        ok &= _write(plot_file, _("Plot written to {file}"), lambda p: _write_bytes(p, chart))
    if json_file is not None:
        summary = {
            "arena": {**spec.__dict__, "options": dict(spec.options), "lineup": list(lineup)},
            "bots": [s.as_dict() for s in stats],
        }
        text = json.dumps(summary, indent=1) + "\n"
        ok &= _write(json_file, _("Summary written to {file}"), lambda p: _write_text(p, text))
    if not ok:
        raise typer.Exit(1)


def _store(output: outputs.Output, spec: arena.ArenaSpec, results: list[arena.GameResult]) -> bool:
    """Store the arena in SQLite (a spare database if that fails) and say where."""
    import sqlite3

    stored: list[tuple[Path, int]] = []

    def write(path: Path) -> None:
        try:
            stored.append((path, arena.store(path, spec, results)))
        except sqlite3.Error as err:
            raise OSError(0, str(err)) from None

    ok = outputs.save(output, write, _complain)
    if stored:
        path, arena_id = stored[-1]
        first, last = arena.game_ids(path, arena_id)
        line = _(
            "Stored in {db} as arena {arena}: games {first}–{last} "
            "(tikki replay --db {db} {first})",
            db=path,
            arena=arena_id,
            first=first,
            last=last,
        )
        console.print(line, markup=False)
    return ok


def _run_with_progress(
    spec: arena.ArenaSpec, jobs: int, ray: str | None = None
) -> list[arena.GameResult]:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn(_("ETA")),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(f"{spec.game} {','.join(spec.lineup)}", total=spec.games)
        return arena.run(spec, jobs, on_result=lambda _: progress.advance(task), ray=ray)


_COMPACT: dict[str, Any] = {
    "box": box.SIMPLE_HEAVY,
    "padding": (0, 0),
    "show_edge": False,
}
"""Table style of the arena report: light rules, so that wide line-ups fit 80 columns."""


def _report(
    spec: arena.ArenaSpec, results: list[arena.GameResult], stats: list[arena.BotStats]
) -> None:
    figures = [s.as_dict() for s in stats]
    scored = "mean_advantage" in figures[0]
    title = _(
        "{game}, {players} players, {games} games, seed {seed}",
        game=spec.game,
        players=spec.players,
        games=spec.games,
        seed=spec.seed,
    )
    table = Table(title=title, title_justify="left", **_COMPACT)
    table.add_column(
        _("Bot"), overflow="fold", min_width=min(28, max(len(f["bot"]) for f in figures))
    )
    table.add_column(_("Seats"), justify="right", width=5)
    if scored:
        table.add_column(_("Points per round"), justify="right", width=6)
        table.add_column(_("Advantage"), justify="right", width=9)
    else:
        table.add_column(_("Loss rate"), justify="right", width=9)
    table.add_column(_("95% interval"), justify="right", width=14 if scored else 15)
    # Columns of zeros make room for long bot names: a line below says there were none.
    trouble = any(f["abandoned"] or f["forfeits"] for f in figures)
    columns = [(_("Moves per game"), 5), (_("Abandoned"), 9), (_("Forfeits"), 8)]
    for column, width in [*columns[: 3 if trouble else 1], (_("Time per move"), 7)]:
        table.add_column(column, justify="right", width=width)
    one_deal = len({r.deal for r in results}) < 2
    for f in figures:
        cells: list[str | Text]
        if scored:
            lo, hi = f["advantage_ci"]
            span = _("{lo} to {hi}", lo=signed(lo), hi=signed(hi))
            cells = [
                f"{f['mean_score_per_round']:.2f}",
                signed(f["mean_advantage"]),
                Text("—" if one_deal else span, no_wrap=True),
            ]
        else:
            lo, hi = f["loss_ci"]
            span = _("{lo} to {hi}", lo=f"{lo:.1%}", hi=f"{hi:.1%}")
            cells = [f"{f['loss_rate']:.1%}", Text(span, no_wrap=True)]
        counts = [str(f["abandoned"]), str(f["forfeits"])] if trouble else []
        table.add_row(
            f["bot"],
            str(f["seat_games"]),
            *cells,
            f"{f['mean_moves']:.0f}",
            *counts,
            duration(f["seconds_per_move"]),
        )
    console.print(table)
    if not trouble:
        console.print(_("No game was abandoned and no bot forfeited."))
    if scored and one_deal:
        console.print(
            _(
                "One deal gives no interval (its games share the cards): play two deals or "
                "more, e.g. --games {games}.",
                games=2 * spec.players,
            )
        )
    if not scored:
        expected = f"{1 / spec.players:.1%}"
        console.print(_("A random bot's expected loss rate is {rate}.", rate=expected))
    _think_table(figures)
    for result in results:
        if result.error:
            forfeit = _("game {n}: forfeit by {error}", n=result.index, error=result.error)
            console.print(Text(forfeit, style="yellow"))
    rated = arena.ratings(results)
    if rated:
        rt = Table(title=_("OpenSkill ratings (Plackett–Luce)"), title_justify="left", **_COMPACT)
        rt.add_column(_("Bot"))
        for column in (_("Rating (μ − 3σ)"), _("Skill μ"), _("Uncertainty σ")):
            rt.add_column(column, justify="right")
        for name, (ordinal, mu, sigma) in sorted(rated.items(), key=lambda kv: -kv[1][0]):
            rt.add_row(name, f"{ordinal:.2f}", f"{mu:.2f}", f"{sigma:.2f}")
        console.print(rt)


def signed(value: float) -> str:
    """``+0.43``, ``-0.43``; never ``-0.00``."""
    text = f"{value:+.2f}"
    return "+0.00" if text == "-0.00" else text


def _think_table(figures: list[dict[str, Any]]) -> None:
    """Each bot's think time per move: median, 90th percentile and longest."""
    if not any(f["think_max"] > 0 for f in figures):
        return
    table = Table(title=_("Think time per move"), title_justify="left", **_COMPACT)
    table.add_column(_("Bot"))
    for column in (_("Median"), _("90th percentile"), _("Longest")):
        table.add_column(column, justify="right")
    for f in figures:
        table.add_row(
            f["bot"], duration(f["think_p50"]), duration(f["think_p90"]), duration(f["think_max"])
        )
    console.print(table)


def duration(seconds: float) -> str:
    """A time with three significant digits in a fitting unit: ``12.3 µs``, ``4.56 ms``."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:#.3g} {unit}".replace(". ", " ")
    return "0 s" if seconds <= 0 else f"{seconds / 1e-6:.2g} µs"


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port (0: pick a free one)")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="sqlite:///PATH or postgresql://USER:PASS@HOST/DB "
            "(default: an SQLite file in the user's data directory)",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="seconds a bot waits before it moves")
    ] = 0.6,
    hint_bot: Annotated[
        str,
        typer.Option(
            "--hint-bot",
            help="the bot that answers hints (judge: the analysis's judge, the expert's search)",
        ),
    ] = "judge",
    allow_client_seeds: Annotated[
        bool,
        typer.Option(
            "--allow-client-seeds",
            help="accept a creator's seed at tables with open seats too (tests and demos "
            "only: the creator then knows every hand)",
        ),
    ] = False,
    allow_bot_specs: Annotated[
        bool,
        typer.Option(
            "--allow-bot-specs", help="accept any bot spec, not only Easy/Medium/Hard/Expert"
        ),
    ] = False,
    bot_workers: Annotated[
        int, typer.Option("--bot-workers", help="processes for searching bots (0: one per core)")
    ] = 0,
    create_rate: Annotated[
        float, typer.Option("--create-rate", help="tables one address may create per minute")
    ] = 10,
    join_rate: Annotated[
        float, typer.Option("--join-rate", help="seats one address may take per minute")
    ] = 30,
    tables_per_address: Annotated[
        int, typer.Option("--tables-per-address", help="live tables one address may create")
    ] = 20,
    max_tables: Annotated[int, typer.Option("--max-tables", help="live tables in all")] = 2000,
    waiting_expiry: Annotated[
        float,
        typer.Option(
            "--waiting-expiry",
            help="seconds a table may wait for players unless someone from another address "
            "joins (its creator's 'keep open' starts the time again)",
        ),
    ] = 600,
    joined_expiry: Annotated[
        float,
        typer.Option(
            "--joined-expiry", help="seconds a table someone else joined may wait for players"
        ),
    ] = 86400,
    max_bot_tables: Annotated[
        int, typer.Option("--max-bot-tables", help="live tables where only bots play, in all")
    ] = 200,
    waiting_per_address: Annotated[
        int,
        typer.Option(
            "--waiting-per-address",
            help="waiting tables nobody else joined that one address may have",
        ),
    ] = 5,
    max_analyses: Annotated[
        int, typer.Option("--max-analyses", help="analyses running or queued at once, in all")
    ] = 16,
    watchers_per_table: Annotated[
        int, typer.Option("--watchers-per-table", help="WebSocket connections one table may have")
    ] = 200,
    watchers_per_address: Annotated[
        int,
        typer.Option("--watchers-per-address", help="WebSocket connections one address may hold"),
    ] = 32,
    connect_rate: Annotated[
        float,
        typer.Option("--connect-rate", help="WebSocket connections one address may open a minute"),
    ] = 60,
    hint_rate: Annotated[
        float, typer.Option("--hint-rate", help="hints one address may ask for a minute")
    ] = 30,
    read_rate: Annotated[
        float,
        typer.Option("--read-rate", help="lobby lists and records one address may read a minute"),
    ] = 120,
    max_connections: Annotated[
        int, typer.Option("--max-connections", help="open connections (HTTP and WebSocket)")
    ] = 2048,
    connections_per_address: Annotated[
        int,
        typer.Option("--connections-per-address", help="open connections from one address"),
    ] = 64,
    header_timeout: Annotated[
        float, typer.Option("--header-timeout", help="seconds a request's head may take")
    ] = 10,
    body_timeout: Annotated[
        float, typer.Option("--body-timeout", help="seconds a request's body may take")
    ] = 10,
    keep_alive: Annotated[
        int, typer.Option("--keep-alive", help="seconds an idle keep-alive connection stays open")
    ] = 5,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="comma-separated addresses of the proxies whose X-Forwarded-For counts "
            "(default: none, the client's own address is its key)",
        ),
    ] = None,
    sync_rate: Annotated[
        float, typer.Option("--sync-rate", help="sync messages a connection may send per minute")
    ] = 60,
    analysis_iterations: Annotated[
        int,
        typer.Option(
            "--analysis-iterations",
            help="the judge's search iterations per decision ('Analyse my game', hints)",
        ),
    ] = 1000,
    away_after: Annotated[
        float,
        typer.Option(
            "--away-after",
            help="seconds a seated person may be away before the others may hand the seat to a bot",
        ),
    ] = 120,
    stalled_expiry: Annotated[
        float,
        typer.Option(
            "--stalled-expiry",
            help="seconds without a move after which a table being played leaves the lobby",
        ),
    ] = 3600,
    min_turn_timer: Annotated[
        int,
        typer.Option(
            "--min-turn-timer",
            help="shortest turn timer a table may ask for (below 30: tests and demos)",
        ),
    ] = 30,
) -> None:
    """Run the web table: play in the browser with friends and bots.

    Example: [bold]tikki serve --port 8000 --db sqlite:///tikki.sqlite[/]
    """
    try:
        extras.require("web", _("the web table"))
        if db is not None and db.startswith("postgres"):
            extras.require("postgres", _("a PostgreSQL database"))
    except extras.MissingExtra as err:
        raise _fail(str(err)) from None
    from tikki.server.guard import Limits
    from tikki.server.quota import Policy
    from tikki.server.run import ServeError, serve

    try:
        policy = Policy(
            allow_bot_specs=allow_bot_specs,
            bot_workers=bot_workers,
            create_per_minute=create_rate,
            join_per_minute=join_rate,
            tables_per_address=tables_per_address,
            max_tables=max_tables,
            waiting_expiry=waiting_expiry,
            joined_expiry=joined_expiry,
            max_bot_tables=max_bot_tables,
            waiting_per_address=waiting_per_address,
            max_analyses=max_analyses,
            watchers_per_table=watchers_per_table,
            watchers_per_address=watchers_per_address,
            connects_per_minute=connect_rate,
            hints_per_minute=hint_rate,
            reads_per_minute=read_rate,
            sync_per_minute=sync_rate,
            analysis_iterations=analysis_iterations,
            away_after=away_after,
            stalled_expiry=stalled_expiry,
            min_turn_timer=min_turn_timer,
        )
        serve(
            host, port, db, bot_delay, hint_bot, announce=console.print,
            client_seeds=allow_client_seeds, policy=policy,
            limits=Limits(max_connections, connections_per_address, header_timeout,
                          keep_alive, body_timeout),
            forwarded_allow_ips=forwarded_allow_ips,
        )  # fmt: skip
    except (ServeError, ValueError) as err:
        raise _fail(str(err)) from None


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


def _use(lang: str | None) -> None:
    """A command's own ``--lang`` (it overrides ``tikki --lang``)."""
    if lang is not None:
        set_language(lang)


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


def translated_command(lang: str) -> Any:
    """The click command of ``tikki`` with its help texts in ``lang``."""
    try:  # typer 0.29 carries its own click; the bare install has no other
        from typer import _click as click  # type: ignore[attr-defined,unused-ignore]
    except ImportError:  # pragma: no cover - an older typer on top of click
        import click  # type: ignore[no-redef]
    import typer.main
    import typer.rich_utils

    command: Any = typer.main.get_command(app)
    speak = i18n.translator(lang)
    for name, text in {**HELP_WORDS, **HELP_STRINGS}.items():
        setattr(typer.rich_utils, name, speak.gettext(text))
    for cmd in (command, *command.commands.values()):
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
    _fail(f"{message} {help_hint}")
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


BOT_RATINGS = Path(__file__).resolve().parent.parent / "server" / "bot_ratings.json"
"""The bot levels' anchored ratings (written by ``benchmarks/anchors.py``)."""


@app.command("ratings")
def ratings_command(
    game: Annotated[
        str | None, typer.Argument(help="myllymatti, mattis or mueckenstich (default: all)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the ratings as JSON")] = False,
) -> None:
    """The bot levels' anchored ratings: the fixed points of the web table's rating scale
    (OpenSkill from arena runs of the levels against each other)."""
    try:
        data = json.loads(BOT_RATINGS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise _fail(
            _("no bot ratings at {path}: run benchmarks/anchors.py", path=BOT_RATINGS)
        ) from None
    found: dict[str, dict[str, Any]] = data.get("ratings", {})
    if game is not None:
        name = game_name(game)
        if name not in found:
            raise _fail(_("no bot ratings for {game} yet", game=name))
        found = {name: found[name]}
    if as_json:
        typer.echo(json.dumps(found, indent=1))
        return
    table = Table(box=box.SIMPLE)
    for head in (_("game"), _("level"), _("bot"), _("rating"), "mu", "sigma"):
        table.add_column(head)
    for name, levels in found.items():
        ordered = sorted(levels.items(), key=lambda kv: -(kv[1]["mu"] - 3 * kv[1]["sigma"]))
        for spec, r in ordered:
            rating, level = r["mu"] - 3 * r["sigma"], str(r["label"])
            table.add_row(
                name, _(level), spec, f"{rating:.1f}", f"{r['mu']:.1f}", f"{r['sigma']:.1f}"
            )
    Console().print(table)
    typer.echo(
        _(
            "rating = mu - 3 sigma; {games} games per pairing (seed {seed}); a person's "
            "rating at the web table is on the same scale",
            games=data.get("games", "?"),
            seed=data.get("seed", "?"),
        )
    )


__all__ = ["app", "main", "parse_options"]
