// @ts-check
// The tricks that left the table, as HTML (pure: data in, a string out; every game uses
// them): the trick just finished, and the last trick to review on demand.
import { esc } from "../api.js";
import { _ } from "../i18n.js";
import { bySeat } from "../store.js";
import { backImg, trickSlot } from "./common.js";
import { trickWonBy, wonBy } from "./seats.js";

/**
 * @typedef {import("../store.js").FinishedTrick} FinishedTrick
 * @typedef {import("../store.js").View} View
 */

/**
 * The trick just finished, kept on the table until the next move and for at least
 * TRICK_HOLD_MS: who played each card and who won. Table memory (a game that hides won tricks) turns its
 * cards face down (`hidden`) once the next trick has begun.
 * @param {FinishedTrick} done
 * @param {boolean} hidden
 * @param {string[]} names the seats' names as this page shows them
 * @returns {string}
 */
export function doneTrickHtml(done, hidden, names) {
  const title =
    done.type === "trick"
      ? trickWonBy(names, done.winner ?? -1)
      : done.type === "falls"
        ? _("The trick falls: out of the game")
        : _("Void trick: the cards go back");
  const slots = bySeat(done.cards || [])
    .map(([seat, cards]) => {
      const won = done.type === "trick" && seat === done.winner;
      if (hidden) {
        return `<figure class="slot"><span class="card-row">${cards.map(() => backImg()).join("")}</span><figcaption><span class="who">${esc(names[seat] ?? "")}</span></figcaption></figure>`;
      }
      return trickSlot(cards, names[seat] ?? "", won ? _("won") : "", won ? "winner" : "");
    })
    .join("");
  return (
    `<div class="trick-done" role="status" data-key="${esc(done.key ?? "")}"><h3 class="trick-title">${esc(title)}</h3>` +
    `<div class="trick">${slots}</div></div>`
  );
}

/**
 * The last trick, to review on demand (every game; in a game that hides won tricks only while table memory
 * allows, since the table view then drops it).
 * @param {View} view
 * @param {string[]} names
 * @param {boolean} open whether the review is unfolded
 * @returns {string}
 */
export function reviewHtml(view, names, open) {
  const last = view.last_trick;
  if (!last || !last.cards || !last.cards.length) return "";
  const kind = last.kind ?? "trick";
  const what =
    kind === "trick"
      ? wonBy(names, last.winner ?? -1)
      : kind === "falls"
        ? _("fell out of the game")
        : _("void: the cards went back");
  const slots = bySeat(last.cards)
    .map(([seat, cards]) => {
      const won = kind === "trick" && seat === last.winner;
      return trickSlot(cards, names[seat] ?? "", won ? _("won") : "", won ? "winner" : "");
    })
    .join("");
  return (
    `<details id="last-trick-review" class="last-trick"${open ? " open" : ""}>` +
    `<summary>${esc(_("Last trick"))}</summary><p class="muted small">${esc(what)}</p><div class="trick">${slots}</div></details>`
  );
}
