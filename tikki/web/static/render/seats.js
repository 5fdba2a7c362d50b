// @ts-check
// Sentences about seats that may be the player's own. A name slot is
// never filled with "You": a message about the player themself has its own sentence in
// every language (`You won the trick`, not `Trick won by You`), and in a list of seats the
// player is the lowercase pronoun (`Anna and you`). Every function returns plain text
// (callers escape it); tests/test_web_sentences.py renders each one with the player in
// each place, in English, Finnish and German, against a list of expected sentences.
import { YOU } from "../api.js";
import { _, ngettext } from "../i18n.js";
import { andList, withMinus } from "../words.js";

/** Whether `names[seat]` is the player's own seat.
 * @param {string[]} names the seats' names
 * @param {number} seat */
export const isYou = (names, seat) => names[seat] === YOU;

/** A seat's name in a list or an aside: `you` for the player's own seat.
 * @param {string[]} names the seats' names
 * @param {number} seat
 * @returns {string} */
export function inList(names, seat) {
  return isYou(names, seat) ? _("you") : (names[seat] ?? "");
}

/** `Anna, Ben and you`: the seats in the page's language.
 * @param {string[]} names the seats' names
 * @param {number[]} seats
 * @returns {string} */
export function seatList(names, seats) {
  return andList(seats.map((s) => inList(names, s)));
}

/** The heading of the trick just won: `You won the trick` / `Trick won by Anna`.
 * @param {string[]} names the seats' names
 * @param {number} seat
 * @returns {string} */
export function trickWonBy(names, seat) {
  return isYou(names, seat) ? _("You won the trick") : _("Trick won by {name}", { name: names[seat] ?? "" });
}

/** Under "Last trick": `you won it` / `won by Anna`.
 * @param {string[]} names the seats' names
 * @param {number} seat
 * @returns {string} */
export function wonBy(names, seat) {
  return isYou(names, seat) ? _("you won it") : _("won by {name}", { name: names[seat] ?? "" });
}

/** The heading of a trick being played: `Trick: Anna, Ben and you`, `Duel: …`, `War: …`.
 * @param {string} kind
 * @param {string[]} names the seats' names
 * @param {number[]} seats
 * @returns {string} */
export function roundHeading(kind, names, seats) {
  const list = seatList(names, seats);
  if (kind === "duel") return _("Duel: {names}", { names: list });
  if (kind === "war") return _("War: {names}", { names: list });
  return _("Trick: {names}", { names: list });
}

/** A tie for the highest rank (kina, war): the player's own sentence when they are in it
 * (`Kina: you tie with Anna and Ben for …`).
 * @param {string} tie the tie's word
 * @param {string[]} names the seats' names
 * @param {number[]} seats
 * @returns {string} */
export function tieLine(tie, names, seats) {
  const others = seats.filter((s) => !isYou(names, s));
  if (others.length < seats.length) {
    return _("{tie}: you tie with {names} for the highest rank and play again.", {
      tie,
      names: seatList(names, others),
    });
  }
  return _("{tie}: {names} tie for the highest rank and play again.", { tie, names: seatList(names, seats) });
}

/** Who begins the new phase, after a semicolon: `you lead` / `Anna leads`, `you choose`
 * / `Anna chooses`, `you go first` / `Anna goes first` (`verb`: `lead`, `choose` or
 * `first`, for a phase a game declares that need not be a trick's).
 * @param {string[]} names the seats' names
 * @param {number} seat
 * @param {string} verb
 * @returns {string} */
export function leadClause(names, seat, verb) {
  if (verb === "choose") {
    return isYou(names, seat) ? _("you choose") : _("{name} chooses", { name: names[seat] ?? "" });
  }
  if (verb === "first") {
    return isYou(names, seat) ? _("you go first") : _("{name} goes first", { name: names[seat] ?? "" });
  }
  return isYou(names, seat) ? _("you lead") : _("{name} leads", { name: names[seat] ?? "" });
}

/** A match's winners with `n` points: `You win`, `Anna wins`, or a shared win
 * (`A shared win with 5 points: Anna and you.`: no verb to agree with the list).
 * @param {string[]} names the seats' names
 * @param {number[]} seats
 * @param {number} n
 * @returns {string} */
export function winnersLine(names, seats, n) {
  if (seats.length === 1) {
    return isYou(names, seats[0])
      ? ngettext("You win with {n} point.", "You win with {n} points.", n, { n: withMinus(n) })
      : ngettext("{names} wins with {n} point.", "{names} wins with {n} points.", n, { n: withMinus(n), names: names[seats[0]] ?? "" });
  }
  return ngettext("A shared win with {n} point: {names}.", "A shared win with {n} points: {names}.", n, {
    n: withMinus(n),
    names: seatList(names, seats),
  });
}
