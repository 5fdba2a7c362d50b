// @ts-check
// The renderer of a game that ships none: the table drawn from the keys every view has
// (tikki.views.BaseView) and the common optional ones. Seats with hand sizes, won cards
// (`piles`), `scores` and the public facts the game declares (`seat_facts`); the stock, the trump, the trick in progress (`trick` as
// `[{seat, card}]`) and the last trick; the hand and the move buttons are table.js's.
import { esc } from "../api.js";
import { cardChip, colourChip } from "../cards.js";
import { GAMES } from "../games.js";
import { _ } from "../i18n.js";
import { fact, roundHeadingHtml, says, stockPile, trickSlot } from "./common.js";
import { winnersLine, wonBy } from "./seats.js";
import { withMinus } from "../words.js";
import { classify, moveTitle } from "../moves.js";

/** @typedef {{seat: number, card: string}} Play */
/** @typedef {{names: string[], legal: string[], outcome?: any}} Ctx */

/** A trick as a list of plays (`[{seat, card}]`, or `{cards: [...]}`); another shape: none.
 * @param {any} value
 * @returns {Play[]} */
export function plays(value) {
  const list = Array.isArray(value) ? value : value && Array.isArray(value.cards) ? value.cards : [];
  return list.filter((/** @type {any} */ p) => p && typeof p.seat === "number" && typeof p.card === "string");
}

/** The view's scores, when it has them.
 * @param {any} view
 * @returns {number[] | null} */
function scores(view) {
  return Array.isArray(view.scores) ? view.scores : null;
}

/** Whether the seat to act leads a trick now: not when the game is over, and not in a
 * phase whose moves are no cards (bids): our legal moves hold no card, or a move of this
 * phase seen in the history has a declared title (`bid 2`: "a bid of 2").
 * @param {any} view
 * @param {Ctx} ctx
 * @returns {boolean} */
function leading(view, ctx) {
  if (view.phase === "over" || view.to_act === null || view.to_act === undefined) return false;
  if (ctx.legal.length) {
    const { single, multi } = classify(ctx.legal);
    return single.size > 0 || multi.length > 0;
  }
  return !titledPhases(view).has(view.phase);
}

/** The phases in which the history shows a move with a declared title (a bid). The game's
 * first phase has no phase event: its moves count for the view's phase while no phase
 * event has come.
 * @param {any} view
 * @returns {Set<string | null>} */
function titledPhases(view) {
  /** @type {Set<string | null>} */
  const out = new Set();
  /** @type {string | null} */
  let phase = null;
  for (const entry of Array.isArray(view.history) ? view.history : []) {
    if (typeof entry?.move === "string" && moveTitle(entry.move) !== null) out.add(phase);
    for (const event of entry?.events ?? []) if (event?.type === "phase") phase = String(event.phase);
  }
  if (phase === null && out.has(null)) out.add(String(view.phase));
  return out;
}

export default {
  /** The phase as the game names it (its declared `phase_titles`, in the page's language),
   * else its id.
   * @param {any} view */
  phase(view) {
    if (view.phase === "over") return _("Game over");
    return GAMES[view.game]?.phase_titles?.[view.phase] ?? String(view.phase ?? "");
  },

  /** @param {any} view @param {number} seat @returns {[string, string | number][]} */
  seatStats(view, seat) {
    /** @type {[string, string | number][]} */
    const out = [];
    if (Array.isArray(view.hand_sizes)) out.push([_("Hand"), view.hand_sizes[seat]]);
    if (Array.isArray(view.piles) && Array.isArray(view.piles[seat])) out.push([_("Pile"), view.piles[seat].length]);
    const points = scores(view);
    if (points) out.push([_("Score"), withMinus(points[seat])]);
    // the per-seat public facts the game declares (`seat_facts`: bids, tricks taken)
    for (const [key, title] of Object.entries(GAMES[view.game]?.seat_facts ?? {})) {
      const values = view[key];
      if (!Array.isArray(values)) continue;
      const value = values[seat];
      out.push([title, value === null || value === undefined ? "–" : typeof value === "number" ? value : String(value)]);
    }
    return out;
  },

  seatBadges: () => [],
  seatExtra: () => "",

  /** @param {any} view @param {Ctx} ctx */
  centre(view, ctx) {
    const { names } = ctx;
    const facts = [];
    if (view.trump) {
      const trump = String(view.trump); // a suit ("H": "♥ hearts") or a card turned up
      facts.push(fact(_("Trump"), trump.length === 1 ? colourChip(trump) : cardChip(trump)));
    }
    const last = view.last_trick;
    if (last && last.winner !== null && last.winner !== undefined) {
      const cards = plays(last).map((p) => cardChip(p.card)).join("");
      facts.push(fact(_("Last trick"), `${cards} · ${esc(wonBy(names, last.winner))}`));
    }
    const trick = plays(view.trick);
    const seats = trick.map((p) => p.seat);
    const leads = !trick.length && leading(view, ctx);
    const slots = trick.length
      ? trick.map((p) => trickSlot([p.card], names[p.seat] ?? "")).join("")
      : leads
        ? `<p class="empty-trick">${says(names, view.to_act, _("{name} lead."), _("{name} leads."))}</p>`
        : "";
    const stock = view.stock_size ? stockPile(view.stock_size, ctx.legal.includes("stock")) : "";
    // over, or the seats bid (no trick on the table and nobody to lead one): no trick area
    if (view.phase === "over" || (!trick.length && !leads)) {
      return `<div class="facts">${facts.join("")}</div><div class="table-row">${stock}</div>`;
    }
    return (
      `<div class="facts">${facts.join("")}</div>` +
      `<div class="table-row">${stock}<div class="trick-wrap"><h3 class="trick-title">${roundHeadingHtml("trick", names, seats)}</h3>` +
      `<div class="trick" aria-label="${esc(_("Trick"))}">${slots}</div></div></div>`
    );
  },

  // the status line says "Your turn."; the hand's playable cards and the move buttons show the rest
  prompt: () => "",

  /** @param {any} view @param {Ctx} ctx */
  result(view, ctx) {
    const points = scores(view);
    if (!points || !points.length) {
      return `<p>${esc(_("Game over."))}</p><pre>${esc(JSON.stringify(ctx.outcome ?? {}, null, 1))}</pre>`;
    }
    const best = Math.max(...points);
    const winners = points.flatMap((v, s) => (v === best ? [s] : []));
    const rows = points
      .map((v, s) => `<tr${v === best ? ' class="winner"' : ""}><td>${esc(ctx.names[s] ?? "")}</td><td>${withMinus(v)}</td></tr>`)
      .join("");
    return (
      `<p>${esc(winnersLine(ctx.names, winners, best))}</p>` +
      `<table class="scores" aria-label="${esc(_("Score"))}"><tbody>${rows}</tbody></table>`
    );
  },

  sheet: () => "",
};
