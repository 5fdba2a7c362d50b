// The engine's events (docs/events.md) as log lines: what each move did, as this seat
// may know it. Every line comes from an event in the view's history, never from
// comparing two states, so the log after a reload equals the log before.
import { esc } from "./api.js";
import { cardChip, colourChip } from "./cards.js";
import { says } from "./render/common.js";

const TIE_WORDS = { myllymatti: "Kina", mattis: "War" };
const PHASE_WORDS = {
  shed: "Phase 2 begins: every hand is shown",
  discard: "Discarding: each player sets two cards aside",
  play: "The tricks begin",
  score: "Scoring: the round's tricks are counted",
};

const you = (names, seat) => names[seat] === "You";
const who = (names, seat) => esc(names[seat] ?? `Seat ${seat + 1}`);
const chips = (cards) => cards.map((c) => cardChip(c)).join(" ");
const seatChips = (cards) => cards.map((c) => cardChip(c.card)).join(" ");
const ordinal = (n) =>
  `${n}${n % 100 >= 10 && n % 100 <= 20 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
const sign = (x) => (x > 0 ? `+${x}` : `${x}`);
const andList = (items) =>
  items.length === 1 ? items[0] : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/** One event as an HTML sentence, or "" where the move's own line says it all. */
export function eventText(event, names, game, entry) {
  switch (event.type) {
    case "trick":
      return event.cards.length
        ? `${says(names, event.winner, "wins", "win")} the trick: ${seatChips(event.cards)}.`
        : `${says(names, event.winner, "wins", "win")} the trick.`;
    case "tie":
      return `${TIE_WORDS[game] || "Tie"}: ${andList(event.seats.map((s) => who(names, s)))} tie for the highest rank and play again.`;
    case "void_tie": {
      const back = event.cards.map((c) => `${who(names, c.seat)} ${cardChip(c.card)}`).join(", ");
      return event.why === "kina"
        ? `The kina cannot go on: the trick is void, each takes back his cards (${back}).`
        : `Phase 1 ends mid-trick: the cards go back to who played them (${back}).`;
    }
    case "falls":
      return `The trick falls: ${seatChips(event.cards)} leave the game.`;
    case "take":
      return `${says(names, event.seat, "picks", "pick")} up ${chips(event.cards)}.`;
    case "draw":
      return event.cards
        ? `${says(names, event.seat, "draws", "draw")} ${chips(event.cards)}.`
        : `${says(names, event.seat, "draws", "draw")} ${event.count === 1 ? "a card" : `${event.count} cards`}.`;
    case "last_card":
      return event.card
        ? `${says(names, event.seat, "draws", "draw")} the last stock card and ${you(names, event.seat) ? "show" : "shows"} it: ${cardChip(event.card)}.`
        : `${says(names, event.seat, "sets", "set")} the last stock card aside, face down: it decides the trump.`;
    default:
      return tableText(event, names, entry);
  }
}

function tableText(event, names, entry) {
  switch (event.type) {
    case "phase": {
      let text = PHASE_WORDS[event.phase] || `Phase ${esc(event.phase)} begins`;
      if (event.leader !== null && event.leader !== undefined && event.phase !== "discard") {
        const verb = event.phase === "score" ? ["chooses", "choose"] : ["leads", "lead"];
        text += `; ${you(names, event.leader) ? "you" : who(names, event.leader)} ${you(names, event.leader) ? verb[1] : verb[0]}`;
      }
      return `${text}.`;
    }
    case "trump":
      if (entry && String(entry.move || "").startsWith("trump")) return "";
      return `Trump is ${colourChip(event.suit)}${event.card ? ` (${cardChip(event.card)})` : ""}.`;
    case "dreck": {
      const got = event.counts.map((k, s) => (k ? `${who(names, s)} ${k}` : "")).filter(Boolean);
      const total = event.counts.reduce((a, b) => a + b, 0);
      const mine = event.cards ? `; you get ${chips(event.cards)}` : "";
      return `The dreck: ${total} cards dealt to the short hands (${got.join(", ")})${mine}.`;
    }
    case "out":
      return `${says(names, event.seat, "is", "are")} out (${ordinal(event.place)}).`;
    case "round": {
      const scores = event.scores.map((x, s) => `${who(names, s)} ${sign(x)}`).join(", ");
      return `Round ${event.round + 1} scored: ${scores}.`;
    }
    case "over":
      return "Game over.";
    default:
      return "";
  }
}

/** The lines of one history entry's events, in order (empty strings dropped). */
export function eventLines(entry, names, game) {
  return (entry.events || []).map((e) => eventText(e, names, game, entry)).filter(Boolean);
}
