"""``tikki replay``: a record replayed move by move, each move verified."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from tikki import arena, i18n
from tikki.cli.shared import (
    LangOption,
    use_lang,
)
from tikki.commandline import console, fail
from tikki.core import RulesError, State, games, replay
from tikki.i18n import _
from tikki.tui import common, outputs
from tikki.tui.app import presenter
from tikki.tui.events import event_lines, headline
from tikki.views import match_outcome, shedding_outcome


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
    use_lang(lang)
    data = read_record(target, db)
    state = verify(target, data)
    if seat is not None and not 0 <= seat < state.game.players:
        raise fail(_("no seat {seat}: seats are 0–{last}", seat=seat, last=state.game.players - 1))
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


def verify(target: str, data: Any) -> State:
    """Replay ``data``; a bad or truncated record ends the command with exit status 1."""
    if not isinstance(data, dict):
        raise fail(_("{file}: a record is a JSON object", file=target), 1)
    if "game" in data and not isinstance(data["game"], str):
        names = ", ".join(games())
        raise fail(
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
        raise fail(f"{target}: {err}", 1) from None
    except (TypeError, AttributeError) as err:  # a field of the wrong JSON type
        wrong = _(
            "{file}: a field of the record has the wrong type ({error})", file=target, error=err
        )
        raise fail(wrong, 1) from None
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
            raise fail(wrong, 1)
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


def read_record(target: str, db: Path | None) -> Any:
    """The record ``target`` names: a JSON file, or a game id in the arena database ``db``;
    a missing or broken one ends the command with exit status 1 (2 for a bad game id)."""
    if db is not None:
        if not target.isdigit():
            raise fail(_("with --db, give a game id (a number), not {target!r}", target=target))
        try:
            return arena.load_record(outputs.check_input("--db", db), int(target))
        except (RulesError, outputs.OutputError) as err:
            raise fail(str(err), 1) from None
    file = Path(target)
    try:
        return json.loads(file.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise fail(_("no such file: {file}", file=file), 1) from None
    except IsADirectoryError:
        raise fail(_("{file} is a folder, not a record file", file=file), 1) from None
    except PermissionError:
        raise fail(_("{file} is not readable (permission denied)", file=file), 1) from None
    except OSError as err:
        raise fail(_("cannot read {file}: {error}", file=file, error=err.strerror), 1) from None
    except UnicodeDecodeError as err:
        bad = _(
            "{file} is not a JSON record: it is not UTF-8 text (byte {offset} is not valid)",
            file=file,
            offset=err.start + 1,
        )
        raise fail(bad, 1) from None
    except json.JSONDecodeError as err:
        bad = _(
            "{file} is not a JSON record: the JSON breaks off at line {line}, column {column}",
            file=file,
            line=err.lineno,
            column=err.colno,
        )
        raise fail(bad, 1) from None


def _print_replay(state: State, seat: int | None = None) -> None:
    g = state.game
    names = [common.seat_name(s) for s in range(g.players)]
    describe = presenter(g).event
    for i, whole in enumerate(state.history(seat), 1):
        line, entry = headline(whole, describe(whole, names), names, g.name)
        console.print(f"{i:4d}. ", line, sep="")
        for event in event_lines(entry, names, g.name):
            console.print("      ", event, sep="")
