// The shedding phase shared by Myllymatti and Mattis: the trick of plays, public hands.
import { cardChip, cardShort, SUIT_NAMES } from "../cards.js";
import { esc } from "../api.js";
import { fact, plural, says, publicHand, stockPile, suitFact, trickSlot } from "./common.js";

const RANKS = "23456789TJQKA";

/** Is the view in phase 1 (collecting)? */
export const collecting = (view) => view.phase === "collect";

/** Renderer parts Myllymatti and Mattis share: the phase line, seat stats, no sheet. */
export const shedBase = {
  phase(view) {
    if (view.phase === "over") return "Game over";
    return collecting(view) ? "Phase 1 · collecting" : "Phase 2 · shedding";
  },

  seatStats(view, seat) {
    const stats = [["Hand", view.hand_sizes[seat]]];
    if (collecting(view)) stats.push(["Pile", view.piles[seat].length]);
    return stats;
  },

  sheet() {
    return "";
  },
};

/** The phase-1 table: facts, the stock and the trick with its heading and notes. */
export function collectTable(view, legal, facts, headingHtml, slots, notes = []) {
  return (
    `<div class="facts">${fact("Trump", `<span class="muted">decided by the last stock card</span>`, "minor")}${facts}</div>` +
    `<div class="table-row">${stockPile(view.stock_size, legal.includes("stock"))}` +
    `<div class="trick-wrap"><h3 class="trick-title">${headingHtml}</h3>` +
    `<div class="trick" aria-label="Trick">${slots}</div>` +
    notes.map((n) => `<p class="trick-note">${esc(n)}</p>`).join("") +
    `</div></div>`
  );
}

/** The shedding trick: every play with its seat, and when the trick falls. */
export function shedTrick(view, names) {
  const trick = view.trick;
  const plays = trick.plays || [];
  const slots = plays.length
    ? plays
        .map((p, i) => trickSlot(p.cards, names[p.seat], "", i === plays.length - 1 ? "top" : ""))
        .join("")
    : `<p class="empty-trick">No cards in the trick: ${
        view.to_act === null || view.to_act === undefined ? "" : `${says(names, view.to_act, "leads", "lead")}.`
      }</p>`;
  const size =
    trick.size && view.phase !== "over"
    ? `<p class="trick-note">The trick falls when it holds ${plural(trick.size, "play")}.</p>`
    : "";
  return `<div class="trick" aria-label="Trick">${slots}</div>${size}`;
}

/** The info facts of a shedding phase: trump, cards out of the game. */
export function shedFacts(view) {
  return (
    fact("Trump", suitFact(view.trump)) +
    fact("Out of the game", `${view.fallen ? view.fallen.length : 0} cards`)
  );
}

/** The seat's known hand in the shedding phase (every card is public, but dreck cards). */
export function shedSeatExtra(view, seat) {
  if (!view.hands || !view.hands[seat]) return "";
  const known = view.hands[seat];
  const hidden = Math.max(0, (view.hand_sizes[seat] ?? known.length) - known.length);
  if (!known.length && !hidden) return "";
  return publicHand(known, hidden, cardChip);
}

/** Out places and the loser, as badges. */
export function shedBadges(view, seat, loserWord) {
  const out = [];
  const place = (view.out_order || []).indexOf(seat);
  if (place >= 0) out.push(`out · ${place + 1}.`);
  if (view.loser === seat) out.push(loserWord);
  return out;
}

function highest(cards) {
  return cards.reduce((a, b) => (RANKS.indexOf(b[0]) > RANKS.indexOf(a[0]) ? b : a));
}

/** What the seat to act may do in the shedding phase, in words. */
export function shedPrompt(view, multiWord) {
  const plays = view.trick.plays || [];
  const legal = view.legal_moves || [];
  const multi = legal.some((m) => m.includes("+"));
  if (!plays.length) {
    return `Lead a new trick: play any card${
      multi ? ` or a ${multiWord} (select its cards, then press Play)` : ""
    }.`;
  }
  const top = plays[plays.length - 1].cards;
  const target = highest(top);
  const suit = SUIT_NAMES[target[1]].replace(/s$/, ""); // "a higher club"
  const trump = view.trump && target[1] !== view.trump ? ` or any trump (${SUIT_NAMES[view.trump]})` : "";
  const canBeat = legal.some((m) => m !== "take");
  return canBeat
    ? `Beat ${esc(cardShort(target))}: play a higher ${suit}${trump}${
        multi ? ` (also a ${multiWord})` : ""
      } — or take.`
    : `You cannot beat ${esc(cardShort(target))}: take.`;
}

