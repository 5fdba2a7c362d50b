"""Plain text from people: one source for what a free text or a name may hold.

Every text a person types that others are shown, or that reaches the database, goes
through one of these: Unicode's "other" characters (category ``C``: controls such as a
NUL, which PostgreSQL refuses in a query, or an escape; format characters such as a
right-to-left override, which would turn the text around others' words; unassigned and
private-use code points) are never shown to anyone.
"""

from __future__ import annotations

import unicodedata


def printable(text: str) -> bool:
    """Whether ``text`` holds no control, format or other ``C`` character (no account
    name, no address and no id the server makes holds one).

    >>> printable("Anna"), printable("an\\x00na"), printable("an\\u202ena")
    (True, False, False)
    """
    return not any(unicodedata.category(c)[0] == "C" for c in text)


def one_line(text: str) -> str:
    """``text`` without control, format or other ``C`` characters, its whitespace (new
    lines and tabs included) collapsed to single spaces, without outer spaces.

    >>> one_line("  Spring\\u202e  cup\\x00\\n"), one_line("a\\nb\\tc")
    ('Spring cup', 'a b c')
    """
    kept = "".join(c for c in text if c.isspace() or unicodedata.category(c)[0] != "C")
    return " ".join(kept.split())
