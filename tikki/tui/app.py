"""The terminal game loop: one human seat (or none) against bots.

The loop only ever shows the human seat's ``view``; bots get their own seat's view.
Input is forgiving: a move text in any case, the number of a listed legal move, or one of
the commands ``help``, ``rules``, ``log``, ``quit``.  End of input, ``quit`` and Ctrl-C end
the game cleanly and save its record.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from tikki import analysis
from tikki import bots as botlib
from tikki.bots.external import BotFailure
from tikki.cards import parse_input, screen_text
from tikki.core import Game, IllegalMove, RulesError, State
from tikki.i18n import N_, _, tr
from tikki.tui import analysis as analysis_view
from tikki.tui import common, generic, outputs
from tikki.tui.events import event_lines, headline
from tikki.tui.presenter import Presenter

COMMANDS = {
    "help": N_("what each legal move means"),
    "pile": N_("the cards in your pile (the tricks you won)"),
    "rules": N_("the rules of this game"),
    "log": N_("every move so far"),
    "hint": N_("ask the judge (the expert's search, as the analysis) what to play"),
    "quit": N_("stop now (the record is saved)"),
}
"""The commands the prompt takes (typed in English in every language) and what they do."""
ECHO_LIMIT = 40
"""Input longer than this is echoed back shortened."""


def presenter(game: Game) -> Presenter:
    """The presenter of a game: ``PRESENTER`` of the module its class declares
    (:attr:`tikki.core.TerminalParts.presenter`), else of ``tikki.tui.<game name>``, else
    the generic one."""
    declared = type(game).terminal.presenter
    name = declared or f"tikki.tui.{game.name}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if declared or err.name != name:
            raise
        return generic.PRESENTER
    found: Presenter = module.PRESENTER
    return found


@dataclass
class Session:
    """One terminal game: the state, who sits where, and how to talk to the person."""

    game: Game
    state: State
    human: int | None
    bot_specs: list[str]
    console: Console
    read: Callable[[str], str]
    record_path: Path | None
    delay: float = 0.0
    auto: bool = True
    hint_iterations: int = 1000
    """The judge's budget for hints (:data:`tikki.analysis.ITERATIONS`, the analysis's)."""
    memory_aids: bool = False
    complain: Callable[[str], None] | None = None
    forfeit: dict[str, Any] | None = None
    seen: int = 0
    bots: dict[int, botlib.Bot] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        seed = self.state.seed or 0
        for seat in range(self.game.players):
            if seat != self.human:
                self.bots[seat] = botlib.make(self.bot_specs[seat], seed=seed * 101 + seat)
        self.names = common.seat_names(self.game.players, self.human, self.bot_specs)
        self.presenter = presenter(self.game)

    # --- the loop -----------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the person quits; return the exit status.

        0: the game ended or the person quit; 1: a bot failed and forfeited the game
        (the arena's rule); 130: interrupted by Ctrl-C.  The record is saved in every case.
        """
        self._intro()
        status = 0
        try:
            status = self._loop()
        except KeyboardInterrupt:
            self.console.print("\n" + _("Interrupted."))
            status = 130
        finally:
            self._end_bots()
        self._show_events()
        if self.state.is_over:
            self._show_result()
        if not self._save_record() and status == 0:
            status = 1
        if status == 0:
            self._offer_analysis()
        return status

    def _loop(self) -> int:
        while not self.state.is_over:
            seat = self.state.current_player
            assert seat is not None
            if seat == self.human:
                if not self._human_turn(seat):
                    self.console.print(_("Game stopped."))
                    return 0
                continue
            try:
                self._bot_turn(seat)
            except (BotFailure, RulesError, IllegalMove) as err:
                self._show_events()
                self.forfeit = {"seat": seat, "bot": self.bot_specs[seat], "error": str(err)}
                forfeit = _("{name} forfeits the game: {error}", name=self.names[seat], error=err)
                self.console.print(Text(forfeit, style="bold red"))
                return 1
        return 0

    def _end_bots(self) -> None:
        """Tell external bots the game is over and stop their processes."""
        for bot in self.bots.values():
            end = getattr(bot, "end", None)
            if end is not None:
                end(self.state.outcome)

    def _intro(self) -> None:
        players = _("{n} players", n=self.game.players)
        self.console.rule(f"[bold]{self.game.title}[/] — {players}")
        options = _("Options: {options}", options=common.options_line(self.game))
        self.console.print(options, markup=False)  # wrapped between options, not inside one
        if self.human is None:
            self.console.print(_("You are watching: bots play every seat. Ctrl-C stops."))
            return
        self.console.print(
            _(
                "You are seat {seat}. Type a move as the screen shows it ({example}), its "
                "number, or {commands}.",
                seat=self.human,
                example=self._example(),
                commands=" / ".join(COMMANDS),
            )
        )
        if self.auto:
            self.console.print(_("When you have only one legal move, it is played for you."))

    def _example(self) -> str:
        """An example move in both notations, taken from the person's own hand."""
        hand = self.state.view(self.human)["hand"]
        if not hand:
            return _("e.g. take")
        return _("e.g. {card} or {typed}", card=screen_text(hand[-1]), typed=hand[-1].lower())

    def _commands(self) -> dict[str, str]:
        """The commands and what they do, as this session offers them."""
        out = {name: tr(text) for name, text in COMMANDS.items()}
        if self.record_path is None:
            out["quit"] = _("stop now (no record is kept: --no-record)")
        return out

    def _bot_turn(self, seat: int) -> None:
        view = self.state.view(seat)
        move = self.bots[seat].choose(self.game, view)
        self._apply(move)
        if self.delay:
            time.sleep(self.delay)

    def _apply(self, move: str) -> None:
        """Play ``move`` and narrate what the human seat saw happen (the move's events)."""
        self.state.play(move)
        self._show_events()

    def _shown(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view as the table shows it (a game may hide some public history, e.g. the
        won tricks of a game with memory aids, without them); bots and hints get ``view``."""
        return self.presenter.table_view(view, self.memory_aids)

    def _human_turn(self, seat: int) -> bool:
        """Ask until a legal move is played; ``False`` if the person quits."""
        self._show_events()
        view = self.state.view(seat)
        legal = view["legal_moves"]
        if self.auto and len(legal) == 1:
            notice = common.styled(
                _("Your only legal move, {0}, is played for you."),
                common.move_text(legal[0]),
                style="dim",
            )
            self.console.print(notice)
            self._apply(legal[0])
            return True
        self.console.print(self.presenter.render(self._shown(view), self.names))
        while True:
            try:
                line = self.read(_("Your move: "))
            except EOFError:
                self.console.print()
                return False
            answer = line.strip()
            command = answer.lower()
            if command in ("quit", "exit", "q"):
                return False
            if command in COMMANDS or command in ("?", "h"):
                self._command(command, view)
                continue
            if not answer:
                continue
            if self._try(answer, seat, legal):
                return True

    def _try(self, answer: str, seat: int, legal: Sequence[str]) -> bool:
        """Play what the person typed, or explain why it is not legal (``False``)."""
        if answer.isascii() and answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(legal):
                self._apply(legal[number - 1])
                return True
            span = "1" if len(legal) == 1 else f"1–{len(legal)}"
            nothing = _(
                "There is no move {typed}: choose {span}.", typed=common.shorten(answer), span=span
            )
            self.console.print(Text(nothing, "yellow"))
            return False
        parsed = _numbered(answer, legal) or parse_input(answer)
        try:
            self._apply(parsed)
        except IllegalMove as err:
            message = common.friendly_error(str(err), seat, answer, parsed)
            self.console.print(Text(_("Not legal: {message}", message=message), style="yellow"))
            self.console.print(_("Type help to see what each move means."))
            return False
        return True

    def _command(self, command: str, view: dict[str, Any]) -> None:
        if command in ("help", "?", "h"):
            table = Table(title=_("Your legal moves"), title_justify="left")
            table.add_column("#", justify="right")
            table.add_column(_("Move"))
            table.add_column(_("What it does"))
            for i, move in enumerate(view["legal_moves"], 1):
                what = screen_text(self.presenter.explain(view, move))
                table.add_row(str(i), common.move_text(move), what)
            self.console.print(table)
            commands = self._commands().items()
            listed = "; ".join(f"{k} — {v}" for k, v in commands)
            self.console.print(_("Commands: {commands}", commands=listed), markup=False)
        elif command == "pile":
            self.console.print(self.presenter.pile(self._shown(view)))
        elif command == "rules":
            self.console.print(Markdown(self.game.rules_text or _("No rules text.")))
        elif command == "hint":
            self._hint(view)
        elif command == "log":
            for entry in self._shown(view)["history"]:
                self.console.print(self._sentence(entry))

    def _hint(self, view: dict[str, Any]) -> None:
        """Ask the judge (the expert's search, as the analysis) for the move and its value:
        the move the analysis will rate best here at the same budget."""
        number = len(self.state.moves) + 1
        seed = analysis.decision_seed(0, number)
        with self.console.status(_("Thinking...")):
            found = analysis.appraise(self.game, view, self.hint_iterations, seed)
        best = common.move_text(found.best)
        if found.how == "rule":
            line = common.styled(_("Hint: {0} (the expert's rule for discards)"), best)
            self.console.print(line)
            return

        def worth(move: str) -> str:
            value, error = found.values[move], found.errors[move]
            if found.kind == "not_loser":
                return f"{value:.0%} ±{error:.0%}"
            return f"{value:+.1f} ±{error:.1f}"

        others = [m for m in found.values if m != found.best]
        chance = found.kind == "not_loser"
        if others:
            if chance:
                template = _("Hint: {0} (chance of not losing {value}; next best {1} {other})")
            else:
                template = _("Hint: {0} (points this round {value}; next best {1} {other})")
            second = common.move_text(others[0])
            line = common.styled(
                template, best, second, value=worth(found.best), other=worth(others[0])
            )
        else:
            if chance:
                template = _("Hint: {0} (chance of not losing {value})")
            else:
                template = _("Hint: {0} (points this round {value})")
            line = common.styled(template, best, value=worth(found.best))
        self.console.print(line)

    # --- output -------------------------------------------------------------------------

    def _sentence(self, entry: dict[str, Any]) -> Text:
        return self.presenter.event(entry, self.names)

    def _show_events(self) -> None:
        seat = self.human
        history = self.state.history(seat)
        for index in range(self.seen, len(history)):
            line, entry = headline(
                history[index], self._sentence(history[index]), self.names, self.game.name
            )
            self.console.print(line)
            # a round's result and score sheet come before the next deal's events
            events = list(entry.get("events", ()))
            cut = next((i + 1 for i, e in enumerate(events) if e["type"] == "round"), len(events))
            self._event_lines({**entry, "events": events[:cut]})
            self._after_round(history, index)
            self._event_lines({**entry, "events": events[cut:]})
        self.seen = len(history)

    def _event_lines(self, entry: dict[str, Any]) -> None:
        for line in event_lines(entry, self.names, self.game.name):
            self.console.print(line)

    def _after_round(self, history: list[dict[str, Any]], index: int) -> None:
        """After a ``round`` event: the presenter's score breakdown, while the match goes
        on its score sheet, then the rest of what the presenter says (the next dealer)."""
        if not any(e["type"] == "round" for e in history[index].get("events", ())):
            return
        view = self.state.view(self.human)
        lines = self.presenter.round_scored(history, index, view, self.names)
        for line in lines[:1]:
            self.console.print(line)
        sheet = self.presenter.score_sheet(view, self.names)
        if sheet is not None and not self.state.is_over:
            self.console.print(sheet)
        for line in lines[1:]:
            self.console.print(line)

    def _show_result(self) -> None:
        view = self.state.view(self.human)
        shown = self.presenter.result(view, self.names)
        if shown is not None:
            self.console.print(shown)
        else:
            self.console.print(_("Game over: {outcome}", outcome=self.state.outcome), markup=False)

    def _offer_analysis(self) -> None:
        """At the end of a finished game, offer to judge the person's moves right here
        (``tikki analyse``'s defaults, with a progress bar); end of input declines."""
        if self.human is None or not self.state.is_over:
            return
        try:
            answer = self.read(_("Analyse your moves now? It takes a minute or two. (y/N) "))
        except EOFError:
            self.console.print()
            return
        if answer.strip().lower() not in YES:
            self.console.print(_("No analysis."))  # the shell's prompt on a line of its own
            return
        try:
            result = analysis_view.run(
                self.console,
                self.state.record(),
                self.human,
                analysis.ITERATIONS,
                jobs=analysis_view.offer_jobs(),
            )
        except KeyboardInterrupt:
            self.console.print(_("Analysis stopped."))
            return
        analysis_view.show(self.console, result)

    def record(self) -> dict[str, Any]:
        """The game's record with who sat where (``you`` or a bot spec, ``seats``) and a
        bot's forfeit (``forfeit``: its seat, spec and error), for ``tikki replay``."""
        record: dict[str, Any] = self.state.record()
        record["seats"] = list(self.bot_specs)
        if self.forfeit is not None:
            record["forfeit"] = dict(self.forfeit)
        return record

    def _save_record(self) -> bool:
        """Save the record; if that fails, save it to a spare file and say so (``False``)."""
        if self.record_path is None:
            return True
        target = outputs.Output("--record", self.record_path, "json")
        text = json.dumps(self.record(), indent=1) + "\n"

        def write(path: Path) -> None:
            if path == self.record_path:
                path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8") as file:
                file.write(text)

        written: list[Path] = []

        def note(message: str) -> None:
            (self.complain or self.console.print)(message)

        def tracked(path: Path) -> None:
            write(path)
            written.append(path)

        ok = outputs.save(target, tracked, note)
        if not written:
            return False
        path = written[-1]
        self.console.print(
            _("Record saved to {path} — replay it with: tikki replay {path}", path=path),
            markup=False,
        )
        if self.human is not None and self.state.is_over:
            self.console.print(
                _(
                    "See how well you played: tikki analyse {path} --seat {seat}",
                    path=path,
                    seat=self.human,
                ),
                markup=False,
            )
        return ok


def _numbered(answer: str, legal: Sequence[str]) -> str | None:
    """A move copied off the legal-moves line with its number (``1:2♣``): the move, if
    that number lists it."""
    number, colon, rest = answer.partition(":")
    if not colon or not number.strip().isdigit():
        return None
    index = int(number) - 1
    move = parse_input(rest)
    if 0 <= index < len(legal) and legal[index].casefold() == move.casefold():
        return legal[index]
    return None


YES = frozenset({"y", "yes", "k", "kyllä", "kylla", "j", "ja"})
"""Answers that accept the offered analysis (English, Finnish, German; any case)."""


def default_record_path(game: Game) -> Path:
    """``records/<game>-<date>-<time>.json`` in the working directory."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path("records") / f"{game.name}-{stamp}.json"
