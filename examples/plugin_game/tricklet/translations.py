"""Tricklet's own texts in Finnish and German (:attr:`tikki.core.Game.translations`).

Keyed by the English text the game declares or passes to ``Tricklet.translate``; tikki's
catalogs translate tikki's own texts around them (the table, the prompts, the results).
A text missing here stays English.
"""

from __future__ import annotations

from collections.abc import Mapping

SUMMARY = "2–4 players, two minutes. Four tricks of follow-suit; most points wins."
LAST_BONUS = "the last trick scores two points instead of one"
GOAL = "Win tricks: follow suit if you can; the last trick scores two points."
PLAYING = "playing tricks"
NOT_A_CARD = "{move!r} is not a card of Tricklet (e.g. QH, 10S)"
NOT_HELD = "you do not hold {card}"
FOLLOW = "follow suit: play a {suit} card"
OVER = "the game is over"

TRANSLATIONS: Mapping[str, Mapping[str, str]] = {
    "fi": {
        SUMMARY: "2–4 pelaajaa, kaksi minuuttia. Neljä tikkiä, maata tunnustetaan; "
        "eniten pisteitä voittaa.",
        LAST_BONUS: "viimeinen tikki on kahden pisteen arvoinen yhden sijaan",
        GOAL: "Voita tikkejä: tunnusta maata, jos voit; viimeinen tikki tuo kaksi pistettä.",
        PLAYING: "tikkejä pelataan",
        NOT_A_CARD: "{move!r} ei ole Trickletin kortti (esim. QH, 10S)",
        NOT_HELD: "sinulla ei ole korttia {card}",
        FOLLOW: "tunnusta maata: pelaa {suit}-kortti",
        OVER: "peli on ohi",
    },
    "de": {
        SUMMARY: "2–4 Personen, zwei Minuten. Vier Stiche mit Farbzwang; "
        "die meisten Punkte gewinnen.",
        LAST_BONUS: "der letzte Stich zählt zwei Punkte statt einem",
        GOAL: "Gewinne Stiche: Bediene die Farbe, wenn du kannst; der letzte Stich zählt "
        "zwei Punkte.",
        PLAYING: "Stiche werden gespielt",
        NOT_A_CARD: "{move!r} ist keine Karte von Tricklet (z. B. QH, 10S)",
        NOT_HELD: "du hast {card} nicht auf der Hand",
        FOLLOW: "Farbe bedienen: Spiele eine {suit}-Karte",
        OVER: "das Spiel ist vorbei",
    },
}
"""Language → {English text → translation}."""

__all__ = [
    "FOLLOW",
    "GOAL",
    "LAST_BONUS",
    "NOT_A_CARD",
    "NOT_HELD",
    "OVER",
    "PLAYING",
    "SUMMARY",
    "TRANSLATIONS",
]
