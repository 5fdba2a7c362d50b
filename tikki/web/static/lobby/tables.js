// @ts-check
// The lobby's list of tables (open, playing or finished): each one's seats with a button
// for a seat this browser may take, the way back to a seat, the result and the record.
import { api, esc, loadInvites, loadToken, seatLabel, tableUrl } from "../api.js";
import { $, $select } from "../dom.js";
import { _, lang, ngettext } from "../i18n.js";
import { ratedHtml } from "../rated.js";
import { andList, variantName } from "../words.js";

/**
 * @typedef {object} ListedTable A table of GET /api/tables.
 * @property {string} id
 * @property {string} title
 * @property {string} [variant]
 * @property {number} players
 * @property {"waiting" | "playing" | "finished"} status
 * @property {string} [created]
 * @property {boolean} [rated]
 * @property {{seat: number, kind: string, name?: string, anyone?: boolean}[]} seats
 * @property {{abandoned?: boolean, scores?: number[], winners?: number[], loser?: number | null} | null} [outcome]
 */

/**
 * One table of the list.
 * @param {ListedTable} t
 * @returns {string} HTML
 */
function describeTable(t) {
  const variant = t.variant && t.variant !== "standard" ? ` · ${variantName(t.variant)}` : "";
  const seats = t.seats
    .map((s) => {
      if (s.kind === "open" && !s.anyone && !loadInvites(t.id)[s.seat]) {
        return `<span class="muted">${esc(_("seat {number}: invite only", { number: s.seat + 1 }))}</span>`;
      }
      if (s.kind === "open") {
        return t.status === "waiting"
          ? `<button type="button" class="secondary small" data-take="${s.seat}" data-table="${esc(t.id)}">${esc(_("Join seat {number}", { number: s.seat + 1 }))}</button>`
          : `<span class="muted">${esc(_("seat {number} open", { number: s.seat + 1 }))}</span>`;
      }
      return `<span class="seat-chip ${s.kind}">${esc(s.name || seatLabel(s.seat))}</span>`;
    })
    .join(" ");
  const mine = loadToken(t.id)
    ? ` <a class="button small" href="${tableUrl(t.id)}">${esc(_("Back to my seat"))}</a>`
    : "";
  const watch =
    t.status !== "waiting"
      ? ` <a class="small" href="${tableUrl(t.id)}">${esc(t.status === "finished" ? _("See the result") : _("Watch"))}</a>`
      : "";
  const record =
    t.status === "finished"
      ? ` · <a class="small" href="/replay/${esc(t.id)}">${esc(_("replay"))}</a>` +
        ` · <a class="small" href="/api/tables/${esc(t.id)}/record">${esc(_("record"))}</a>`
      : "";
  const when = t.created ? new Date(t.created).toLocaleString(lang === "pseudo" ? "en" : lang) : "";
  const result = t.status === "finished" ? resultLine(t) : "";
  return (
    `<li class="table-item"><div class="table-head"><strong>${esc(t.title)}</strong>${esc(variant)}${ratedHtml(t)}` +
    ` · ${esc(ngettext("{n} player", "{n} players", t.players))} <span class="muted">${esc(when)}</span></div>` +
    `<div class="table-seats">${seats}${mine}${watch}${record}</div>${result}</li>`
  );
}

/**
 * A finished table's result in one line: the loser, or the winners and the scores.
 * @param {ListedTable} t
 * @returns {string} HTML
 */
function resultLine(t) {
  const o = t.outcome;
  if (!o) return "";
  /** @param {number} seat */
  const name = (seat) => t.seats[seat]?.name || seatLabel(seat);
  let text;
  if (o.abandoned) text = _("Abandoned: no result");
  else if (Array.isArray(o.scores)) {
    const winners = (o.winners || []).map(name);
    const scores = o.scores.map((score, seat) => `${name(seat)} ${score}`).join(", ");
    text = winners.length
      ? ngettext("{names} won · {scores}", "{names} won · {scores}", winners.length, {
          names: andList(winners),
          scores,
        })
      : _("Nobody won · {scores}", { scores });
  } else if (o.loser !== undefined && o.loser !== null) text = _("{name} lost", { name: name(o.loser) });
  else return "";
  return `<div class="result-line" data-result="${esc(t.id)}">${esc(text)}</div>`;
}

/** Load the tables the filter asks for into the list (or say why not). */
export async function loadTables() {
  const list = $("#tables");
  try {
    /** @type {{tables: ListedTable[]}} */
    const answer = await api.tables($select("#table-filter").value);
    list.innerHTML = answer.tables.length
      ? answer.tables.map(describeTable).join("")
      : `<li class="muted">${esc(_("No tables here yet — create one above."))}</li>`;
  } catch (err) {
    const reason = /** @type {Error} */ (err).message;
    list.innerHTML = `<li class="muted">${esc(_("The tables could not be loaded: {reason}", { reason }))}</li>`;
  }
}
