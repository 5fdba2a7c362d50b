// @ts-check
// What the analysis said at the followed seat's decisions, on the replay page: the mark
// of a decision in the log (?!, ?, ??) and, at its position, each legal move's value.
import { esc } from "../api.js";
import { $ } from "../dom.js";
import { _ } from "../i18n.js";
import { moveChips } from "../moves.js";
import { percent, signed } from "../words.js";

/**
 * @typedef {object} Decision One decision of the analysed seat.
 * @property {number} number its move number (history index + 1)
 * @property {string} played
 * @property {string} best
 * @property {string | null} [label] `inaccuracy`, `mistake` or `blunder`
 * @property {number} loss
 * @property {number | null} [error] the loss's sampling error
 * @property {Record<string, number>} values each legal move's value
 * @property {Record<string, number>} [errors] their sampling errors
 */

/**
 * @typedef {object} Analysis The analysis of one seat's game.
 * @property {number} seat
 * @property {string} kind `not_loser` (a chance) or points
 * @property {Decision[]} decisions
 */

/** The marks of the decisions in the log. @type {Record<string, string>} */
const LABELS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/**
 * The analysis of the followed seat's decision at history index `i` (move i + 1).
 * @param {Analysis | null} a the analysis shown, if any
 * @param {string} seat the followed seat (`""`: spectators, `all`)
 * @param {number} i
 * @returns {Decision | null}
 */
export function decisionAt(a, seat, i) {
  if (!a || String(a.seat) !== seat) return null;
  return a.decisions.find((d) => d.number === i + 1) ?? null;
}

/**
 * The log's mark of the decision at history index `i` (HTML; "" for none).
 * @param {Analysis | null} a
 * @param {string} seat
 * @param {number} i
 */
export function verdictBadge(a, seat, i) {
  const verdict = decisionAt(a, seat, i);
  return verdict && verdict.label
    ? ` <span class="verdict ${esc(verdict.label)}">${LABELS[verdict.label] ?? ""}</span>`
    : "";
}

/**
 * A value as the analysis counts: a chance in percent, or points with their sign.
 * @param {Analysis} a
 * @param {number} value
 */
function fmt(a, value) {
  return a.kind === "not_loser" ? percent(Math.round(value * 100)) : signed(value, true);
}

/**
 * A value with its sampling error when the analysis gives one: `62% ± 3%`.
 * @param {Analysis} a
 * @param {number} value
 * @param {number | null | undefined} error
 */
function fmtError(a, value, error) {
  return error === undefined || error === null ? fmt(a, value) : `${fmt(a, value)} ± ${fmt(a, error).replace("+", "")}`;
}

/**
 * What the analysis said about the move just made, move `k` (lichess's arrows, in words):
 * the position reads "Move k of n" and the box "The analysis: move k".
 * @param {Analysis | null} a
 * @param {string} seat the followed seat
 * @param {string[]} names
 * @param {number} k the position (moves made)
 */
export function renderSaid(a, seat, names, k) {
  const box = $("#said");
  const d = k > 0 ? decisionAt(a, seat, k - 1) : null;
  box.hidden = !d;
  if (!a || !d) return;
  const name = esc(names[a.seat]);
  const values = Object.entries(d.values)
    .sort((x, y) => y[1] - x[1])
    .map(
      ([move, value]) =>
        `<li class="${move === d.played ? "played" : ""}${move === d.best ? " best" : ""}">${moveChips(move)} <span class="muted">${esc(fmtError(a, value, d.errors?.[move]))}</span></li>`,
    )
    .join("");
  /** @type {Record<string, string>} */
  const labels = { inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };
  const verdict = d.label
    ? _("{name} played {played} ({label}); {best} was better by {loss}.", {
        name,
        played: `<b>${moveChips(d.played)}</b>`,
        label: esc(labels[d.label] ?? d.label),
        best: `<b>${moveChips(d.best)}</b>`,
        loss: esc(fmtError(a, d.loss, d.error).replace(/^\+/, "")),
      })
    : _("{name} played {played}: the best move, or as good as it.", { name, played: `<b>${moveChips(d.played)}</b>` });
  box.innerHTML =
    `<h2>${esc(_("The analysis: move {n}", { n: d.number }))}</h2><p class="said-verdict">${verdict}</p>` +
    `<p class="muted">${esc(_("Each legal move's value here, best first:"))}</p><ol class="said-values">${values}</ol>`;
}
