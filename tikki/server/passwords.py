"""How strong a new password is, and which device a session was started on.

A new password (at registration and when changed) must resist guessing: ``zxcvbn``
(Dropbox's estimator, as the ``zxcvbn`` package ships it) scores it from 0 to 4 against
lists of common passwords, words, names, keyboard rows, dates and repeats (and the
account's own name); below :data:`MIN_SCORE` it is refused with the estimator's warning
and advice, in the request's language.

A session's device is told in words from the browser's ``User-Agent`` ("Firefox",
"Linux"): a coarse label for the owner's list of devices, never used to decide anything.
"""

from __future__ import annotations

import re
from typing import Any

from zxcvbn import zxcvbn  # type: ignore[import-untyped]

from tikki.i18n import N_, _, tr

MIN_SCORE = 2
"""The least score (0–4) a new password needs: 2 resists online guessing (about 10^8
guesses), and logins here are throttled to a few a minute."""

WARNINGS = {
    "Straight rows of keys are easy to guess.": N_("straight rows of keys are easy to guess"),
    "Short keyboard patterns are easy to guess.": N_("short keyboard patterns are easy to guess"),
    'Repeats like "aaa" are easy to guess.': N_("repeated characters are easy to guess"),
    'Repeats like "abcabcabc" are only slightly harder to guess than "abc".': N_(
        "repeated words are only slightly harder to guess than one"
    ),
    'Sequences like "abc" or "6543" are easy to guess.': N_(
        "sequences like abc or 6543 are easy to guess"
    ),
    "Recent years are easy to guess.": N_("recent years are easy to guess"),
    "Dates are often easy to guess.": N_("dates are easy to guess"),
    "This is a top-10 common password.": N_("it is one of the 10 most common passwords"),
    "This is a top-100 common password.": N_("it is one of the 100 most common passwords"),
    "This is a very common password.": N_("it is a very common password"),
    "This is similar to a commonly used password.": N_("it is like a commonly used password"),
    "A word by itself is easy to guess.": N_("a word by itself is easy to guess"),
    "Names and surnames by themselves are easy to guess.": N_("a name by itself is easy to guess"),
    "Common names and surnames are easy to guess.": N_("common names are easy to guess"),
}
"""The estimator's warnings (English, as it gives them) in this server's words."""

ADVICE = {
    "Use a few words, avoid common phrases.": N_("use a few words, not a common phrase"),
    "Add another word or two. Uncommon words are better.": N_(
        "add another word or two (uncommon words are better)"
    ),
    "Use a longer keyboard pattern with more turns.": N_(
        "use a longer keyboard pattern with more turns"
    ),
    "Avoid repeated words and characters.": N_("avoid repeated words and characters"),
    "Avoid sequences.": N_("avoid sequences"),
    "Avoid recent years.": N_("avoid recent years"),
    "Avoid years that are associated with you.": N_("avoid years that belong to you"),
    "Avoid dates and years that are associated with you.": N_(
        "avoid dates and years that belong to you"
    ),
    "Capitalization doesn't help very much.": N_("capital letters do not help much"),
    "All-uppercase is almost as easy to guess as all-lowercase.": N_(
        "all capitals are almost as easy to guess as none"
    ),
    "Reversed words aren't much harder to guess.": N_(
        "a word spelled backwards is not much harder to guess"
    ),
    "Predictable substitutions like '@' instead of 'a' don't help very much.": N_(
        "swapping letters for look-alikes (@ for a) does not help much"
    ),
}
"""The estimator's advice in this server's words."""

DEFAULT_WARNING = N_("it is short or predictable")
NAME_WARNING = N_("it contains your name")
DEFAULT_ADVICE = ADVICE["Add another word or two. Uncommon words are better."]


def weakness(password: str, name: str = "") -> str | None:
    """Why ``password`` is too easy to guess, in words of the current language, or ``None``
    when it is strong enough (:data:`MIN_SCORE`); the account's ``name`` counts as known.

    >>> print(weakness("password"))  # doctest: +ELLIPSIS
    this password is too easy to guess: it is one of the 10 most common passwords; ...
    >>> weakness("violet lantern harbour") is None
    True
    """
    result: dict[str, Any] = zxcvbn(password[:100], user_inputs=[name] if name else [])
    if int(result["score"]) >= MIN_SCORE:
        return None
    feedback = result.get("feedback") or {}
    warning = WARNINGS.get(str(feedback.get("warning") or ""), DEFAULT_WARNING)
    if name and name.casefold() in password.casefold():
        warning = NAME_WARNING
    advice = next(
        (
            ADVICE[s]
            for s in feedback.get("suggestions") or ()
            if ADVICE.get(s, DEFAULT_ADVICE) != DEFAULT_ADVICE
        ),
        DEFAULT_ADVICE,
    )
    return _(
        "this password is too easy to guess: {reason}; {advice}",
        reason=tr(warning),
        advice=tr(advice),
    )


BROWSERS = (
    ("Edge", re.compile(r"\bEdg(e|A|iOS)?/")),
    ("Opera", re.compile(r"\bOPR/|\bOpera\b")),
    ("Samsung Internet", re.compile(r"\bSamsungBrowser/")),
    ("Firefox", re.compile(r"\bFirefox/|\bFxiOS/")),
    ("Chrome", re.compile(r"\b(Headless)?Chrome/|\bCriOS/|\bChromium/")),
    ("Safari", re.compile(r"\bSafari/")),
)
"""Browsers by their ``User-Agent`` token, the more specific first (Edge says Chrome too)."""

SYSTEMS = (
    ("Android", re.compile(r"\bAndroid\b")),
    ("iOS", re.compile(r"\biPhone|\biPad|\biPod")),
    ("ChromeOS", re.compile(r"\bCrOS\b")),
    ("Windows", re.compile(r"\bWindows\b")),
    ("macOS", re.compile(r"\bMac OS X\b|\bMacintosh\b")),
    ("Linux", re.compile(r"\bLinux\b|\bX11\b")),
)
"""Operating systems by their ``User-Agent`` token (Android says Linux too)."""


def device(user_agent: str | None) -> tuple[str | None, str | None]:
    """The browser and the system a ``User-Agent`` names (``None`` for one it does not).

    >>> device("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")
    ('Firefox', 'Linux')
    >>> device("curl/8.5.0")
    (None, None)
    """
    text = user_agent or ""
    browser = next((name for name, pattern in BROWSERS if pattern.search(text)), None)
    system = next((name for name, pattern in SYSTEMS if pattern.search(text)), None)
    return browser, system


__all__ = ["MIN_SCORE", "device", "weakness"]
