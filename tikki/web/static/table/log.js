// @ts-check
// The move log beside the table: a line for each move and for each event it made, added
// as the history grows, and the lines of won tricks turned face down (table memory).
import { esc, seatLabel } from "../api.js";
import { $ } from "../dom.js";
import { eventText } from "../events.js";
import { _ } from "../i18n.js";
import { describe } from "../moves.js";

/** @typedef {import("../store.js").StateMessage} StateMessage */
/** @typedef {import("../store.js").HistoryEntry} HistoryEntry */
/** @typedef {import("../renderers.js").Ctx} Ctx */

/** How many history entries the log shows. */
let logged = 0;

/**
 * Add the new history entries to the log (all of them again when the history shrank).
 * @param {StateMessage} m
 * @param {Ctx} ctx
 */
export function renderLog(m, ctx) {
  const list = $("#log-list");
  const history = m.view.history || [];
  if (history.length < logged) {
    list.replaceChildren();
    logged = 0;
  }
  const box = $("#log-scroll");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const frag = document.createDocumentFragment();
  for (let i = logged; i < history.length; i++) frag.append(...entryLines(m, ctx.names, history[i], i));
  list.appendChild(frag);
  faceDown(list, m.view.memory_hidden);
  logged = history.length;
  $("#log-count").textContent = `${history.length}`;
  if (atBottom || history.length <= 1) box.scrollTop = box.scrollHeight;
}

/**
 * The log's lines for one history entry: the move, then its events.
 * @param {StateMessage} m
 * @param {string[]} names
 * @param {HistoryEntry} e
 * @param {number} i its index in the history
 * @returns {HTMLLIElement[]}
 */
function entryLines(m, names, e, i) {
  const you = e.seat === m.seat;
  const li = document.createElement("li");
  if (you) li.className = "mine";
  li.dataset.i = String(i);
  li.dataset.move = e.move;
  // a bot that played for me does not say "You play"
  const standIn = you && (m.table.takeovers || []).some((t) => t.seat === e.seat && t.from <= i && (t.to === null || i < t.to));
  const name = standIn ? _("Your stand-in bot") : (names[e.seat ?? -1] ?? seatLabel(e.seat ?? 0));
  if (standIn) li.dataset.standIn = "1";
  li.innerHTML = describe(e, you && !standIn, `<span class="who">${esc(name)}</span>`);
  if (you && (m.forced || []).includes(i)) {
    li.dataset.forced = "1";
    const note = document.createElement("span");
    note.className = "forced-note muted";
    note.textContent = _("(your only legal move, played by itself)");
    li.append(" ", note);
  }
  const lines = [li];
  for (const event of e.events || []) {
    const line = eventText(event, names, m.table.game, e);
    if (!line) continue;
    const item = document.createElement("li");
    item.className = "event";
    item.innerHTML = line;
    item.dataset.of = String(i);
    // a won trick's cards can be turned face down (table memory): keep the line without them
    if (event.type === "trick") {
      item.dataset.short = eventText({ ...event, cards: [] }, names, m.table.game, e);
    }
    lines.push(item);
  }
  return lines;
}

/** Table memory in the log: the entries of won tricks in [from, to) show no card (their
 * trump namings are hidden); outside it, or without a range, every entry is whole again.
 * @param {HTMLElement} list
 * @param {[number, number] | undefined} range */
function faceDown(list, range) {
  const [from, to] = range || [0, 0];
  for (const li of list.querySelectorAll("li[data-of][data-short]")) {
    const item = /** @type {HTMLElement} */ (li);
    const i = Number(item.dataset.of);
    turn(item, i >= from && i < to, () => item.dataset.short ?? "");
  }
  for (const li of list.querySelectorAll("li[data-i]")) {
    const item = /** @type {HTMLElement} */ (li);
    const i = Number(item.dataset.i);
    const verb = (item.dataset.move ?? "").split(" ")[0];
    const hide = i >= from && i < to && verb !== "discard";
    const changed = turn(item, hide, () => faceDownLine(item));
    if (changed) {
      item.hidden = hide && verb === "trump";
      item.classList.toggle("face-down", hide);
    }
  }
}

/**
 * Turn a log line face down (its HTML kept in `data-full`) or face up again.
 * @param {HTMLElement} li
 * @param {boolean} hide
 * @param {() => string} hidden the line's HTML face down
 * @returns {boolean} whether the line turned
 */
function turn(li, hide, hidden) {
  if (hide && li.dataset.full === undefined) {
    li.dataset.full = li.innerHTML;
    li.innerHTML = hidden();
    return true;
  }
  if (!hide && li.dataset.full !== undefined) {
    li.innerHTML = li.dataset.full;
    delete li.dataset.full;
    return true;
  }
  return false;
}

/**
 * A move's log line face down: who played a card, not which.
 * @param {HTMLElement} li the move's line (still whole)
 * @returns {string} HTML
 */
function faceDownLine(li) {
  const who = /** @type {Element} */ (li.querySelector(".who")).outerHTML;
  const line =
    li.classList.contains("mine") && !li.dataset.standIn
      ? _("{name} play a card", { name: who })
      : _("{name} plays a card", { name: who });
  return `${line} <span class="muted">${esc(_("(face down now)"))}</span>`;
}
