// @ts-check
// Myllymatti (and Koira): phase 1 duels or tricks with the stock, phase 2 shedding.
import { esc } from "../api.js";
import { cardChip } from "../cards.js";
import { _ } from "../i18n.js";
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

/** Myllymatti's loser is called the myllymatti. */
const LOSER = _("myllymatti");

export default {
  ...shedBase,

  /**
   * @param {any} view the game's view
   * @param {number} seat
   * @returns {(string | [string, string])[]}
   */
  seatBadges(view, seat) {
    const out = shedBadges(view, seat, ["loser", LOSER]);
    if (view.aside_owner === seat && collecting(view)) out.push("set-aside card");
    return out;
  },

  /**
   * @param {any} view the game's view
   * @param {number} seat
   * @returns {string}
   */
  seatExtra(view, seat) {
    return collecting(view) ? "" : shedSeatExtra(view, seat);
  },

  /**
   * @param {any} view the game's view
   * @param {import("../renderers.js").Ctx} ctx
   * @returns {string}
   */
  centre(view, ctx) {
    const { names, legal } = ctx;
    if (!collecting(view)) {
      // the set-aside card, while it is still in its holder's hand (not once played)
      const held =
        view.aside_card &&
        view.aside_owner !== null &&
        view.phase !== "over" &&
        ((view.hands || [])[view.aside_owner] || []).includes(view.aside_card);
      const aside = held
          ? fact(_("Set-aside card"), `${cardChip(view.aside_card)} · ${esc(inList(names, view.aside_owner))}`)
          : "";
      return `<div class="facts">${shedFacts(view)}${aside}</div>${shedTrick(view, names)}`;
    }
    const trick = view.trick;
    /** @type {{seat: number, card: string, stock: boolean}[]} */
    const cards = trick.cards || [];
    const kina = cards.length > (trick.round || []).length;
    const heading = roundHeadingHtml(trick.kind === "duel" ? "duel" : "trick", names, trick.round || []);
    const slots = cards.length
      ? cards.map((c) => trickSlot([c.card], names[c.seat], c.stock ? _("from the stock") : "")).join("")
      : `<p class="empty-trick">${says(names, trick.leader, _("{name} lead."), _("{name} leads."))}</p>`;
    const aside =
      view.aside_owner !== null && view.aside_owner !== undefined
        ? fact(
            _("Set aside"),
            says(
              names,
              view.aside_owner,
              _("{name} hold the last stock card, face down: its suit is trump in phase 2"),
              _("{name} holds the last stock card, face down: its suit is trump in phase 2"),
            ),
          )
        : "";
    const kinaTag = kina ? ` <span class="tag">${esc(_("kina!"))}</span>` : "";
    return collectTable(view, legal, aside, `${heading}${kinaTag}`, slots);
  },

  /**
   * @param {any} view the game's view
   * @returns {string}
   */
  prompt(view) {
    if (collecting(view)) {
      const trick = view.trick;
      const kina = (trick.cards || []).length > (trick.round || []).length;
      const text =
        trick.kind === "duel"
          ? _("Play a card or turn the top stock card: the higher rank wins the duel, suits do not matter.")
          : _("Play a card or turn the top stock card: the higher rank wins the trick, suits do not matter.");
      return esc(kina ? _("Kina — play again! {prompt}", { prompt: text }) : text);
    }
    return shedPrompt(view, "run");
  },

  /**
   * @param {any} view the game's view
   * @param {import("../renderers.js").Ctx} ctx
   * @returns {string}
   */
  result(view, ctx) {
    return sheddingResult(view, ctx.names, LOSER);
  },
};
