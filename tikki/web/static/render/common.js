// Pieces shared by the game renderers: rows of cards, trick plays, the stock, results.
import { backSVG, cardName, cardSVG, colourChip } from "../cards.js";
import { esc } from "../api.js";

/** One card, not clickable, with its name for screen readers. */
export function cardImg(text, extra = "") {
  return `<span class="card static ${extra}" role="img" aria-label="${esc(cardName(text))}">${cardSVG(text)}</span>`;
}

/** A face-down card. */
export function backImg(label = "face-down card", extra = "") {
  return `<span class="card static back ${extra}" role="img" aria-label="${esc(label)}">${backSVG()}</span>`;
}

/** A row of cards (a play, a run, a trick) as one labelled group. */
export function cardRow(cards, label) {
  const names = cards.map(cardName).join(", ");
  return `<span class="card-row" role="group" aria-label="${esc(label ? `${label}: ${names}` : names)}">${cards
    .map((c) => cardImg(c))
    .join("")}</span>`;
}

/** A trick slot: the cards a seat put in, its name under them, a note (stock, slough). */
export function trickSlot(cards, who, note = "", extra = "") {
  return (
    `<figure class="slot ${extra}">${cardRow(cards, who)}` +
    `<figcaption><span class="who">${esc(who)}</span>${note ? ` <span class="note">${esc(note)}</span>` : ""}</figcaption></figure>`
  );
}

/** The stock: a face-down pile with its count; a button when `stock` is a legal move. */
export function stockPile(size, playable) {
  if (!size) return `<div class="pile empty"><span class="pile-label">Stock empty</span></div>`;
  const label = `Stock, ${size} card${size === 1 ? "" : "s"}`;
  const inner = `${backSVG()}<span class="pile-count" aria-hidden="true">${size}</span>`;
  const body = playable
    ? `<button type="button" class="card pile-card legal" data-move="stock" aria-label="${label}: turn the top card">${inner}</button>`
    : `<span class="card static pile-card" role="img" aria-label="${label}">${inner}</span>`;
  return `<div class="pile">${body}<span class="pile-label">Stock · ${size}</span></div>`;
}

/** A labelled fact for the table's info line: `Trump ♥ hearts` (`extra`: more classes). */
export function fact(label, valueHtml, extra = "") {
  return `<div class="fact${extra ? ` ${extra}` : ""}"><span class="fact-label">${esc(label)}</span> <span class="fact-value">${valueHtml}</span></div>`;
}

export function suitFact(letter) {
  return letter ? colourChip(letter) : `<span class="muted">none yet</span>`;
}

/** `names[seat]` and the verb agreeing with it: `You lead`, `Anna leads`. */
export function says(names, seat, third, first) {
  const name = names[seat] ?? "";
  return `${esc(name)} ${name === "You" ? first : third}`;
}

/** Result of a shedding game: who went out in which order, and the loser. */
export function sheddingResult(view, names, loserWord) {
  if (view.abandoned) {
    return `<p>The game was abandoned after ${view.move_count} moves: nobody loses.</p>`;
  }
  const hasLoser = view.loser !== null && view.loser !== undefined;
  const places = (view.out_order || [])
    .map((s) => `<li>${esc(names[s])}</li>`)
    .concat(hasLoser ? [`<li class="lost">${esc(names[view.loser])} — ${esc(loserWord)}</li>`] : [])
    .join("");
  const loser = !hasLoser
    ? ""
    : view.seat === view.loser
      ? `<p class="loser"><strong>You</strong> are the ${esc(loserWord)} — better luck next time!</p>`
      : `<p class="loser"><strong>${esc(names[view.loser])}</strong> is the ${esc(loserWord)}.${
          (view.out_order || []).includes(view.seat) ? " You got away!" : ""
        }</p>`;
  return `${loser}<ol class="places" aria-label="Went out in this order">${places}</ol>`;
}

/** The seat's public hand in a shedding phase, as small chips. */
export function publicHand(cards, hidden, chip) {
  const shown = cards.map(chip).join("");
  const more = hidden ? ` <span class="muted">+${hidden} unseen</span>` : "";
  return `<div class="public-hand" aria-label="Known cards">${shown}${more}</div>`;
}

export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
