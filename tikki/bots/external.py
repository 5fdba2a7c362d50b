"""External bots: ``cmd:PROGRAM ARGS`` runs a bot as a separate process, in any language.

The protocol is one JSON object per line.  For every decision tikki writes::

    {"type": "choose", "game": "<name>", "players": 3, "options": {...},
     "seat": 1, "view": {... the seat's view, with "legal_moves" ...}}

and the bot answers with one line ``{"move": "7H"}`` (a bare JSON string ``"7H"`` is
accepted too).  When the game ends tikki writes ``{"type": "end", "outcome": {...}}``
and closes the bot's input.  Anything the bot writes to standard error is passed through.

A bot that crashes, answers late (``timeout`` seconds, default 10) or answers something
that is not a legal move raises :class:`BotFailure` with a clear report; the arena counts
that game as lost by the bot and goes on.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Mapping
from typing import IO, Any

from tikki.core import Game, RulesError
from tikki.i18n import _ as _t


class BotFailure(RuntimeError):
    """An external bot crashed, timed out or answered an illegal move."""


class ExternalBot:
    """A bot in another process, spoken to in JSON lines (see the module notes)."""

    name = "cmd"

    def __init__(
        self, seed: int | None = None, command: str = "", timeout: float | str = 10.0
    ) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as err:
            raise RulesError(
                _t("cannot read the bot command line {command!r}: {err}", command=command, err=err)
            ) from None
        if not self.argv:
            raise RulesError(_t("a cmd bot needs a command line: cmd:PROGRAM ARGS"))
        self.seed = seed
        self.timeout = float(timeout)
        self.proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    def _start(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            try:
                self.proc = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    bufsize=1,
                )
            except OSError as err:
                raise BotFailure(f"cannot start bot {self.argv[0]!r}: {err}") from None
            self._lines = queue.Queue()
            assert self.proc.stdout is not None
            threading.Thread(
                target=_pump, args=(self.proc.stdout, self._lines), daemon=True
            ).start()
        return self.proc

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """Send the view, wait for the answer, check it is legal."""
        proc = self._start()
        message = {
            "type": "choose",
            "game": game.name,
            "players": game.players,
            "options": game.options,
            "seat": view.get("seat"),
            "view": view,
        }
        self._send(proc, message)
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self.close()
            raise BotFailure(
                f"bot {self.argv[0]!r} did not answer within {self.timeout:g} s"
            ) from None
        if line is None:
            code = proc.wait()
            raise BotFailure(f"bot {self.argv[0]!r} exited (status {code}) without answering")
        move = _parse_answer(line, self.argv[0])
        if move not in view.get("legal_moves", []):
            raise BotFailure(
                f"bot {self.argv[0]!r} answered {move!r}, not a legal move "
                f"(legal: {', '.join(view.get('legal_moves', []))})"
            )
        return move

    def _send(self, proc: subprocess.Popen[str], message: Mapping[str, Any]) -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            code = proc.wait()
            raise BotFailure(f"bot {self.argv[0]!r} exited (status {code})") from None

    def end(self, outcome: Mapping[str, Any] | None) -> None:
        """Tell the bot the game is over and stop it."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(BotFailure):
                self._send(self.proc, {"type": "end", "outcome": outcome})
        self.close()

    def close(self) -> None:
        """Stop the process (politely, then by force)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        if line.strip():
            lines.put(line)
    lines.put(None)


def _parse_answer(line: str, program: str) -> str:
    try:
        answer = json.loads(line)
    except json.JSONDecodeError:
        raise BotFailure(f"bot {program!r} answered {line.strip()!r}, not JSON") from None
    if isinstance(answer, dict):
        answer = answer.get("move")
    if not isinstance(answer, str):
        raise BotFailure(f'bot {program!r} answered {line.strip()!r}: expected {{"move": "..."}}')
    return answer
