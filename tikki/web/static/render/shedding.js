// @ts-check
// The shedding phase the shedding games share: the trick of plays, public hands.
import { cardChip, cardShort, SUIT_NAMES, SUIT_SINGULAR } from "../cards.js";
import { esc } from "../api.js";
import { _, ngettext } from "../i18n.js";
import { fact, says, publicHand, stockPile, suitFact, trickSlot } from "./common.js";

const RANKS = "23456789TJQKA";

/** Is the view in phase 1 (collecting)?
 * @param {any} view the game's view
 * @returns {boolean} */
export const collecting = (view) => view.phase === "collect";

/** Renderer parts the shedding games share: the phase line, seat stats, no sheet. */
export const shedBase = {
  /**
   * @param {any} view the game's view
   * @returns {string}
   */
  phase(view) {
    if (view.phase === "over") return _("Game over");
    return collecting(view) ? _("Phase 1 · collecting") : _("Phase 2 · shedding");
  },

  /**
   * @param {any} view the game's view
   * @param {number} seat
   * @returns {[string, string | number][]}
   */
  seatStats(view, seat) {
    /** @type {[string, string | number][]} */
    const stats = [[_("Hand"), view.hand_sizes[seat]]];
    if (collecting(view)) stats.push([_("Pile"), view.piles[seat].length]);
    return stats;
  },

  /** @returns {string} */
  sheet() {
    return "";
  },
};

/** The phase-1 table: facts, the stock and the trick with its heading and notes.
 * @param {any} view the game's view
 * @param {string[]} legal
 * @param {string} facts HTML
 * @param {string} headingHtml
 * @param {string} slots HTML
 * @param {string[]} [notes]
 * @returns {string} */
export function collectTable(view, legal, facts, headingHtml, slots, notes = []) {
  return (
    `<div class="facts">${fact(_("Trump"), `<span class="muted">${esc(_("decided by the last stock card"))}</span>`, "minor")}${facts}</div>` +
    `<div class="table-row">${stockPile(view.stock_size, legal.includes("stock"))}` +
    `<div class="trick-wrap"><h3 class="trick-title">${headingHtml}</h3>` +
    `<div class="trick" aria-label="${esc(_("Trick"))}">${slots}</div>` +
    notes.map((n) => `<p class="trick-note">${esc(n)}</p>`).join("") +
    `</div></div>`
  );
}

/** The shedding trick: every play with its seat, and when the trick falls.
 * @param {any} view the game's view
 * @param {string[]} names
 * @returns {string} */
export function shedTrick(view, names) {
  const trick = view.trick;
  /** @type {{seat: number, cards: string[]}[]} */
  const plays = trick.plays || [];
  const slots = plays.length
    ? plays
        .map((p, i) => trickSlot(p.cards, names[p.seat], "", i === plays.length - 1 ? "top" : ""))
        .join("")
    : `<p class="empty-trick">${esc(_("No cards in the trick:"))} ${
        view.to_act === null || view.to_act === undefined
          ? ""
          : says(names, view.to_act, _("{name} lead."), _("{name} leads."))
      }</p>`;
  const size =
    trick.size && view.phase !== "over"
    ? `<p class="trick-note">${esc(
        ngettext("The trick falls when it holds {n} play.", "The trick falls when it holds {n} plays.", trick.size),
      )}</p>`
    : "";
  return `<div class="trick" aria-label="${esc(_("Trick"))}">${slots}</div>${size}`;
}

/** The info facts of a shedding phase: trump, cards out of the game.
 * @param {any} view the game's view
 * @returns {string} */
export function shedFacts(view) {
  return (
    fact(_("Trump"), suitFact(view.trump)) +
    fact(_("Out of the game"), esc(ngettext("{n} card", "{n} cards", view.fallen ? view.fallen.length : 0)))
  );
}

/** The seat's known hand in the shedding phase (every card is public, but dreck cards).
 * @param {any} view the game's view
 * @param {number} seat
 * @returns {string} */
export function shedSeatExtra(view, seat) {
  if (!view.hands || !view.hands[seat]) return "";
  const known = view.hands[seat];
  const hidden = Math.max(0, (view.hand_sizes[seat] ?? known.length) - known.length);
  if (!known.length && !hidden) return "";
  return publicHand(known, hidden, cardChip);
}

/** Out places and the loser, as badges (`loserWord`: the loser's badge, the key `loser`
 * or a game's own `[key, text]`).
 * @param {any} view the game's view
 * @param {number} seat
 * @param {string | [string, string]} loserWord
 * @returns {(string | [string, string])[]} */
export function shedBadges(view, seat, loserWord) {
  /** @type {(string | [string, string])[]} */
  const out = [];
  const place = (view.out_order || []).indexOf(seat);
  if (place >= 0) out.push(["out", _("out · {place}.", { place: place + 1 })]);
  if (view.loser === seat) out.push(loserWord);
  return out;
}

/**
 * @param {string[]} cards
 * @returns {string}
 */
function highest(cards) {
  return cards.reduce((a, b) => (RANKS.indexOf(b[0]) > RANKS.indexOf(a[0]) ? b : a));
}

/** What the seat to act may do in the shedding phase, in words.
 * @param {any} view the game's view
 * @param {"run" | "sequence"} multiWord
 * @returns {string} */
export function shedPrompt(view, multiWord) {
  /** @type {{seat: number, cards: string[]}[]} */
  const plays = view.trick.plays || [];
  /** @type {string[]} */
  const legal = view.legal_moves || [];
  const multi = legal.some((m) => m.includes("+"));
  if (!plays.length) {
    if (!multi) return esc(_("Lead a new trick: play any card."));
    return esc(
      multiWord === "run"
        ? _("Lead a new trick: play any card or a run (select its cards, then press Play).")
        : _("Lead a new trick: play any card or a sequence (select its cards, then press Play)."),
    );
  }
  const top = plays[plays.length - 1].cards;
  const target = highest(top);
  if (!legal.some((m) => m !== "take")) return esc(_("You cannot beat {card}: take.", { card: cardShort(target) }));
  const params = { card: cardShort(target), suit: SUIT_SINGULAR[target[1]], trump: SUIT_NAMES[view.trump] };
  const trump = view.trump && target[1] !== view.trump;
  let text = trump
    ? _("Beat {card}: play a higher {suit} or any trump ({trump})", params)
    : _("Beat {card}: play a higher {suit}", params);
  if (multi) {
    text = multiWord === "run" ? _("{prompt}; a run works too", { prompt: text }) : _("{prompt}; a sequence works too", { prompt: text });
  }
  return esc(_("{prompt} — or take.", { prompt: text }));
}

