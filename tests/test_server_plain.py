"""One source for what people's free texts and names may hold (tikki.server.plain)."""

from __future__ import annotations

import pytest

from tikki.server import chat
from tikki.server.plain import one_line, printable
from tikki.server.tournaments.routes import shown_name


@pytest.mark.parametrize("text", ["\x00", "\x1b", "\u202e", "\u200b", "\ue000"])
def test_no_control_format_or_private_character_is_printable(text: str) -> None:
    assert not printable(f"an{text}na")
    assert one_line(f"an{text}na") == "anna"


def test_words_broken_by_a_new_line_stay_apart_in_a_chat_message() -> None:
    assert chat.clean("good\ngame\t\x00 all ") == "good game all"
    assert chat.clean("\u202e\n") is None


def test_a_tournament_name_and_a_chat_message_are_cleaned_alike() -> None:
    text = "  Spring\u202e\n cup\x07 "
    assert shown_name(text) == chat.clean(text) == "Spring cup"
