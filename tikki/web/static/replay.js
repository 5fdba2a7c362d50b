// @ts-check
// The replay page (issue 35, point 12): /replay/{table}?seat=N|all&at=K steps through a
// game move by move, as one seat saw it (or every hand once the game is over);
// /replay opens a record the player uploads (kept, compressed, in the link's fragment so
// the link can be shared). The positions come from the server (GET
// /api/tables/{id}/replay, POST /api/replay), which shows nothing hidden before the end.
// With ?analysis=1 (the links of the analysis chart and log) the page shows what the
// analysis said at each of the seat's decisions.
import { ApiError, api, copyText, esc, loadToken, seatLabel, seatNames } from "./api.js";
import { cardName, cardSVG, sortCards } from "./cards.js";
import { eventText } from "./events.js";
import { _, acceptLanguage, languageSwitcher, translatePage } from "./i18n.js";
import { describe, moveChips } from "./moves.js";
import { percent } from "./words.js";
import { loaded, ready, rendererOf } from "./renderers.js";

const $ = (sel) => document.querySelector(sel);
const LABELS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

const match = location.pathname.match(/\/replay\/([^/?#]+)/);
const params = new URLSearchParams(location.search);
const rp = {
  id: match ? decodeURIComponent(match[1]) : null,
  seat: params.get("seat") ?? "",
  at: params.has("at") ? Number(params.get("at")) : null,
  wantAnalysis: params.get("analysis") === "1",
  /** the server's answer: frames, history, the table or the record's seats */
  data: null,
  record: null,
  packed: "",
  analysis: null,
  names: [],
};

// ---------------------------------------------------------------- loading

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": acceptLanguage() },
    body,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && data.detail;
    throw new ApiError(response.status, detail?.code ?? "error", detail?.message ?? _("The server answered {status}.", { status: response.status }));
  }
  return data;
}

async function get(path) {
  const token = rp.id ? loadToken(rp.id) : null;
  const headers = { Accept: "application/json", "Accept-Language": acceptLanguage() };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { headers });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && data.detail;
    throw new ApiError(response.status, detail?.code ?? "error", detail?.message ?? _("The server answered {status}.", { status: response.status }));
  }
  return data;
}

async function load() {
  const query = rp.seat === "" ? "" : `?seat=${encodeURIComponent(rp.seat)}`;
  try {
    rp.data = rp.id
      ? await get(`/api/tables/${encodeURIComponent(rp.id)}/replay${query}`)
      : await post(`/api/replay${query}`, rp.record);
  } catch (err) {
    if (err.code === "not_finished" && rp.seat !== "") {
      // before the end, only the spectators' view (or your own seat's)
      rp.seat = "";
      notice(err.message);
      return load();
    }
    throw err;
  }
  const d = rp.data;
  rp.names = d.table
    ? seatNames(d.table)
    : Array.from({ length: d.players }, (_x, i) => (d.seats && d.seats[i] && d.seats[i].name) || seatLabel(i));
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

function notice(text) {
  const box = $("#notice");
  box.className = "notice error";
  box.textContent = text;
  box.hidden = false;
}

function setup() {
  const d = rp.data;
  const title = d.table ? d.table.title : d.title;
  $("#title").textContent = _("Replay: {game}", { game: title });
  document.title = `${_("Replay: {game}", { game: title })} · tikki`;
  const select = $("#perspective");
  select.innerHTML = "";
  select.append(new Option(_("Spectators' view"), ""));
  rp.names.forEach((name, i) => select.append(new Option(_("As {name} saw it", { name }), String(i))));
  const all = new Option(_("Every hand"), "all");
  all.disabled = !d.over;
  select.append(all);
  select.value = d.seat === null || d.seat === undefined ? "" : String(d.seat);
  rp.seat = select.value;
  $("#scrub").max = String(d.frames.length - 1);
  $("#replay-note").textContent = d.over
    ? ""
    : _("This game is not over: the replay shows what its spectators saw, no hand.");
  $("#upload").hidden = true;
  $("#board").hidden = false;
}

function renderer() {
  return rendererOf(rp.data.game);
}

/** Show the position after `k` moves. */
function show(k) {
  if (!loaded()) {
    ready.then(() => show(k)); // the games' own renderers are still loading
    return;
  }
  const d = rp.data;
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
  $("#scrub").value = String(rp.at);
  $("#first").disabled = $("#back").disabled = rp.at === 0;
  $("#last").disabled = $("#forward").disabled = rp.at === last;
  $("#last-move").innerHTML = lastMove(rp.at, d.game);
  renderSeats(view, R, ctx);
  $("#centre").innerHTML = R.centre(tableView, ctx);
  renderHands(view, seat);
  const over = view.phase === "over";
  $("#result").hidden = !over;
  $("#result").innerHTML = over ? `<h2>${esc(_("Game over"))}</h2>${R.result(view, ctx)}` : "";
  const sheet = R.sheet(tableView, ctx);
  $("#sheet").hidden = !sheet;
  $("#sheet").innerHTML = sheet;
  renderLog(rp.at);
  renderSaid(rp.at);
  const url = new URL(location.href);
  if (rp.seat === "") url.searchParams.delete("seat");
  else url.searchParams.set("seat", rp.seat);
  url.searchParams.set("at", String(rp.at));
  if (rp.packed) url.hash = `record=${rp.packed}`;
  history_.replaceState(null, "", url.href);
}

const history_ = window.history;

function lastMove(k, game) {
  if (k === 0) return esc(_("The cards are dealt."));
  const e = rp.data.history[k - 1];
  const name = `<strong>${esc(rp.names[e.seat] ?? seatLabel(e.seat))}</strong>`;
  const events = (e.events || []).map((ev) => eventText(ev, rp.names, game, e)).filter(Boolean);
  return `${describe(e, false, name)}${events.length ? ` · ${events.join(" ")}` : ""}`;
}

function renderSeats(view, R, ctx) {
  const n = rp.data.players;
  const items = [];
  for (let s = 0; s < n; s++) {
    const acting = view.to_act === s && view.phase !== "over";
    const stats = R.seatStats(view, s)
      .map(([label, value]) => `<div><dt>${esc(label)}</dt><dd>${esc(value)}</dd></div>`)
      .join("");
    const badges = R.seatBadges(view, s)
      .map((b) => {
        const [key, text] = Array.isArray(b) ? b : [b.split(" ")[0], _(b)];
        return `<span class="badge badge-${esc(key)}">${esc(text)}</span>`;
      })
      .join("");
    items.push(
      `<li class="seat${acting ? " acting" : ""}${s === ctx.mySeat ? " mine" : ""}" data-seat="${s}"${acting ? ' aria-current="true"' : ""}>` +
        `<div class="seat-head"><span class="seat-name">${acting ? '<span class="turn-dot" aria-hidden="true">▶</span> ' : ""}` +
        `${esc(rp.names[s])}</span>${badges}</div><dl class="stats">${stats}</dl>${R.seatExtra(view, s)}</li>`,
    );
  }
  $("#seats").innerHTML = items.join("");
}

function handRow(cards, title) {
  const hand = sortCards(cards || []);
  const items = hand
    .map((c) => `<li><span class="card static hand-card" role="img" aria-label="${esc(cardName(c))}">${cardSVG(c)}</span></li>`)
    .join("");
  return (
    `<div class="replay-hand"><h2 class="hand-title">${esc(title)} · ${hand.length}</h2>` +
    `<ul class="hand">${items || `<li class="muted empty-hand">${esc(_("No cards."))}</li>`}</ul></div>`
  );
}

function renderHands(view, seat) {
  const box = $("#hands");
  if (rp.seat === "all" && view.hands) {
    box.innerHTML = view.hands.map((cards, s) => handRow(cards, _("{name}'s hand", { name: rp.names[s] }))).join("");
  } else if (seat !== null) {
    box.innerHTML = handRow(view.hand, _("{name}'s hand", { name: rp.names[seat] }));
  } else {
    box.innerHTML = `<p class="muted">${esc(_("Spectators see no hand. Choose a player's view above."))}</p>`;
  }
}

function renderLog(k) {
  const list = $("#log-list");
  const history = rp.data.history;
  if (list.dataset.n !== String(history.length) || list.dataset.seat !== rp.seat) {
    list.innerHTML = history
      .map((e, i) => {
        const name = `<span class="who">${esc(rp.names[e.seat] ?? seatLabel(e.seat))}</span>`;
        const verdict = decisionAt(i);
        const badge = verdict && verdict.label
          ? ` <span class="verdict ${esc(verdict.label)}">${LABELS[verdict.label] ?? ""}</span>`
          : "";
        return `<li data-i="${i}"><button type="button" class="link replay-step" data-at="${i + 1}">${describe(e, false, name)}</button>${badge}</li>`;
      })
      .join("");
    list.dataset.n = String(history.length);
    list.dataset.seat = rp.seat;
  }
  $("#log-count").textContent = `${k} / ${history.length}`;
  for (const li of list.children) {
    const i = Number(li.dataset.i);
    li.classList.toggle("future", i >= k);
    if (i === k - 1) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
  const current = list.querySelector('[aria-current="step"]');
  if (current) {
    const box = $("#log-scroll");
    const top = current.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 30) box.scrollTop = top - box.clientHeight / 2;
  }
}

/** The analysis of the followed seat's decision at history index `i` (move i + 1). */
function decisionAt(i) {
  const a = rp.analysis;
  if (!a || String(a.seat) !== rp.seat) return null;
  return a.decisions.find((d) => d.number === i + 1) ?? null;
}

function fmt(value) {
  const a = rp.analysis;
  return a.kind === "not_loser" ? percent(Math.round(value * 100)) : `${value >= 0 ? "+" : ""}${value.toFixed(1)}`;
}

/** A value with its sampling error when the analysis gives one: `62% ± 3%`. */
function fmtError(value, error) {
  return error === undefined || error === null ? fmt(value) : `${fmt(value)} ± ${fmt(error).replace("+", "")}`;
}

/** What the analysis said about the decision taken at this position (lichess's arrows, in words). */
function renderSaid(k) {
  const box = $("#said");
  const d = decisionAt(k);
  box.hidden = !d;
  if (!d) return;
  const name = esc(rp.names[rp.analysis.seat]);
  const values = Object.entries(d.values)
    .sort((x, y) => y[1] - x[1])
    .map(
      ([move, value]) =>
        `<li class="${move === d.played ? "played" : ""}${move === d.best ? " best" : ""}">${moveChips(move)} <span class="muted">${esc(fmtError(value, d.errors?.[move]))}</span></li>`,
    )
    .join("");
  const verdict = d.label
    ? _("{name} played {played} ({label}); {best} was better by {loss}.", {
        name,
        played: `<b>${moveChips(d.played)}</b>`,
        label: esc({ inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") }[d.label] ?? d.label),
        best: `<b>${moveChips(d.best)}</b>`,
        loss: esc(fmtError(d.loss, d.error).replace(/^\+/, "")),
      })
    : _("{name} played {played}: the best move, or as good as it.", { name, played: `<b>${moveChips(d.played)}</b>` });
  box.innerHTML =
    `<h2>${esc(_("The analysis: move {n}", { n: d.number }))}</h2><p class="said-verdict">${verdict}</p>` +
    `<p class="muted">${esc(_("Each legal move's value here, best first:"))}</p><ol class="said-values">${values}</ol>`;
}

// ---------------------------------------------------------------- input

function step(delta) {
  if (rp.data) show(rp.at + delta);
}

document.addEventListener("click", (ev) => {
  const target = /** @type {HTMLElement} */ (ev.target);
  const stepBtn = target.closest(".replay-step");
  if (stepBtn) return show(Number(stepBtn.getAttribute("data-at")));
  const id = target.closest("button")?.id;
  if (id === "first") show(0);
  else if (id === "back") step(-1);
  else if (id === "forward") step(1);
  else if (id === "last") show(rp.data.frames.length - 1);
  else if (id === "share") share();
});

document.addEventListener("keydown", (ev) => {
  const t = /** @type {HTMLElement} */ (ev.target);
  if (!rp.data || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (t.matches("input, select, textarea")) return; // the slider and the menu keep their keys
  const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  if (!(ev.key in moves)) return;
  ev.preventDefault();
  const delta = moves[ev.key];
  if (delta === -Infinity) show(0);
  else if (delta === Infinity) show(rp.data.frames.length - 1);
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
    notice(err.message);
  }
}

// ---------------------------------------------------------------- uploaded records

async function squeeze(stream) {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A record as a compact, URL-safe text (raw deflate, base64url): the shared link's fragment. */
async function pack(text) {
  const bytes = await squeeze(new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw")));
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(out).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function unpack(packed) {
  const raw = atob(packed.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(raw, (c) => c.charCodeAt(0));
  const out = await squeeze(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")));
  return new TextDecoder().decode(out);
}

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
    rp.packed = await pack(JSON.stringify(JSON.parse(text)));
    show(rp.at);
  } catch (err) {
    $("#board").hidden = true;
    $("#upload").hidden = false;
    error.textContent = err.message;
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
