"""The ``Your move:`` prompt in a real terminal: readline knows the prompt.

A pseudo-terminal (pexpect) runs ``tikki play``; pyte, a terminal emulator, turns what it
wrote into the screen a person sees.  Recalling history (↑) and editing the line (Ctrl-A)
must redraw the line after the prompt, never over it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pyte

COLUMNS, LINES = 100, 40
UP, CTRL_A = "\x1b[A", "\x01"


def _spawn(tmp_path: Path) -> tuple[pexpect.spawn, pyte.Screen, pyte.Stream]:
    env = {"TERM": "xterm", "COLUMNS": str(COLUMNS), "LINES": str(LINES), "PATH": "/usr/bin:/bin"}
    env["LANG"] = "C.UTF-8"
    env["INPUTRC"] = "/dev/null"  # no personal readline settings
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tikki.cli", "play", "myllymatti", "--seed", "1", "--no-record"],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(LINES, COLUMNS),
    )
    screen = pyte.Screen(COLUMNS, LINES)
    return child, screen, pyte.Stream(screen)


def _feed(child: pexpect.spawn, stream: pyte.Stream, keys: str, expect: str) -> None:
    child.send(keys)
    child.expect(expect)
    stream.feed(child.before + child.after)


def _settle(child: pexpect.spawn, stream: pyte.Stream) -> None:
    """Take in whatever the program wrote until it waits for input."""
    try:
        while True:
            stream.feed(child.read_nonblocking(4096, timeout=0.5))
    except pexpect.TIMEOUT:
        pass


def _cursor_line(screen: pyte.Screen) -> str:
    return str(screen.display[screen.cursor.y]).rstrip()


def test_history_and_line_editing_keep_the_prompt(tmp_path: Path) -> None:
    child, screen, stream = _spawn(tmp_path)
    try:
        child.expect("Your move: ")
        stream.feed(child.before + child.after)
        _feed(child, stream, "pile\r", "Your move: ")
        _feed(child, stream, "log\r", "Your move: ")
        child.send(UP + UP)
        _settle(child, stream)
        assert _cursor_line(screen) == "Your move: pile"
        child.send(CTRL_A + "X")
        _settle(child, stream)
        assert _cursor_line(screen) == "Your move: Xpile"
        child.send("\x05\x15quit\r")  # Ctrl-E, Ctrl-U: the line cleared
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
