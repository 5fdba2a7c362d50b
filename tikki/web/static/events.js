// @ts-check
// The engine's events (docs/events.md) as log lines: what each move did, as this seat
// may know it. Every line comes from an event in the view's history, never from
// comparing two states, so the log after a reload equals the log before.
import { YOU, esc, seatLabel } from "./api.js";
import { cardChip, colourChip } from "./cards.js";
import { _, format, ngettext } from "./i18n.js";
import { says } from "./render/common.js";
import { leadClause, tieLine } from "./render/seats.js";
import { ordinal } from "./words.js";
import { GAMES } from "./games.js";

const PHASE_WORDS = {
  shed: _("Phase 2 begins: every hand is shown"),
  discard: _("Discarding: each player sets two cards aside"),
  play: _("The tricks begin"),
  score: _("Scoring: the round's tricks are counted"),
};

const you = (names, seat) => names[seat] === YOU;
const who = (names, seat) => esc(names[seat] ?? seatLabel(seat));
const chips = (cards) => cards.map((c) => cardChip(c)).join(" ");
const seatChips = (cards) => cards.map((c) => cardChip(c.card)).join(" ");
const sign = (x) => (x > 0 ? `+${x}` : `${x}`);

/** One event as an HTML sentence, or "" where the move's own line says it all. */
export function eventText(event, names, game, entry) {
  switch (event.type) {
    case "trick":
      return event.cards.length
        ? says(names, event.winner, _("{name} win the trick: {cards}."), _("{name} wins the trick: {cards}."), {
            cards: seatChips(event.cards),
          })
        : says(names, event.winner, _("{name} win the trick."), _("{name} wins the trick."));
    case "tie": {
      const tie = GAMES[game]?.tie_word || _("Tie"); // the game's own word (its declaration)
      return esc(tieLine(tie, names, event.seats));
    }
    case "void_tie": {
      const back = event.cards.map((c) => `${who(names, c.seat)} ${cardChip(c.card)}`).join(", ");
      return event.why === "kina"
        ? _("The kina cannot go on: the trick is void, each takes back his cards ({cards}).", { cards: back })
        : _("Phase 1 ends mid-trick: the cards go back to who played them ({cards}).", { cards: back });
    }
    case "falls":
      return _("The trick falls: {cards} leave the game.", { cards: seatChips(event.cards) });
    case "take":
      return says(names, event.seat, _("{name} pick up {cards}."), _("{name} picks up {cards}."), {
        cards: chips(event.cards),
      });
    case "draw":
      return event.cards
        ? says(names, event.seat, _("{name} draw {cards}."), _("{name} draws {cards}."), { cards: chips(event.cards) })
        : you(names, event.seat)
          ? format(ngettext("{name} draw a card.", "{name} draw {n} cards.", event.count), { name: who(names, event.seat) })
          : format(ngettext("{name} draws a card.", "{name} draws {n} cards.", event.count), {
              name: who(names, event.seat),
            });
    case "last_card":
      return event.card
        ? says(
            names,
            event.seat,
            _("{name} draw the last stock card and show it: {card}."),
            _("{name} draws the last stock card and shows it: {card}."),
            { card: cardChip(event.card) },
          )
        : says(
            names,
            event.seat,
            _("{name} set the last stock card aside, face down: it decides the trump."),
            _("{name} sets the last stock card aside, face down: it decides the trump."),
          );
    default:
      return tableText(event, names, entry);
  }
}

function tableText(event, names, entry) {
  switch (event.type) {
    case "phase": {
      const text = PHASE_WORDS[event.phase] || _("Phase {phase} begins", { phase: esc(event.phase) });
      if (event.leader !== null && event.leader !== undefined && event.phase !== "discard") {
        const leads = esc(leadClause(names, event.leader, event.phase === "score" ? "choose" : "lead"));
        return _("{phase}; {leader}.", { phase: text, leader: leads });
      }
      return _("{phase}.", { phase: text });
    }
    case "trump":
      if (entry && String(entry.move || "").startsWith("trump")) return "";
      return event.card
        ? _("Trump is {colour} ({card}).", { colour: colourChip(event.suit), card: cardChip(event.card) })
        : _("Trump is {colour}.", { colour: colourChip(event.suit) });
    case "dreck": {
      const got = event.counts.map((k, s) => (k ? `${who(names, s)} ${k}` : "")).filter(Boolean);
      const total = event.counts.reduce((a, b) => a + b, 0);
      const text = ngettext(
        "The dreck: {n} card dealt to the short hands ({seats})",
        "The dreck: {n} cards dealt to the short hands ({seats})",
        total,
        { seats: got.join(", ") },
      );
      return event.cards
        ? _("{dreck}; you get {cards}.", { dreck: text, cards: chips(event.cards) })
        : _("{dreck}.", { dreck: text });
    }
    case "out":
      return says(names, event.seat, _("{name} are out ({place})."), _("{name} is out ({place})."), {
        place: ordinal(event.place),
      });
    case "round": {
      const scores = event.scores.map((x, s) => `${who(names, s)} ${sign(x)}`).join(", ");
      return _("Round {number} scored: {scores}.", { number: event.round + 1, scores });
    }
    case "over":
      return _("Game over.");
    default:
      return "";
  }
}

/** The lines of one history entry's events, in order (empty strings dropped). */
export function eventLines(entry, names, game) {
  return (entry.events || []).map((e) => eventText(e, names, game, entry)).filter(Boolean);
}
