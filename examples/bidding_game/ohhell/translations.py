"""Oh Hell's own texts in Finnish and German (:attr:`tikki.core.Game.translations`).

Keyed by the English text the game declares or passes to ``OhHell.translate``; tikki's
catalogs translate tikki's own texts around them (the table, the prompts, the results).
A text missing here stays English.
"""

from __future__ import annotations

from collections.abc import Mapping

SUMMARY = (
    "3–5 players, ten minutes. Bid the tricks you will take, then take exactly that many; "
    "the hands shrink by a card each round."
)
HAND = "cards in each hand in the first round; each round deals one fewer, down to one"
HOOK = "the dealer, bidding last, may not make the bids add up to the cards in hand"
BIDDING = "bidding"
PLAYING = "playing tricks"
BID_GOAL = "Bid how many tricks you will take: exactly that many scores 10 and a point a trick."
PLAY_GOAL = "Take exactly the tricks you bid: follow suit if you can; trumps beat the rest."
BID_TITLE = "a bid of {n}"
BIDS = "Bid"
TRICKS = "Tricks"
NOT_A_BID = "{move!r} is no bid: bid a number of tricks, e.g. bid 1"
BID_RANGE = "bid from 0 to {most} tricks"
HOOKED = "the bids may not add up to {cards}: bid anything but {bid}"
NOT_A_CARD = "{move!r} is not a card of Oh Hell (e.g. QH, 10S)"
NOT_HELD = "you do not hold {card}"
FOLLOW = "follow suit: play a {suit} card"
BIDDING_OVER = "the bidding is over: play a card"
OVER = "the game is over"

TRANSLATIONS: Mapping[str, Mapping[str, str]] = {
    "fi": {
        SUMMARY: "3–5 pelaajaa, kymmenen minuuttia. Tarjoa tikit, jotka otat, ja ota "
        "juuri ne; kädet pienenevät kortilla joka kierroksella.",
        HAND: "kortteja kussakin kädessä ensimmäisellä kierroksella; joka kierros jaetaan "
        "yksi vähemmän, yhteen asti",
        HOOK: "viimeisenä tarjoava jakaja ei saa tehdä tarjousten summasta käden korttien määrää",
        BIDDING: "tarjoukset",
        PLAYING: "tikkejä pelataan",
        BID_GOAL: "Tarjoa, montako tikkiä otat: juuri niin monta tuo 10 ja pisteen tikiltä.",
        PLAY_GOAL: "Ota juuri tarjoamasi tikit: tunnusta maata, jos voit; valtti voittaa muut.",
        BID_TITLE: "tarjous {n}",
        BIDS: "Tarjous",
        TRICKS: "Tikit",
        NOT_A_BID: "{move!r} ei ole tarjous: tarjoa tikkien määrä, esim. bid 1",
        BID_RANGE: "tarjoa 0–{most} tikkiä",
        HOOKED: "tarjousten summa ei saa olla {cards}: tarjoa mitä tahansa paitsi {bid}",
        NOT_A_CARD: "{move!r} ei ole Oh Hellin kortti (esim. QH, 10S)",
        NOT_HELD: "sinulla ei ole korttia {card}",
        FOLLOW: "tunnusta maata: pelaa {suit}-kortti",
        BIDDING_OVER: "tarjoukset on tehty: pelaa kortti",
        OVER: "peli on ohi",
    },
    "de": {
        SUMMARY: "3–5 Personen, zehn Minuten. Sage an, wie viele Stiche du machst, und mache "
        "genau so viele; jede Runde gibt es eine Karte weniger.",
        HAND: "Karten je Hand in der ersten Runde; jede Runde eine weniger, bis zu einer",
        HOOK: "wer gibt, sagt zuletzt an und darf die Summe der Ansagen nicht auf die "
        "Kartenzahl bringen",
        BIDDING: "Ansagen",
        PLAYING: "Stiche werden gespielt",
        BID_GOAL: "Sage an, wie viele Stiche du machst: genau so viele bringen 10 und einen "
        "Punkt je Stich.",
        PLAY_GOAL: "Mache genau die angesagten Stiche: Bediene die Farbe, wenn du kannst; "
        "Trumpf sticht.",
        BID_TITLE: "Ansage {n}",
        BIDS: "Ansage",
        TRICKS: "Stiche",
        NOT_A_BID: "{move!r} ist keine Ansage: Sage eine Zahl von Stichen an, z. B. bid 1",
        BID_RANGE: "sage 0 bis {most} Stiche an",
        HOOKED: "die Ansagen dürfen zusammen nicht {cards} ergeben: sage alles außer {bid} an",
        NOT_A_CARD: "{move!r} ist keine Karte von Oh Hell (z. B. QH, 10S)",
        NOT_HELD: "du hast {card} nicht auf der Hand",
        FOLLOW: "Farbe bedienen: Spiele eine {suit}-Karte",
        BIDDING_OVER: "die Ansagen sind vorbei: Spiele eine Karte",
        OVER: "das Spiel ist vorbei",
    },
}
"""Language → {English text → translation}."""
