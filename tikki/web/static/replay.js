// @ts-check
// The replay page: /replay/{table}?seat=N|all&at=K steps through a
// game move by move, as one seat saw it (or every hand once the game is over);
// /replay opens a record the player uploads (kept, compressed, in the link's fragment so
// the link can be shared). The positions come from the server (GET
// /api/tables/{id}/replay, POST /api/replay), which shows nothing hidden before the end.
// With ?analysis=1 (the links of the analysis chart and log) the page shows what the
// analysis said at each of the seat's decisions.
import { api, copyText, esc, loadToken, seatLabel, seatNames } from "./api.js";
import { eventText } from "./events.js";
import { $, $button, $input, $select, showError } from "./dom.js";
import { _, languageSwitcher, translatePage } from "./i18n.js";
import { describe } from "./moves.js";
import { botSeatName } from "./words.js";
import { loaded, ready, rendererOf } from "./renderers.js";
import { compactJson, get, pack, post, unpack } from "./replay/record.js";
import { renderSaid, verdictBadge } from "./replay/said.js";
import { renderHands, renderSeats } from "./replay/seats.js";

const match = location.pathname.match(/\/replay\/([^/?#]+)/);
const params = new URLSearchParams(location.search);
/** @typedef {import("./store.js").HistoryEntry} HistoryEntry */
/** @typedef {import("./renderers.js").Ctx} Ctx */
/** @typedef {import("./renderers.js").Renderer} Renderer */
/** @typedef {import("./replay/said.js").Analysis} Analysis */

/**
 * @typedef {object} ReplayData The server's answer (docs/protocol.md: the replay).
 * @property {string} game
 * @property {number} players
 * @property {boolean} over
 * @property {any[]} frames the view after each move (the deal first)
 * @property {HistoryEntry[]} history
 * @property {number | string | null} [seat] whose view the frames are
 * @property {import("./store.js").Table} [table] a table's replay: its table
 * @property {string} [title] an uploaded record's game title
 * @property {{name?: string}[]} [seats] an uploaded record's seats
 * @property {any} [outcome]
 */

const rp = {
  id: match ? decodeURIComponent(match[1]) : null,
  seat: params.get("seat") ?? "",
  /** @type {number | null} */
  at: params.has("at") ? Number(params.get("at")) : null,
  wantAnalysis: params.get("analysis") === "1",
  /** the server's answer: frames, history, the table or the record's seats
   * @type {ReplayData | null} */
  data: null,
  /** @type {string | null} an uploaded record (JSON text) */
  record: null,
  packed: "",
  /** @type {Analysis | null} */
  analysis: null,
  /** @type {string[]} */
  names: [],
};

/** The replay loaded (load() sets it before anything is drawn). */
const data = () => /** @type {ReplayData} */ (rp.data);

// ---------------------------------------------------------------- loading

async function load() {
  const query = rp.seat === "" ? "" : `?seat=${encodeURIComponent(rp.seat)}`;
  try {
    rp.data = rp.id
      ? await get(`/api/tables/${encodeURIComponent(rp.id)}/replay${query}`, loadToken(rp.id))
      : await post(`/api/replay${query}`, rp.record);
  } catch (err) {
    const error = /** @type {import("./api.js").ApiError} */ (err);
    if (error.code === "not_finished" && rp.seat !== "") {
      // before the end, only the spectators' view (or your own seat's)
      rp.seat = "";
      notice(error.message);
      return load();
    }
    throw err;
  }
  const d = data();
  rp.names = d.table
    ? seatNames(d.table)
    : Array.from({ length: d.players }, (_x, i) => recordSeatName(d.seats && d.seats[i], i));
  rp.analysis = null;
  if (rp.id && rp.wantAnalysis && d.over && /^\d+$/.test(rp.seat)) {
    try {
      const job = await api.analysis(rp.id, Number(rp.seat));
      if (job.status === "done") rp.analysis = job.analysis;
    } catch {
      rp.analysis = null; // no analysis asked for (or the server restarted): the replay alone
    }
  }
  const last = d.frames.length - 1;
  rp.at = rp.at === null || !Number.isFinite(rp.at) ? (d.over ? 0 : last) : Math.max(0, Math.min(last, rp.at));
  setup();
  show(rp.at);
}

// ---------------------------------------------------------------- the page

/** Show an error (dom.js); empty: hide it. */
const notice = showError;

/** Set the page up for a loaded replay: its title, the views to choose, the slider. */
function setup() {
  const d = data();
  const title = d.table ? d.table.title : d.title;
  $("#title").textContent = _("Replay: {game}", { game: title });
  document.title = `${_("Replay: {game}", { game: title })} · tikki`;
  const select = $select("#perspective");
  select.replaceChildren();
  select.append(new Option(_("Spectators' view"), ""));
  rp.names.forEach((name, i) => select.append(new Option(_("As {name} saw it", { name }), String(i))));
  const all = new Option(_("Every hand"), "all");
  all.disabled = !d.over;
  select.append(all);
  select.value = d.seat === null || d.seat === undefined ? "" : String(d.seat);
  rp.seat = select.value;
  $input("#scrub").max = String(d.frames.length - 1);
  $("#replay-note").textContent = d.over
    ? ""
    : _("This game is not over: the replay shows what its spectators saw, no hand.");
  $("#upload").hidden = true;
  $("#board").hidden = false;
}

function renderer() {
  return rendererOf(data().game);
}

/** Show the position after `k` moves.
 * @param {number} k */
function show(k) {
  if (!loaded()) {
    ready.then(() => show(k)); // the games' own renderers are still loading
    return;
  }
  const d = data();
  const last = d.frames.length - 1;
  rp.at = Math.max(0, Math.min(last, k));
  const view = d.frames[rp.at];
  const history = d.history;
  const R = renderer();
  const seat = /^\d+$/.test(rp.seat) ? Number(rp.seat) : null;
  const ctx = {
    plainNames: rp.names,
    names: rp.names,
    mySeat: seat,
    legal: [],
    outcome: d.outcome,
    // a game's hidden won tricks stay face down during a round, as at the live table,
    // unless the table had memory aids or the game is shown with every hand
    memoryAids: rp.seat === "all" || Boolean(d.table?.memory_aids),
  };
  const shown = R.tableView ? { ...view, history: history.slice(0, rp.at) } : view;
  const tableView = R.tableView ? R.tableView(shown, ctx) : view;
  const board = $("#board");
  board.dataset.at = String(rp.at);
  board.dataset.game = d.game;
  $("#phase").textContent = R.phase(view);
  $("#position").textContent = rp.at === 0 ? _("The deal · move 0 of {n}", { n: last }) : _("Move {k} of {n}", { k: rp.at, n: last });
  $input("#scrub").value = String(rp.at);
  $button("#first").disabled = $button("#back").disabled = rp.at === 0;
  $button("#last").disabled = $button("#forward").disabled = rp.at === last;
  $("#last-move").innerHTML = lastMove(rp.at, d.game);
  renderSeats(view, R, ctx, rp.names, d.players);
  $("#centre").innerHTML = R.centre(tableView, ctx);
  renderHands(view, seat, rp.seat === "all", rp.names);
  const over = view.phase === "over";
  $("#result").hidden = !over;
  $("#result").innerHTML = over ? `<h2>${esc(_("Game over"))}</h2>${R.result(view, ctx)}` : "";
  const sheet = R.sheet(tableView, ctx);
  $("#sheet").hidden = !sheet;
  $("#sheet").innerHTML = sheet;
  renderLog(rp.at);
  renderSaid(rp.analysis, rp.seat, rp.names, rp.at);
  const url = new URL(location.href);
  if (rp.seat === "") url.searchParams.delete("seat");
  else url.searchParams.set("seat", rp.seat);
  url.searchParams.set("at", String(rp.at));
  if (rp.packed) url.hash = `record=${rp.packed}`;
  history_.replaceState(null, "", url.href);
}

const history_ = window.history;

/**
 * The move that led to position `k`, with its events (HTML).
 * @param {number} k
 * @param {string} game
 */
function lastMove(k, game) {
  if (k === 0) return esc(_("The cards are dealt."));
  const e = data().history[k - 1];
  const name = `<strong>${esc(rp.names[e.seat ?? -1] ?? seatLabel(e.seat ?? 0))}</strong>`;
  const events = (e.events || []).map((ev) => eventText(ev, rp.names, game, e)).filter(Boolean);
  return `${describe(e, false, name)}${events.length ? ` · ${events.join(" ")}` : ""}`;
}

/**
 * The moves, each a step to its position; those after position `k` greyed.
 * @param {number} k
 */
function renderLog(k) {
  const list = $("#log-list");
  const history = data().history;
  if (list.dataset.n !== String(history.length) || list.dataset.seat !== rp.seat) {
    list.innerHTML = history
      .map((e, i) => {
        const name = `<span class="who">${esc(rp.names[e.seat ?? -1] ?? seatLabel(e.seat ?? 0))}</span>`;
        const badge = verdictBadge(rp.analysis, rp.seat, i);
        return `<li data-i="${i}"><button type="button" class="link replay-step" data-at="${i + 1}">${describe(e, false, name)}</button>${badge}</li>`;
      })
      .join("");
    list.dataset.n = String(history.length);
    list.dataset.seat = rp.seat;
  }
  $("#log-count").textContent = `${k} / ${history.length}`;
  for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
    const i = Number(li.dataset.i);
    li.classList.toggle("future", i >= k);
    if (i === k - 1) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
  const current = /** @type {HTMLElement | null} */ (list.querySelector('[aria-current="step"]'));
  if (current) {
    const box = $("#log-scroll");
    const top = current.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 30) box.scrollTop = top - box.clientHeight / 2;
  }
}

// ---------------------------------------------------------------- input

/** @param {number} delta moves forward (negative: back) */
function step(delta) {
  if (rp.data) show((rp.at ?? 0) + delta);
}

document.addEventListener("click", (ev) => {
  const target = /** @type {HTMLElement} */ (ev.target);
  const stepBtn = target.closest(".replay-step");
  if (stepBtn) return show(Number(stepBtn.getAttribute("data-at")));
  const id = target.closest("button")?.id;
  if (id === "first") show(0);
  else if (id === "back") step(-1);
  else if (id === "forward") step(1);
  else if (id === "last") show(data().frames.length - 1);
  else if (id === "share") share();
});

document.addEventListener("keydown", (ev) => {
  const t = /** @type {HTMLElement} */ (ev.target);
  if (!rp.data || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (t.matches("input, select, textarea")) return; // the slider and the menu keep their keys
  /** @type {Record<string, number>} */
  const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  if (!(ev.key in moves)) return;
  ev.preventDefault();
  const delta = moves[ev.key];
  if (delta === -Infinity) show(0);
  else if (delta === Infinity) show(data().frames.length - 1);
  else step(delta);
});

async function share() {
  const ok = await copyText(location.href);
  $("#share").textContent = ok ? _("Link copied") : _("Copy link");
  setTimeout(() => ($("#share").textContent = _("Copy link")), 2000);
}

function wire() {
  $("#scrub").addEventListener("input", (ev) => show(Number(/** @type {HTMLInputElement} */ (ev.target).value)));
  $("#perspective").addEventListener("change", async (ev) => {
    rp.seat = /** @type {HTMLSelectElement} */ (ev.target).value;
    await reload();
  });
  $("#record-file").addEventListener("change", async (ev) => {
    const file = /** @type {HTMLInputElement} */ (ev.target).files?.[0];
    if (!file) return;
    await openRecord(await file.text(), true);
  });
}

async function reload() {
  try {
    await load();
  } catch (err) {
    notice(/** @type {Error} */ (err).message);
  }
}

// ---------------------------------------------------------------- uploaded records

/**
 * Replay an uploaded record (`fresh`: from its first position, not the link's).
 * @param {string} text the record's JSON
 * @param {boolean} fresh
 */
async function openRecord(text, fresh) {
  const error = $("#upload-error");
  error.hidden = true;
  try {
    JSON.parse(text);
  } catch {
    error.textContent = _("This file is not a record: a record is the JSON file a finished game saves.");
    error.hidden = false;
    return;
  }
  rp.record = text;
  if (fresh) rp.at = null;
  try {
    await load();
    rp.packed = await pack(compactJson(text)); // the text as it came: big seeds stay whole
    show(rp.at ?? 0);
  } catch (err) {
    $("#board").hidden = true;
    $("#upload").hidden = false;
    error.textContent = /** @type {Error} */ (err).message;
    error.hidden = false;
  }
}

async function start() {
  translatePage();
  languageSwitcher(document.querySelector(".topbar"));
  wire();
  if (rp.id) return reload();
  $("#upload").hidden = false;
  const packed = new URLSearchParams(location.hash.slice(1)).get("record");
  if (packed) {
    try {
      await openRecord(await unpack(packed), false);
    } catch {
      notice(_("This link's record is damaged: open the record file instead."));
    }
  }
}

start();

/** An uploaded record's seat as the page names it: a bot with its level in the page's
 * language (the record keeps the words of the language it was saved in), a person by name.
 * @param {{name?: string, bot?: string | null} | undefined} seat
 * @param {number} i */
function recordSeatName(seat, i) {
  if (seat && seat.bot) return botSeatName(seat.name, seat.bot);
  return (seat && seat.name) || seatLabel(i);
}
