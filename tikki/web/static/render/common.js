// @ts-check
// Pieces shared by the game renderers: rows of cards, trick plays, the stock, results.
import { backSVG, cardName, cardSVG, colourChip } from "../cards.js";
import { YOU, esc } from "../api.js";
import { _, format, ngettext } from "../i18n.js";
import { roundHeading } from "./seats.js";

/** One card, not clickable, with its name for screen readers.
 * @param {string} text
 * @param {string} [extra] more classes
 * @returns {string} */
export function cardImg(text, extra = "") {
  return `<span class="card static ${extra}" role="img" aria-label="${esc(cardName(text))}">${cardSVG(text)}</span>`;
}

/** A face-down card.
 * @param {string} [label]
 * @param {string} [extra] more classes
 * @returns {string} */
export function backImg(label = _("face-down card"), extra = "") {
  return `<span class="card static back ${extra}" role="img" aria-label="${esc(label)}">${backSVG()}</span>`;
}

/** A row of cards (a play, a run, a trick) as one labelled group.
 * @param {string[]} cards
 * @param {string} [label]
 * @returns {string} */
export function cardRow(cards, label) {
  const names = cards.map(cardName).join(", ");
  const text = label ? _("{who}: {cards}", { who: label, cards: names }) : names;
  return `<span class="card-row" role="group" aria-label="${esc(text)}">${cards
    .map((c) => cardImg(c))
    .join("")}</span>`;
}

/** A trick slot: the cards a seat put in, its name under them, a note (stock, slough).
 * @param {string[]} cards
 * @param {string} who
 * @param {string} [note]
 * @param {string} [extra] more classes
 * @returns {string} */
export function trickSlot(cards, who, note = "", extra = "") {
  return (
    `<figure class="slot ${extra}">${cardRow(cards, who)}` +
    `<figcaption><span class="who">${esc(who)}</span>${note ? ` <span class="note">${esc(note)}</span>` : ""}</figcaption></figure>`
  );
}

/** The stock: a face-down pile with its count; a button when `stock` is a legal move.
 * @param {number} size
 * @param {boolean} playable
 * @returns {string} */
export function stockPile(size, playable) {
  if (!size) return `<div class="pile empty"><span class="pile-label">${esc(_("Stock empty"))}</span></div>`;
  const label = esc(ngettext("Stock, {n} card", "Stock, {n} cards", size));
  const inner = `${backSVG()}<span class="pile-count" aria-hidden="true">${size}</span>`;
  const body = playable
    ? `<button type="button" class="card pile-card legal" data-move="stock" aria-label="${esc(_("{stock}: turn the top card", { stock: label }))}">${inner}</button>`
    : `<span class="card static pile-card" role="img" aria-label="${label}">${inner}</span>`;
  return `<div class="pile">${body}<span class="pile-label">${esc(_("Stock · {n}", { n: size }))}</span></div>`;
}

/** A labelled fact for the table's info line: `Trump ♥ hearts` (`extra`: more classes).
 * @param {string} label
 * @param {string} valueHtml
 * @param {string} [extra]
 * @returns {string} */
export function fact(label, valueHtml, extra = "") {
  return `<div class="fact${extra ? ` ${extra}` : ""}"><span class="fact-label">${esc(label)}</span> <span class="fact-value">${valueHtml}</span></div>`;
}

/**
 * @param {string | null | undefined} letter
 * @returns {string}
 */
export function suitFact(letter) {
  return letter ? colourChip(letter) : `<span class="muted">${esc(_("none yet"))}</span>`;
}

/** A sentence about a seat, its verb agreeing with it: `youText` for the viewer's own
 * seat (`{name} lead` → `You lead`), `otherText` else (`Anna leads`); both translated,
 * with `{name}` (filled here, escaped) and `params` (HTML, as given).
 * @param {string[]} names the seats' names
 * @param {number} seat
 * @param {string} youText
 * @param {string} otherText
 * @param {Record<string, unknown>} [params]
 * @returns {string} */
export function says(names, seat, youText, otherText, params = {}) {
  const name = names[seat] ?? "";
  return format(name === YOU ? youText : otherText, { ...params, name: esc(name) });
}

/** What the shedding games call their loser, by the renderers' key; a game with its own
 * word passes it translated instead of a key.
 * @type {Record<string, string>} */
export const LOSER_WORDS = { loser: _("loser") };

/** Result of a shedding game: who went out in which order, and the loser (`loserKey`:
 * `loser`, or the game's own word for its loser).
 * @param {any} view the game's view
 * @param {string[]} names
 * @param {string} loserKey
 * @returns {string} */
export function sheddingResult(view, names, loserKey) {
  const loserWord = LOSER_WORDS[loserKey] ?? loserKey;
  if (view.abandoned) {
    return `<p>${esc(
      ngettext(
        "The game was abandoned after {n} move: nobody loses.",
        "The game was abandoned after {n} moves: nobody loses.",
        view.move_count,
      ),
    )}</p>`;
  }
  const hasLoser = view.loser !== null && view.loser !== undefined;
  const places = (view.out_order || [])
    .map((/** @type {number} */ s) => `<li>${esc(names[s])}</li>`)
    .concat(hasLoser ? [`<li class="lost">${esc(names[view.loser])} — ${esc(loserWord)}</li>`] : [])
    .join("");
  const strong = (/** @type {string} */ name) => `<strong>${esc(name)}</strong>`;
  const got = (view.out_order || []).includes(view.seat) ? ` ${esc(_("You got away!"))}` : "";
  const params = { you: strong(YOU), name: strong(names[view.loser]), loser: esc(loserWord) };
  const loser = !hasLoser
    ? ""
    : view.seat === view.loser
      ? `<p class="loser">${_("{you} are the {loser} — better luck next time!", params)}</p>`
      : `<p class="loser">${_("{name} is the {loser}.", params)}${got}</p>`;
  return `${loser}<ol class="places" aria-label="${esc(_("Went out in this order"))}">${places}</ol>`;
}

/** The seat's public hand in a shedding phase, as small chips.
 * @param {string[]} cards
 * @param {number} hidden
 * @param {(card: string) => string} chip
 * @returns {string} */
export function publicHand(cards, hidden, chip) {
  const shown = cards.map(chip).join("");
  const more = hidden ? ` <span class="muted">${esc(_("+{n} unseen", { n: hidden }))}</span>` : "";
  return `<div class="public-hand" aria-label="${esc(_("Known cards"))}">${shown}${more}</div>`;
}

/** A name without the bot level it ends with: `Aino (Easy)` → `Aino`.
 * @param {string} name */
const withoutLevel = (name) => name.replace(/ \([^()]*\)$/, "");

/** The heading of a trick being played (`Trick: you, Aino (Easy) and Eero (Medium)`) as
 * HTML; where a name carries a bot level, also a short form without the levels
 * (`Trick: you, Aino and Eero`) that a phone shows instead, so no name is cut.
 * @param {"trick" | "duel" | "war"} kind
 * @param {string[]} names the seats' names
 * @param {number[]} seats the seats in this round, in order
 * @returns {string} */
export function roundHeadingHtml(kind, names, seats) {
  const wide = roundHeading(kind, names, seats);
  const short = roundHeading(kind, names.map(withoutLevel), seats);
  if (short === wide) return esc(wide);
  return `<span class="heading-wide">${esc(wide)}</span><span class="heading-short">${esc(short)}</span>`;
}
