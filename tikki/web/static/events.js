// @ts-check
// The engine's events (docs/events.md) as log lines: what each move did, as this seat
// may know it. Every line comes from an event in the view's history, never from
// comparing two states, so the log after a reload equals the log before. The sentences
// are tikki/sentences.py's, by event kind and variant (sentences.js, generated from it).
import { YOU, esc, seatLabel } from "./api.js";
import { cardChip, colourChip } from "./cards.js";
import { _, format, ngettext } from "./i18n.js";
import { says } from "./render/common.js";
import { leadClause, tieLine } from "./render/seats.js";
import { SENTENCES as S } from "./sentences.js";
import { ordinal, withMinus } from "./words.js";
import { GAMES } from "./games.js";

/** @typedef {{seat: number, card: string}} SeatCard */
/**
 * One event of a history entry (docs/events.md); which fields it has depends on `type`.
 * @typedef {object} LogEvent
 * @property {string} type
 * @property {number} [seat]
 * @property {number} [winner]
 * @property {number[]} [seats]
 * @property {(string | SeatCard)[]} [cards]
 * @property {string} [card]
 * @property {number} [count]
 * @property {boolean} [deal] a draw event's cards were dealt (a new deal)
 * @property {string} [why]
 * @property {string} [phase]
 * @property {number | null} [leader]
 * @property {string} [suit]
 * @property {number[]} [counts]
 * @property {number} [place]
 * @property {number} [round]
 * @property {number[]} [scores]
 */
/** @typedef {{move?: string, events?: LogEvent[]}} LogEntry */

/** @typedef {{[K in keyof typeof S]: (typeof S)[K] extends string ? K : never}[keyof typeof S]} Said */

/**
 * The sentence `key` in the page's language, its `{name}` parameters filled in.
 * @param {Said} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
const say = (key, params) => _(S[key], params);

/** @type {Record<string, string>} */
const PHASE_WORDS = {
  shed: say("phase.shed"),
  discard: say("phase.discard"),
  play: say("phase.play"),
  score: say("phase.score"),
};

/** @param {string[]} names @param {number} seat */
const you = (names, seat) => names[seat] === YOU;
/** @param {string[]} names @param {number} seat */
const who = (names, seat) => esc(names[seat] ?? seatLabel(seat));
/** @param {string | SeatCard} c */
const chip = (c) => cardChip(typeof c === "string" ? c : c.card);
/** @param {(string | SeatCard)[] | undefined} cards */
const chips = (cards) => (cards ?? []).map(chip).join(" ");
/** @param {number} x */
const sign = (x) => withMinus(x, true);
/** A field the event's type always carries (docs/events.md). @param {number | undefined} n */
const num = (n) => /** @type {number} */ (n);

/**
 * One event as an HTML sentence, or "" where the move's own line says it all.
 * @param {LogEvent} event
 * @param {string[]} names
 * @param {string} game
 * @param {LogEntry | null | undefined} entry
 * @returns {string}
 */
export function eventText(event, names, game, entry) {
  switch (event.type) {
    case "trick":
      return event.cards?.length
        ? says(names, num(event.winner), say("trick.you"), say("trick"), { cards: chips(event.cards) })
        : says(names, num(event.winner), say("trick.empty.you"), say("trick.empty"));
    case "tie": {
      const tie = GAMES[game]?.tie_word || say("tie.word"); // the game's own word (its declaration)
      return esc(tieLine(tie, names, event.seats ?? []));
    }
    case "void_tie":
      return voidText(event, names);
    case "falls":
      return say("falls", { cards: chips(event.cards) });
    case "take":
      return says(names, num(event.seat), say("take.you"), say("take"), { cards: chips(event.cards) });
    case "draw":
      return drawText(event, names);
    case "last_card":
      return event.card
        ? says(names, num(event.seat), say("last_card.you"), say("last_card"), { card: cardChip(event.card) })
        : says(names, num(event.seat), say("last_card.unseen.you"), say("last_card.unseen"));
    default:
      return tableText(event, names, entry, game);
  }
}

/** @param {LogEvent} event @param {string[]} names */
function voidText(event, names) {
  const back = (event.cards ?? [])
    .map((c) => (typeof c === "string" ? c : `${who(names, c.seat)} ${cardChip(c.card)}`))
    .join(", ");
  return say(event.why === "kina" ? "void_tie.kina" : "void_tie", { cards: back });
}

/** @param {LogEvent} event @param {string[]} names */
function drawText(event, names) {
  const seat = num(event.seat);
  if (event.cards) {
    const [mine, theirs] = event.deal ? [say("deal.you"), say("deal")] : [say("draw.you"), say("draw")];
    return says(names, seat, mine, theirs, { cards: chips(event.cards) });
  }
  const counts = event.deal // a new deal's cards are dealt, not drawn
    ? [S["deal.count.you"], S["deal.count"]]
    : [S["draw.count.you"], S["draw.count"]];
  const [one, many] = you(names, seat) ? counts[0] : counts[1];
  return format(ngettext(one, many, num(event.count)), { name: who(names, seat) });
}

/** @param {LogEvent} event @param {string[]} names @param {string} game */
function phaseText(event, names, game) {
  const phase = event.phase ?? "";
  const titled = GAMES[game]?.phase_titles?.[phase]; // the game's own name for it
  const declared = titled ? esc(titled.charAt(0).toUpperCase() + titled.slice(1)) : "";
  const text = PHASE_WORDS[phase] || declared || say("phase.other", { phase: esc(phase) });
  if (event.leader !== null && event.leader !== undefined && phase !== "discard") {
    // tikki's own phases lead or choose; a phase only the game names (bidding) goes first
    const verb = phase === "score" ? "choose" : PHASE_WORDS[phase] || !declared ? "lead" : "first";
    const leads = esc(leadClause(names, event.leader, verb));
    return say("phase.led", { phase: text, leader: leads });
  }
  return say("phase.end", { phase: text });
}

/** @param {LogEvent} event @param {string[]} names */
function dreckText(event, names) {
  const counts = event.counts ?? [];
  const got = counts.map((k, s) => (k ? `${who(names, s)} ${k}` : "")).filter(Boolean);
  const total = counts.reduce((a, b) => a + b, 0);
  const text = ngettext(S.dreck[0], S.dreck[1], total, { seats: got.join(", ") });
  return event.cards
    ? say("dreck.yours", { dreck: text, cards: chips(event.cards) })
    : say("dreck.end", { dreck: text });
}

/**
 * @param {LogEvent} event
 * @param {string[]} names
 * @param {LogEntry | null | undefined} entry
 * @param {string} game
 * @returns {string}
 */
function tableText(event, names, entry, game) {
  switch (event.type) {
    case "phase":
      return phaseText(event, names, game);
    case "trump":
      if (entry && String(entry.move || "").startsWith("trump")) return "";
      return event.card
        ? say("trump.card", { colour: colourChip(event.suit), card: cardChip(event.card) })
        : say("trump", { colour: colourChip(event.suit) });
    case "dreck":
      return dreckText(event, names);
    case "out":
      return says(names, num(event.seat), say("out.you"), say("out"), { place: ordinal(num(event.place)) });
    case "round": {
      const scores = (event.scores ?? []).map((x, s) => `${who(names, s)} ${sign(x)}`).join(", ");
      return say("round", { number: num(event.round) + 1, scores });
    }
    case "over":
      return say("over");
    default:
      return "";
  }
}

/**
 * The lines of one history entry's events, in order (empty strings dropped).
 * @param {LogEntry} entry
 * @param {string[]} names
 * @param {string} game
 * @returns {string[]}
 */
export function eventLines(entry, names, game) {
  return (entry.events || []).map((e) => eventText(e, names, game, entry)).filter(Boolean);
}
