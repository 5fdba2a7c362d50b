// @ts-check
// The lobby's list of tables (open, playing or finished): each one's seats with a button
// for a seat this browser may take, the way back to a seat, the result and the record.
import { api, esc, loadInvites, loadToken, seatLabel, tableUrl } from "../api.js";
import { $, $select } from "../dom.js";
import { _, lang, ngettext } from "../i18n.js";
import { ratedHtml } from "../rated.js";
import { andList, variantName, withMinus } from "../words.js";

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
    const scores = o.scores.map((score, seat) => `${name(seat)} ${withMinus(score)}`).join(", ");
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

/** Load the tables the filter asks for into the list (or say why not); the errors of its
 * seat buttons stay (see seatError). */
export async function loadTables() {
  const list = $("#tables");
  let html;
  try {
    /** @type {{tables: ListedTable[]}} */
    const answer = await api.tables($select("#table-filter").value);
    for (const t of answer.tables) titles.set(t.id, t.title);
    html = answer.tables.length
      ? answer.tables.map(describeTable).join("")
      : `<li class="muted">${esc(_("No tables here yet — create one above."))}</li>`;
  } catch (err) {
    const reason = /** @type {Error} */ (err).message;
    html = `<li class="muted">${esc(_("The tables could not be loaded: {reason}", { reason }))}</li>`;
  }
  if (drawn === html) return; // unchanged: the buttons, the focus and the errors stay
  drawn = html;
  list.innerHTML = html;
  showSeatErrors();
}

/** The list's HTML as last drawn. */
let drawn = "";

/** Each listed table's title, by id (an error outliving its seat button names it). */
const titles = new Map();

/**
 * The errors of the list's seat buttons, by `table:seat`: they outlive the list's
 * refreshes, until the player presses a seat button again or dismisses them.
 * @type {Map<string, {table: string, seat: number, text: string, said: boolean}>}
 */
const seatErrors = new Map();

/**
 * Show an error of a seat button of the list beside it, and keep it there.
 * @param {string} table
 * @param {number} seat
 * @param {string} text the whole error, in the page's language
 */
export function seatError(table, seat, text) {
  seatErrors.set(`${table}:${seat}`, { table, seat, text, said: false });
  showSeatErrors();
}

/** Forget the seat buttons' errors (the player acts again). */
export function clearSeatErrors() {
  seatErrors.clear();
  showSeatErrors();
}

/** Draw the kept errors: each beside its button, or, once the button is gone (the seat
 * taken, the table started), at the top of the list with the table and seat named. */
function showSeatErrors() {
  const list = $("#tables");
  for (const el of list.querySelectorAll(".seat-error, .seat-error-item")) el.remove();
  for (const button of list.querySelectorAll("button[aria-invalid]")) {
    button.removeAttribute("aria-invalid");
    button.removeAttribute("aria-describedby");
  }
  for (const [key, e] of seatErrors) {
    const line = errorLine(key, e);
    /** @type {HTMLButtonElement | null} */
    const button = list.querySelector(`button[data-take="${e.seat}"][data-table="${CSS.escape(e.table)}"]`);
    if (button) {
      button.closest("li")?.appendChild(line);
      button.setAttribute("aria-invalid", "true");
      button.setAttribute("aria-describedby", line.id);
    } else {
      const item = document.createElement("li");
      item.className = "seat-error-item";
      line.firstChild?.replaceWith(
        _("{table}, seat {number}: {reason}", {
          table: titles.get(e.table) ?? "",
          number: e.seat + 1,
          reason: e.text,
        }),
      );
      item.appendChild(line);
      list.prepend(item);
    }
    e.said = true;
  }
}

/**
 * One kept error's line, with its × (announced the first time only).
 * @param {string} key
 * @param {{table: string, seat: number, text: string, said: boolean}} e
 */
function errorLine(key, e) {
  const line = document.createElement("p");
  line.className = "field-error seat-error";
  line.id = `take-${e.table}-${e.seat}-error`;
  if (!e.said) line.setAttribute("role", "alert");
  const close = document.createElement("button");
  close.type = "button";
  close.className = "link dismiss";
  close.setAttribute("aria-label", _("Dismiss"));
  close.textContent = "×";
  close.addEventListener("click", () => {
    seatErrors.delete(key);
    showSeatErrors();
  });
  line.append(e.text, " ", close);
  return line;
}
