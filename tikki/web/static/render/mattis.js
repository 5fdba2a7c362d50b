// @ts-check
// Mattis: phase 1 tricks with must-match, wars and slough laps; phase 2 shedding.
import { cardChip, cardShort } from "../cards.js";
import { esc } from "../api.js";
import { _, format, ngettext } from "../i18n.js";
import { fact, roundHeadingHtml, says, sheddingResult, trickSlot } from "./common.js";
import { inList } from "./seats.js";
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

/** @type {Record<string, string>} */
const RANK_WORDS = { J: _("jacks"), Q: _("queens"), K: _("kings"), A: _("aces") };
/** @param {string} r a rank */
const rankWord = (r) => RANK_WORDS[r] ?? format(_("{rank}s"), { rank: r === "T" ? "10" : r });
const SLOUGH_RULE = _(
  "A rank is losing when a higher rank was played to the trick, except that in a war the card winning the war round is not losing.",
);

export default {
  ...shedBase,

  /**
   * @param {any} view the game's view
   * @param {number} seat
   * @returns {(string | [string, string])[]}
   */
  seatBadges(view, seat) {
    return shedBadges(view, seat, "loser");
  },

  /**
   * @param {any} view the game's view
   * @param {number} seat
   * @returns {string}
   */
  seatExtra(view, seat) {
    if (collecting(view)) {
      return view.shown_owner === seat && view.shown_in_hand && view.shown_card
        ? `<div class="public-hand" aria-label="${esc(_("Shown card"))}">${_("shows {card}", { card: cardChip(view.shown_card) })}</div>`
        : "";
    }
    let dreck = "";
    if (view.dreck && view.phase === "shed") {
      const gave = (view.dreck.given || [])[seat] || 0;
      const got = (view.dreck.received || [])[seat] || 0;
      const parts = [];
      if (gave) parts.push(esc(_("gave {n} to the dreck", { n: gave })));
      if (got) parts.push(esc(_("got {n} from the dreck", { n: got })));
      if (parts.length) dreck = `<div class="muted small">${parts.join(", ")}</div>`;
    }
    return dreck + shedSeatExtra(view, seat);
  },

  /**
   * @param {any} view the game's view
   * @param {import("../renderers.js").Ctx} ctx
   * @returns {string}
   */
  centre(view, ctx) {
    const { names, legal } = ctx;
    const shown = view.shown_card
      ? fact(_("Last stock card"), `${cardChip(view.shown_card)} · ${esc(inList(names, view.shown_owner))}`)
      : "";
    let dreck = "";
    if (view.dreck && view.dreck.cards) {
      const count = esc(ngettext("{n} card", "{n} cards", view.dreck.cards.length));
      const mine =
        view.dreck.mine && view.dreck.mine.length
          ? _("{count}; you got {cards}", { count, cards: view.dreck.mine.map(cardChip).join("") })
          : count;
      dreck = fact(_("Dreck"), mine);
    }
    if (!collecting(view)) {
      return `<div class="facts">${shedFacts(view)}${shown}${dreck}</div>${shedTrick(view, names)}`;
    }
    const trick = view.trick;
    /** @type {{seat: number, card: string, how: string}[]} */
    const cards = trick.cards || [];
    const played = cards.filter((c) => c.how !== "slough").length;
    const war = cards.length > 0 && played > trick.round_played && played > (trick.round || []).length;
    const heading = roundHeadingHtml(war ? "war" : "trick", names, trick.round || []);
    /** @type {Record<string, string>} */
    const note = { stock: _("from the stock"), slough: _("sloughed") };
    const slots = cards.length
      ? cards.map((c) => trickSlot([c.card], names[c.seat], note[c.how] ?? "", c.how === "slough" ? "slough" : "")).join("")
      : `<p class="empty-trick">${says(names, trick.leader, _("{name} lead."), _("{name} leads."))}</p>`;
    const notes = [];
    if (trick.match_rank) {
      notes.push(_("Highest: {ranks} — a player holding one must match.", { ranks: rankWord(trick.match_rank) }));
    }
    if (trick.losing_ranks) {
      notes.push(
        _("Losing ranks: {ranks} — a player who has already played to this trick may slough them.", {
          ranks: [...trick.losing_ranks].map(rankWord).join(", "),
        }),
      );
    }
    return collectTable(view, legal, shown, heading, slots, notes);
  },

  /**
   * @param {any} view the game's view
   * @returns {string}
   */
  prompt(view) {
    /** @type {string[]} */
    const legal = view.legal_moves || [];
    if (collecting(view)) {
      if (legal.includes("pass")) {
        const can = legal.filter((m) => m.startsWith("slough ")).map((m) => cardShort(m.slice(7)));
        return esc(
          _(
            "Slough? You have played to this trick, so you may throw {cards} into it (click a card, one at a time) or pass. {rule} Sloughing never changes who wins.",
            { cards: can.join(", "), rule: SLOUGH_RULE },
          ),
        );
      }
      const match = view.trick.match_rank;
      const mustMatch = match && legal.length && legal.every((m) => m[0] === match);
      if (mustMatch) return esc(_("You hold {ranks}: you must match the highest card.", { ranks: rankWord(match) }));
      return esc(
        legal.includes("stock")
          ? _("Play a card or turn the top stock card: the highest rank wins the trick.")
          : _("Play a card: the highest rank wins the trick."),
      );
    }
    return shedPrompt(view, "sequence");
  },

  /**
   * @param {any} view the game's view
   * @param {import("../renderers.js").Ctx} ctx
   * @returns {string}
   */
  result(view, ctx) {
    return sheddingResult(view, ctx.names, "loser");
  },
};
