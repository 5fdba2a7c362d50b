// Mattis: phase 1 tricks with must-match, wars and slough laps; phase 2 shedding.
import { cardChip, cardShort } from "../cards.js";
import { esc } from "../api.js";
import { fact, says, plural, sheddingResult, trickSlot } from "./common.js";
import {
  collectTable,
  collecting,
  shedBadges,
  shedFacts,
  shedPrompt,
  shedSeatExtra,
  shedBase,
  shedTrick,
} from "./shedding.js";

const RANK_WORDS = { T: "10s", J: "jacks", Q: "queens", K: "kings", A: "aces" };
const rankWord = (r) => RANK_WORDS[r] ?? `${r}s`;
const SLOUGH_RULE =
  "A rank is losing when a higher rank was played to the trick, except that in a war the card winning the war round is not losing.";

export default {
  ...shedBase,

  seatBadges(view, seat) {
    return shedBadges(view, seat, "loser");
  },

  seatExtra(view, seat) {
    if (collecting(view)) {
      return view.shown_owner === seat && view.shown_in_hand && view.shown_card
        ? `<div class="public-hand" aria-label="Shown card">shows ${cardChip(view.shown_card)}</div>`
        : "";
    }
    let dreck = "";
    if (view.dreck && view.phase === "shed") {
      const gave = (view.dreck.given || [])[seat] || 0;
      const got = (view.dreck.received || [])[seat] || 0;
      const parts = [];
      if (gave) parts.push(`gave ${gave} to the dreck`);
      if (got) parts.push(`got ${got} from the dreck`);
      if (parts.length) dreck = `<div class="muted small">${parts.join(", ")}</div>`;
    }
    return dreck + shedSeatExtra(view, seat);
  },

  centre(view, ctx) {
    const { names, legal } = ctx;
    const shown = view.shown_card
      ? fact("Last stock card", `${cardChip(view.shown_card)} (${esc(names[view.shown_owner])})`)
      : "";
    let dreck = "";
    if (view.dreck && view.dreck.cards) {
      const mine = view.dreck.mine && view.dreck.mine.length ? `; you got ${view.dreck.mine.map(cardChip).join("")}` : "";
      dreck = fact("Dreck", `${plural(view.dreck.cards.length, "card")}${mine}`);
    }
    if (!collecting(view)) {
      return `<div class="facts">${shedFacts(view)}${shown}${dreck}</div>${shedTrick(view, names)}`;
    }
    const trick = view.trick;
    const cards = trick.cards || [];
    const played = cards.filter((c) => c.how !== "slough").length;
    const war = cards.length > 0 && played > trick.round_played && played > (trick.round || []).length;
    const who = (trick.round || []).map((s) => names[s]).join(", ");
    const heading = war ? `War: ${who}` : `Trick: ${who}`;
    const note = { stock: "from the stock", slough: "sloughed" };
    const slots = cards.length
      ? cards.map((c) => trickSlot([c.card], names[c.seat], note[c.how] ?? "", c.how === "slough" ? "slough" : "")).join("")
      : `<p class="empty-trick">${says(names, trick.leader, "leads", "lead")}.</p>`;
    const notes = [];
    if (trick.match_rank) notes.push(`Highest: ${rankWord(trick.match_rank)} — a player holding one must match.`);
    if (trick.losing_ranks) {
      notes.push(`Losing ranks: ${[...trick.losing_ranks].map(rankWord).join(", ")} — a player who has already played to this trick may slough them.`);
    }
    return collectTable(view, legal, shown, esc(heading), slots, notes);
  },

  prompt(view) {
    const legal = view.legal_moves || [];
    if (collecting(view)) {
      if (legal.includes("pass")) {
        const can = legal.filter((m) => m.startsWith("slough ")).map((m) => cardShort(m.slice(7)));
        return `Slough? You have played to this trick, so you may throw ${esc(can.join(", "))} into it (click a card, one at a time) or pass. ${SLOUGH_RULE} Sloughing never changes who wins.`;
      }
      const match = view.trick.match_rank;
      const mustMatch = match && legal.length && legal.every((m) => m[0] === match);
      if (mustMatch) return `You hold ${esc(rankWord(match))}: you must match the highest card.`;
      return `Play a card${legal.includes("stock") ? " or turn the top stock card" : ""}: the highest rank wins the trick.`;
    }
    return shedPrompt(view, "sequence");
  },

  result(view, ctx) {
    return sheddingResult(view, ctx.names, "loser");
  },
};
