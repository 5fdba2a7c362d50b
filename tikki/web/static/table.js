// @ts-check
// The table page (/t/{id}?seat=N): joins or reconnects to a seat and draws the seat's view;
// the input (cards, moves, hints) goes from here. The WebSocket is connection.js's, the
// state a message leaves is store.js's (no DOM there), each game's centre is render/*.js's;
// this module draws the board, the hand, the moves and the log.
import {
  api,
  copyText,
  deviceUrl,
  esc,
  forgetToken,
  fragment,
  loadInvites,
  loadName,
  loadToken,
  recordUrl,
  saveName,
  saveToken,
  seatLabel,
  seatNames,
  tableUrl,
} from "./api.js";
import { _, lang, languageSwitcher, translatePage } from "./i18n.js";
import { levelName, variantName } from "./words.js";
import { markRated, ratedHtml } from "./rated.js";
import { cardName, cardSVG, sortCards } from "./cards.js";
import { eventText } from "./events.js";
import { buttonLabel, classify, describe, extensions, moveChips, moveForSelection, parseMove } from "./moves.js";
import { CLOSED_FOR_GOOD, Connection } from "./connection.js";
import {
  clearSelection,
  dueTrick,
  faceDownAt,
  initialState,
  myTurn,
  pickCard,
  receive,
  recentEvents,
} from "./store.js";
import { doneTrickHtml, reviewHtml } from "./render/trick.js";
import { renderExtras } from "./table_extras.js";
import { fieldError } from "./fielderror.js";
import { REVOKED, adoptDeviceLink, keepOpenHtml, renderCustody, revokeLinks } from "./custody.js";
import { initTurnSound, turnAlert } from "./turnsound.js";
import { loaded, ready, rendererOf } from "./renderers.js";

const $ = (sel) => document.querySelector(sel);

const match = location.pathname.match(/\/t\/([^/?#]+)/);
const params = new URLSearchParams(location.search);
const app = {
  id: match ? decodeURIComponent(match[1]) : params.get("table"),
  seatParam: params.has("seat") ? Number(params.get("seat")) : null,
  invite: fragment().get("invite"),
  token: null,
  /** @type {Connection | null} */
  conn: null,
  store: initialState(), // the latest state message, the selection and the hint (store.js)
  pending: false,
  pendingTimer: null,
  revoking: false, // this browser is revoking its seat's device links (custody.js)
  watching: false,
  logged: 0,
  resultShown: false,
  doneSeen: new Map(), // finished tricks drawn: key -> when first drawn
  doneTimer: null,
  reviewOpen: false,
  seenSlots: new Set(),
};

// ---------------------------------------------------------------- notices and status

let noticeTimer = null;
function notice(text, kind = "error") {
  const box = $("#notice");
  box.className = `notice ${kind}`;
  box.innerHTML = `<span>${esc(text)}</span> <button type="button" class="link" data-close-notice aria-label="${esc(_("Dismiss"))}">×</button>`;
  box.hidden = false;
  clearTimeout(noticeTimer);
  // an error stays until the player acts (a move, or ×); news goes by itself
  if (kind === "info") noticeTimer = setTimeout(() => (box.hidden = true), 8000);
}

function conn(state, text) {
  const el = $("#conn");
  el.dataset.state = state;
  el.textContent = text;
}

function fatal(text) {
  $("#board").hidden = true;
  $("#join").hidden = true;
  const box = $("#fatal");
  box.hidden = false;
  box.innerHTML = `<h2>${esc(text)}</h2><p><a href="/">${esc(_("Back to the lobby"))}</a></p>`;
}

// ---------------------------------------------------------------- joining

async function showJoin(reason) {
  let table;
  try {
    table = await api.table(app.id);
  } catch (err) {
    if (err.status === 404) return fatal(_("This table does not exist."));
    notice(err.message);
    setTimeout(() => showJoin(reason), 3000);
    return;
  }
  if (table.status === "finished") return watch();
  const mine = (s) => s.seat === app.seatParam && (s.anyone || app.invite);
  const open = table.seats.filter((s) => s.kind === "open" && (s.anyone || mine(s))).map((s) => s.seat);
  const seat = open.includes(app.seatParam) ? app.seatParam : null;
  const invited = table.seats.find((s) => s.seat === app.seatParam && s.kind === "open" && !mine(s));
  const box = $("#join");
  const title = `${table.title}${table.variant && table.variant !== "standard" ? ` (${variantName(table.variant)})` : ""}`;
  const who = table.seats
    .map(
      (s) =>
        `<li>${esc(
          s.kind === "open"
            ? _("Seat {number}: open", { number: s.seat + 1 })
            : _("Seat {number}: {name}", { number: s.seat + 1, name: s.name }),
        )}</li>`,
    )
    .join("");
  const nameField =
    `<form id="join-form" class="join-form"><label for="join-name">${esc(_("Your name"))}</label>` +
    `<input id="join-name" name="name" required maxlength="40" autocomplete="nickname" value="${esc(loadName())}">`;
  const takeSeat = (n) => esc(_("Take seat {number}", { number: n + 1 }));
  let form;
  if (seat !== null) {
    form = `${nameField}<button type="submit" class="primary">${takeSeat(seat)}</button></form>`;
  } else if (open.length) {
    const why = invited
      ? `${_("Seat {number} needs its invite link.", { number: app.seatParam + 1 })} `
      : app.seatParam !== null
        ? `${_("Seat {number} is taken.", { number: app.seatParam + 1 })} `
        : "";
    form =
      `<p>${esc(why)}${esc(_("Seats open to anyone:"))}</p>${nameField}` +
      open.map((s) => `<button type="submit" class="primary" name="seat" value="${s}">${takeSeat(s)}</button>`).join("") +
      `</form>`;
  } else if (table.seats.some((s) => s.kind === "open")) {
    const whose = invited
      ? _("Seat {number} needs its invite link: open the whole link you were sent.", { number: app.seatParam + 1 })
      : _("The open seats are kept for the holders of their invite links: open the whole link you were sent.");
    form = `<p>${esc(whose)}</p>`;
  } else {
    form = `<p>${esc(_("Every seat is taken."))}</p>`;
  }
  box.innerHTML =
    `<h2>${esc(_("Join {table}", { table: title }))}${ratedHtml(table)}</h2>${reason ? `<p class="muted">${esc(reason)}</p>` : ""}` +
    `<ul class="seat-list">${who}</ul>${form}` +
    `<p><button type="button" id="watch-btn" class="secondary">${esc(_("Just watch"))}</button> · ` +
    `<a href="/">${esc(_("Lobby"))}</a></p>`;
  box.hidden = false;
  $("#board").hidden = true;
  $("#watch-btn").addEventListener("click", () => watch());
  const formEl = $("#join-form");
  if (!formEl) return;
  const input = $("#join-name");
  input.focus();
  formEl.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) {
      fieldError(input, _("Please enter your name first."));
      input.focus();
      return;
    }
    const chosen = ev.submitter && ev.submitter.value ? Number(ev.submitter.value) : seat;
    for (const b of formEl.querySelectorAll("button")) b.disabled = true;
    try {
      const invite = chosen === app.seatParam ? app.invite : null;
      const answer = await api.join(app.id, chosen, name, invite);
      saveName(name);
      saveToken(app.id, answer.token, answer.seat);
      app.token = answer.token;
      history.replaceState(null, "", tableUrl(app.id, answer.seat));
      box.hidden = true;
      connect();
    } catch (err) {
      await showJoin();
      const field = $("#join-name");
      if (field) fieldError(field, err.message);
      else notice(err.message);
    }
  });
}

function watch() {
  app.watching = true;
  app.token = null;
  $("#join").hidden = true;
  connect();
}

// ---------------------------------------------------------------- the connection

function connect() {
  if (!app.conn) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${proto}//${location.host}/ws/tables/${encodeURIComponent(app.id)}?lang=${lang}`;
    app.conn = new Connection(url, { token: () => app.token, onMessage, onStatus: conn, onClose: closed });
    app.conn.reviveWhen(() => Boolean(app.token || app.watching));
  }
  app.conn.connect();
}

/** The socket closed: true to reconnect later; a bad token or a gone table ends it here. */
function closed(code) {
  setPending(false);
  if (code === REVOKED) {
    // The seat's links were revoked: by this browser (it reconnects with the new token
    // once it has it), or by another device (this one's token is void).
    if (app.revoking) return false;
    return closed(CLOSED_FOR_GOOD.badToken);
  }
  if (code === CLOSED_FOR_GOOD.badToken) {
    forgetToken(app.id);
    app.token = null;
    conn("offline", _("not seated"));
    showJoin(_("This browser's seat token is not valid for this table."));
    return false;
  }
  if (code === CLOSED_FOR_GOOD.unknownTable) {
    conn("offline", _("offline"));
    fatal(_("This table does not exist."));
    return false;
  }
  return true;
}

const sendRaw = (obj) => (app.conn ? app.conn.send(obj) : false);

function setPending(on) {
  app.pending = on;
  clearTimeout(app.pendingTimer);
  document.body.classList.toggle("pending", on);
  if (on) {
    // No answer in time: ask for the state again rather than leave the page stuck.
    app.pendingTimer = setTimeout(() => {
      app.pending = false;
      document.body.classList.remove("pending");
      sendRaw({ type: "sync" });
    }, 8000);
  }
}

function play(move) {
  const m = app.store.msg;
  if (!m || app.pending || !myTurn(m)) return;
  if ($("#notice").classList.contains("error")) $("#notice").hidden = true; // the player acts
  if (!m.view.legal_moves.includes(move)) {
    notice(_("{move} is not a legal move now.", { move }));
    return;
  }
  setPending(true);
  if (document.activeElement && document.activeElement.closest("#actions, #centre")) {
    // a move made with a button: the focus goes back to the hand (keyboard play)
    const card = rove($("#hand"), keys.index);
    if (card) card.focus();
  }
  if (sendRaw({ type: "move", move, seq: m.seq })) return;
  // No WebSocket at the moment: play over HTTP, which answers the new state.
  api
    .move(app.id, app.token, move, m.seq)
    .then((answer) => onMessage(answer))
    .catch((err) => {
      setPending(false);
      if (err.code === "stale") notice(_("The table moved on; try again on the current state."), "info");
      else notice(err.message);
      api.state(app.id, app.token).then(onMessage, () => {});
    });
  if (!app.conn || !app.conn.active) connect();
}

function askHint() {
  if (!app.store.msg || !myTurn(app.store.msg)) return;
  $("#hint-text").innerHTML = `<span class="muted">${esc(_("Asking a bot…"))}</span>`;
  if (sendRaw({ type: "hint" })) return;
  api.hint(app.id, app.token).then(
    (answer) => onMessage({ type: "hint", ...answer }),
    (err) => notice(err.message),
  );
}

function onMessage(m) {
  const got = receive(app.store, m);
  app.store = got.state;
  if (got.answered) setPending(false);
  if (got.notice) notice(got.notice.text, got.notice.kind);
  if (got.sync) sendRaw({ type: "sync" });
  if (got.render) render();
}

// ---------------------------------------------------------------- the finished trick

/** The finished trick to show now (store.js's dueTrick), drawn again when its time is up. */
function doneTrick(m, ctx) {
  const due = dueTrick(m, app.doneSeen, Date.now());
  clearTimeout(app.doneTimer);
  if (!due) return "";
  const [done, left] = due;
  if (left > 0) app.doneTimer = setTimeout(render, left + 20);
  // table memory turns a won trick face down, but only after it was face up for its
  // hold, even when its winner leads the next trick at once (issue #35 item 6)
  return doneTrickHtml(done, left <= 0 && faceDownAt(m.view, done.index), ctx.names);
}

/** Marks the trick slots not drawn before, so that they (alone) animate in. */
function markArrivals(box) {
  const seen = new Set();
  for (const slot of box.querySelectorAll(".trick .slot")) {
    const row = slot.querySelector(".card-row");
    const key = `${slot.closest(".trick-done, .last-trick") ? "done" : "live"}:${row ? row.getAttribute("aria-label") : ""}`;
    seen.add(key);
    if (!app.seenSlots.has(key)) slot.classList.add("arrive");
  }
  app.seenSlots = seen;
}

function renderer(m) {
  return rendererOf(m.table.game);
}

/** Whether it is my turn with a single legal move that the server plays by itself (the
 * table's forced moves): nothing to click then. */
function forcedNow(m) {
  return myTurn(m) && Boolean(m.table.forced_moves) && (m.view.legal_moves || []).length === 1;
}

function ctxOf(m) {
  const names = seatNames(m.table, m.seat);
  return {
    plainNames: seatNames(m.table),
    names,
    mySeat: m.seat,
    legal: myTurn(m) && !forcedNow(m) ? m.view.legal_moves : [],
    outcome: m.table.outcome,
    memoryAids: Boolean(m.table.memory_aids),
  };
}

function render() {
  const full = app.store.msg;
  if (!full) return;
  if (!loaded()) {
    ready.then(render); // the games' own renderers are still loading
    return;
  }
  const R = renderer(full);
  const ctx = ctxOf(full);
  // what the table shows (a game may hide won tricks during a round); hand and moves use the full view
  const m = R.tableView ? { ...full, view: R.tableView(full.view, ctx) } : full;
  const view = m.view;
  const board = $("#board");
  const focus = focusKey();
  board.hidden = false;
  $("#join").hidden = true;
  board.dataset.seq = m.seq;
  board.dataset.status = m.status;
  board.dataset.phase = view.phase;
  board.dataset.game = m.table.game;
  board.dataset.turn = forcedNow(full) ? "forced" : myTurn(m) ? "you" : "other";
  board.dataset.legal = JSON.stringify(ctx.legal);
  const variant = m.table.variant && m.table.variant !== "standard" ? ` · ${variantName(m.table.variant)}` : "";
  $("#title").textContent = `${m.table.title}${variant}`;
  markRated($("#title"), m.table);
  $("#phase").textContent = R.phase(view);
  document.title = `${myTurn(m) ? `● ${_("Your turn")} · ` : ""}${m.table.title} · tikki`;
  // a chime (if switched on) and an aria-live line when a turn begins; not for a forced
  // move, which the server plays by itself
  turnAlert(myTurn(m) && !forcedNow(full));
  renderStatus(m, R, ctx);
  renderDevice(m);
  renderSeats(m, R, ctx);
  const recent = recentEvents(m, ctx.names);
  // the trick just won beside the table (below it on a phone): the hand stays in view
  $("#centre").innerHTML =
    `<div class="centre-row"><div class="centre-main">${R.centre(view, ctx)}</div>${doneTrick(m, ctx)}</div>` +
    (recent.length ? `<p class="event-line">${recent.map((l) => `<span class="event">${l}</span>`).join(" ")}</p>` : "") +
    reviewHtml(view, ctx.names, app.reviewOpen);
  markArrivals($("#centre"));
  renderHand(full, ctx);
  renderActions(full, ctx);
  renderLog(m, ctx);
  const sheet = R.sheet(view, ctx);
  $("#sheet").hidden = !sheet;
  $("#sheet").innerHTML = sheet;
  renderResult(m, R, ctx);
  renderExtras(full, app.token);
  restoreFocus(focus);
}

/** The "continue on another device" link of a seated player (the token in its fragment). */
function renderDevice(m) {
  const box = $("#device");
  const seated = app.token && m.seat !== null && m.seat !== undefined && m.status !== "finished";
  box.hidden = !seated;
  if (!seated) return;
  const url = deviceUrl(app.id, app.token);
  const input = $("#device-link");
  if (input.value !== url) input.value = url;
  renderCustody(m);
}

function renderStatus(m, R, ctx) {
  const el = $("#status");
  const view = m.view;
  let text;
  let cls = "";
  if (m.status === "waiting") {
    const open = m.table.seats.filter((s) => s.kind === "open");
    const links = loadInvites(app.id);
    const invites = open
      .map((s) => {
        const link = links[s.seat] ?? (s.anyone ? tableUrl(app.id, s.seat) : null);
        if (!link) {
          return `<p class="muted">${esc(_("Seat {number} waits for the holder of its invite link.", { number: s.seat + 1 }))}</p>`;
        }
        const url = new URL(link, location.href).href;
        return (
          `<div class="invite"><label for="inv-${s.seat}">${esc(_("Invite link for seat {number}", { number: s.seat + 1 }))}</label>` +
          `<input id="inv-${s.seat}" readonly value="${esc(url)}">` +
          `<button type="button" class="secondary" data-copy="inv-${s.seat}">${esc(_("Copy"))}</button></div>`
        );
      })
      .join("");
    text =
      `<strong>${esc(_("Waiting for players."))}</strong> ${esc(_("The game starts when every seat is taken."))}` +
      invites +
      keepOpenHtml(m);
  } else if (m.status === "finished" || view.phase === "over") {
    el.hidden = true;
    return;
  } else if (m.seat === null || m.seat === undefined) {
    text = esc(_("You are watching. {name} is to play.", { name: ctx.names[view.to_act] ?? "" }));
  } else if (forcedNow(m)) {
    text = `<strong>${esc(_("Your turn."))}</strong> ${esc(_("Your only legal move plays by itself…"))}`;
  } else if (myTurn(m)) {
    cls = "your-turn";
    text = `<strong>${esc(_("Your turn."))}</strong> ${R.prompt(view, ctx)}`;
  } else {
    const seat = m.table.seats[view.to_act];
    const name = `<strong>${esc(ctx.names[view.to_act] ?? "")}</strong>`;
    text =
      seat && (seat.kind === "bot" || seat.stand_in)
        ? _("Waiting: {name} is thinking…", { name })
        : _("Waiting: {name} is to play…", { name });
  }
  el.hidden = false;
  el.className = `status ${cls}`;
  el.innerHTML = text;
}

function renderSeats(m, R, ctx) {
  const view = m.view;
  const n = m.table.players;
  const start = m.seat ?? 0;
  const boxes = [];
  for (let k = 0; k < n; k++) {
    const s = (start + k) % n;
    const seat = m.table.seats[s];
    const acting = m.status === "playing" && view.to_act === s;
    const kind =
      seat.kind === "bot"
        ? "bot"
        : seat.kind === "open"
          ? "open"
          : s === m.seat
            ? "you"
            : seat.connected
              ? "online"
              : "away";
    const stats = R.seatStats(view, s)
      .map(([label, value]) => `<div><dt>${esc(label)}</dt><dd>${esc(value)}</dd></div>`)
      .join("");
    const badges = R.seatBadges(view, s)
      .map((b) => {
        const [key, text] = Array.isArray(b) ? b : [b.split(" ")[0], BADGES[b] ?? b];
        return `<span class="badge badge-${esc(key)}">${esc(text)}</span>`;
      })
      .join("");
    boxes.push(
      `<li class="seat${acting ? " acting" : ""}${s === m.seat ? " mine" : ""}" data-seat="${s}"` +
        `${acting ? ' aria-current="true"' : ""}>` +
        `<div class="seat-head"><span class="seat-name">${
          acting ? `<span class="turn-dot" aria-hidden="true">▶</span><span class="visually-hidden">${esc(_("To play:"))} </span> ` : ""
        }${esc(
          ctx.plainNames[s],
        )}</span> <span class="kind kind-${kind.replace(" ", "-")}">${esc(KINDS[kind] ?? kind)}</span>${badges}</div>` +
        `<dl class="stats">${stats}</dl>${R.seatExtra(view, s)}</li>`,
    );
  }
  $("#seats").innerHTML = boxes.join("");
}

function renderHand(m, ctx) {
  const view = m.view;
  const box = $("#hand");
  const section = $("#you");
  const over = m.status === "finished" || view.phase === "over";
  if (m.seat === null || m.seat === undefined || (over && !(view.hand || []).length)) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const legal = ctx.legal;
  const { single, multi } = classify(legal);
  const inMulti = new Set(multi.flatMap(([cards]) => cards));
  const ext = app.store.selected.length ? extensions(app.store.selected, legal) : null;
  const hintCards = app.store.hint ? parseMove(app.store.hint.move).cards : [];
  const hand = sortCards(view.hand || []);
  const selectedLeft = [...app.store.selected];
  const mine = myTurn(m);
  const items = hand.map((card) => {
    const playable = single.has(card) || inMulti.has(card);
    let selected = false;
    const i = selectedLeft.indexOf(card);
    if (i >= 0) {
      selected = true;
      selectedLeft.splice(i, 1);
    }
    const classes = ["card", "hand-card"];
    if (mine && playable) classes.push("legal");
    if (mine && !playable) classes.push("dim");
    if (selected) classes.push("selected");
    if (ext && !selected && !ext.has(card)) classes.push("off");
    if (hintCards.includes(card)) classes.push("hinted");
    const what = single.get(card);
    const verb = what ? parseMove(what).verb : "play";
    const title = !mine
      ? cardName(card)
      : verb === "slough"
        ? _("slough {card}", { card: cardName(card) })
        : verb === "discard"
          ? _("set {card} aside", { card: cardName(card) })
          : playable
            ? _("play {card}", { card: cardName(card) })
            : _("{card} (not playable now)", { card: cardName(card) });
    const pressed = inMulti.has(card) && mine ? ` aria-pressed="${selected}"` : "";
    return (
      `<li><button type="button" class="${classes.join(" ")}" data-card="${esc(card)}" aria-label="${esc(
        cardName(card),
      )}" title="${esc(title)}"${pressed}${mine && playable ? "" : ' aria-disabled="true"'}>${cardSVG(card)}</button></li>`
    );
  });
  // Unchanged (a re-render for the finished trick's timer): keep the buttons, so that a
  // tap in progress is not lost on replaced elements.
  setHtml(box, items.join("") || `<li class="muted empty-hand">${esc(_("No cards in your hand."))}</li>`);
  rove(box, keys.index);
  box.dataset.count = hand.length;
  fitHand();
  $("#hand-title").textContent = _("Your hand · {n}", { n: hand.length });
}

const drawn = new WeakMap();

/** Set an element's HTML unless it is what was set last (elements under a finger stay). */
function setHtml(el, html) {
  if (drawn.get(el) === html) return;
  drawn.set(el, html);
  el.innerHTML = html;
}

/** The least width of a hand card left showing (px) before the hand fans (MIN_STRIP). */
const MIN_STRIP = 24;

/** Keep the hand on one row: overlap the cards just enough to fit the hand's width, from
 * the real widths (each card after the first is moved left by the same amount). When less
 * than MIN_STRIP of a card would show, the hand fans: the card under the finger (or the
 * mouse) is lifted whole, and letting go picks it. */
function fitHand() {
  const box = $("#hand");
  const items = [...box.children].filter((li) => li.querySelector(".card"));
  const n = items.length;
  box.style.removeProperty("--hand-m");
  box.classList.remove("fan");
  if (n < 2) return;
  const width = box.clientWidth;
  const w = items[0].querySelector(".card").getBoundingClientRect().width;
  const m = Math.min(6, (width - n * w) / (n - 1));
  box.style.setProperty("--hand-m", `${m.toFixed(2)}px`);
  box.classList.toggle("fan", w + m < MIN_STRIP);
}

// ---------------------------------------------------------------- the fanned hand (touch)

/** The hand card whose showing strip holds the x coordinate, or null. */
function cardAtX(x) {
  const items = [...$("#hand").children].filter((li) => li.querySelector(".card"));
  let found = null;
  for (const li of items) {
    const r = li.getBoundingClientRect();
    if (x >= r.left) found = li.querySelector(".card");
  }
  if (found) {
    const last = items[items.length - 1].getBoundingClientRect();
    if (x > last.right) found = null;
  }
  return found;
}

const fan = { pointer: null, card: null, picked: false };

function lift(card) {
  if (fan.card === card) return;
  if (fan.card) fan.card.classList.remove("under-finger");
  fan.card = card;
  if (card) card.classList.add("under-finger");
}

document.addEventListener("pointerdown", (ev) => {
  fan.picked = false;
  const at = /** @type {Element} */ (ev.target);
  const hand = at.closest && at.closest("#hand.fan");
  if (!hand || ev.pointerType === "mouse") return;
  fan.pointer = ev.pointerId;
  lift(cardAtX(ev.clientX));
});
document.addEventListener("pointermove", (ev) => {
  if (ev.pointerId === fan.pointer) lift(cardAtX(ev.clientX));
});
document.addEventListener("pointerup", (ev) => {
  if (ev.pointerId !== fan.pointer) return;
  const card = fan.card;
  fan.pointer = null;
  lift(null);
  if (card && !unavailable(card)) {
    fan.picked = true; // the click that follows this touch is this same pick
    onCard(card.dataset.card);
  }
});
document.addEventListener("pointercancel", (ev) => {
  if (ev.pointerId !== fan.pointer) return;
  fan.pointer = null;
  lift(null);
});

let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(fitHand, 100);
});

function renderActions(m, ctx) {
  const box = $("#actions");
  if (m.seat === null || m.seat === undefined) {
    box.innerHTML = "";
    return;
  }
  const mine = myTurn(m);
  const legal = ctx.legal;
  const { buttons, multi } = classify(legal);
  const parts = [];
  if (multi.length) {
    const chosen = moveForSelection(app.store.selected, legal);
    parts.push(
      `<button type="button" id="play-selected" class="primary"${chosen ? ` data-move="${esc(chosen)}"` : " disabled"}>` +
        (chosen
          ? _("Play {cards}", { cards: moveChips(chosen) })
          : esc(app.store.selected.length ? _("Select more cards") : _("Play selected"))) +
        `</button>`,
    );
    if (app.store.selected.length) {
      parts.push(`<button type="button" id="clear-selection" class="secondary">${esc(_("Clear"))}</button>`);
    }
  }
  const hinted = app.store.hint ? app.store.hint.move : null;
  for (const move of buttons) {
    parts.push(
      `<button type="button" class="move-btn${move === hinted ? " hinted" : ""}" data-move="${esc(move)}">${buttonLabel(
        move,
      )}</button>`,
    );
  }
  if (m.status === "playing") {
    parts.push(
      `<button type="button" id="hint-btn" class="secondary"${mine ? "" : " disabled"} aria-describedby="hint-text">${esc(_("Hint"))}</button>`,
    );
  }
  setHtml(box, parts.join(""));
  rove(box, keys.action);
  let hintText = "";
  if (app.store.hint && mine) {
    hintText = _("Suggestion ({level} bot): {move}", { level: esc(levelName(app.store.hint.bot)), move: moveChips(app.store.hint.move) });
  } else if (mine && multi.length) {
    hintText = `<span class="muted">${esc(
      _("Click a card to select it; a run or sequence is several cards in a row, then press Play."),
    )}</span>`;
  }
  $("#hint-text").innerHTML = hintText;
}

/** The seat kinds shown by each name (the key is also the CSS class). */
const KINDS = { bot: _("bot"), open: _("open"), you: _("you"), online: _("online"), away: _("away") };

/** The renderers' badges by their key (the first word is the CSS class). */
const BADGES = {
  dealer: _("dealer"),
  winner: _("winner"),
  loser: _("loser"),
  "set-aside card": _("set-aside card"),
};

function renderLog(m, ctx) {
  const list = $("#log-list");
  const history = m.view.history || [];
  if (history.length < app.logged) {
    list.innerHTML = "";
    app.logged = 0;
  }
  const box = $("#log-scroll");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const frag = document.createDocumentFragment();
  const names = ctx.names;
  for (let i = app.logged; i < history.length; i++) {
    const e = history[i];
    const you = e.seat === m.seat;
    const li = document.createElement("li");
    if (you) li.className = "mine";
    li.dataset.i = String(i);
    li.dataset.move = e.move;
    // a bot that played for me does not say "You play"
    const standIn = you && (m.table.takeovers || []).some((t) => t.seat === e.seat && t.from <= i && (t.to === null || i < t.to));
    const name = standIn ? _("Your stand-in bot") : (names[e.seat] ?? seatLabel(e.seat));
    if (standIn) li.dataset.standIn = "1";
    li.innerHTML = describe(e, you && !standIn, `<span class="who">${esc(name)}</span>`);
    if (you && (m.forced || []).includes(i)) {
      li.dataset.forced = "1";
      li.innerHTML += ` <span class="forced-note muted">${esc(_("(your only legal move, played by itself)"))}</span>`;
    }
    frag.appendChild(li);
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
      frag.appendChild(item);
    }
  }
  list.appendChild(frag);
  faceDown(list, m.view.memory_hidden);
  app.logged = history.length;
  $("#log-count").textContent = `${history.length}`;
  if (atBottom || history.length <= 1) box.scrollTop = box.scrollHeight;
}

/** Table memory in the log: the entries of won tricks in [from, to) show no card (their
 * trump namings are hidden); outside it, or without a range, every entry is whole again. */
function faceDown(list, range) {
  const [from, to] = range || [0, 0];
  for (const li of list.querySelectorAll("li[data-of][data-short]")) {
    const i = Number(li.dataset.of);
    const hide = i >= from && i < to;
    if (hide && li.dataset.full === undefined) {
      li.dataset.full = li.innerHTML;
      li.innerHTML = li.dataset.short;
    } else if (!hide && li.dataset.full !== undefined) {
      li.innerHTML = li.dataset.full;
      delete li.dataset.full;
    }
  }
  for (const li of list.querySelectorAll("li[data-i]")) {
    const i = Number(li.dataset.i);
    const verb = li.dataset.move.split(" ")[0];
    const hide = i >= from && i < to && verb !== "discard";
    if (hide && li.dataset.full === undefined) {
      li.dataset.full = li.innerHTML;
      const who = li.querySelector(".who").outerHTML;
      const line = li.classList.contains("mine") && !li.dataset.standIn ? _("{name} play a card", { name: who }) : _("{name} plays a card", { name: who });
      li.innerHTML = `${line} <span class="muted">${esc(_("(face down now)"))}</span>`;
      li.hidden = verb === "trump";
      li.classList.add("face-down");
    } else if (!hide && li.dataset.full !== undefined) {
      li.innerHTML = li.dataset.full;
      delete li.dataset.full;
      li.hidden = false;
      li.classList.remove("face-down");
    }
  }
}

function renderResult(m, R, ctx) {
  const box = $("#result");
  const over = m.status === "finished" || m.view.phase === "over";
  box.hidden = !over;
  if (!over) return;
  const url = recordUrl(app.id);
  box.innerHTML =
    `<h2 id="result-title" tabindex="-1">${esc(_("Game over"))}</h2>${R.result(m.view, ctx)}` +
    `<p class="result-links"><a id="record-link" class="button" href="${url}" download="tikki-${esc(app.id)}.json">` +
    `${esc(_("Download the record"))}</a> ` +
    `<a href="${url}" target="_blank" rel="noopener">${esc(_("View the record"))}</a>` +
    `<a id="replay-link" href="/replay/${encodeURIComponent(app.id)}${m.seat === null || m.seat === undefined ? "" : `?seat=${m.seat}`}">${esc(_("Replay the game"))}</a>` +
    `<a href="/">${esc(_("New table"))}</a></p>`;
  if (!app.resultShown) {
    app.resultShown = true;
    $("#result-title").focus();
  }
}

// ---------------------------------------------------------------- focus keeping

/** Keyboard play (issue #35 item 8): the hand and the move buttons are each one tab stop
 * (a roving tabindex); the arrow keys, Home and End move within them, Enter or Space
 * plays. A card that cannot be played now stays focusable (aria-disabled), so the focus
 * stays in the hand after a move, at the same place, until the player moves it away. */
const keys = { inPlay: false, index: 0, action: 0 };

/** Whether a button is shown but not usable now (disabled or aria-disabled). */
const unavailable = (el) => el.disabled || el.getAttribute("aria-disabled") === "true";

/** The buttons of a roving group that take the focus (every card; usable move buttons). */
function groupItems(box) {
  const buttons = [...box.querySelectorAll("button")];
  return box.id === "hand" ? buttons : buttons.filter((b) => !b.disabled);
}

/** Give the `index`-th item of a group (clamped) tabindex 0, the others -1. */
function rove(box, index) {
  const items = groupItems(box);
  const at = Math.max(0, Math.min(items.length - 1, index));
  items.forEach((b, i) => (b.tabIndex = i === at ? 0 : -1));
  return items[at] ?? null;
}

document.addEventListener("focusin", (ev) => {
  const target = /** @type {HTMLElement} */ (ev.target);
  const group = target.closest ? target.closest("#hand, #actions") : null;
  keys.inPlay = Boolean(group);
  if (!group) return;
  const i = groupItems(group).indexOf(target.closest("button"));
  if (i < 0) return;
  if (group.id === "hand") keys.index = i;
  else keys.action = i;
  rove(group, i);
});

document.addEventListener("keydown", (ev) => {
  const target = /** @type {HTMLElement} */ (ev.target);
  const group = target.closest ? target.closest("#hand, #actions") : null;
  if (!group || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const items = groupItems(group);
  const i = items.indexOf(target.closest("button"));
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[ev.key];
  const to = ev.key === "Home" ? 0 : ev.key === "End" ? items.length - 1 : step === undefined ? null : i + step;
  if (i < 0 || to === null) return;
  ev.preventDefault();
  const next = rove(group, to);
  if (next) next.focus();
});

function focusKey() {
  const el = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!el || el === document.body) return null;
  if (el.dataset && el.dataset.card) return `[data-card="${el.dataset.card}"]`;
  if (el.id) return `#${el.id}`;
  if (el.dataset && el.dataset.move) return `button[data-move="${el.dataset.move}"]`;
  return null;
}

function restoreFocus(key) {
  if (document.activeElement && document.activeElement !== document.body) return;
  const el = key ? document.querySelector(key) : null;
  if (el && !el.disabled && !(key.startsWith("[data-card") && !el.closest("#hand"))) {
    el.focus();
    return;
  }
  if (!keys.inPlay) return;
  // the focused card or button is gone (played): stay in the hand, at the same place;
  // with no card left in it, on the move buttons
  const next = rove($("#hand"), keys.index) ?? rove($("#actions"), 0);
  if (next) next.focus();
}

// ---------------------------------------------------------------- input

function onCard(card) {
  const m = app.store.msg;
  if (!m || app.pending || !myTurn(m)) return;
  const picked = pickCard(app.store, card);
  app.store = picked.state;
  if (picked.play) play(picked.play);
  else render();
}

let lastClick = { x: -99, y: -99 };

document.addEventListener("click", (ev) => {
  // a second click on the same spot as the click before it (a double click or tap)
  const again = ev.detail > 1 && Math.hypot(ev.clientX - lastClick.x, ev.clientY - lastClick.y) < 12;
  lastClick = { x: ev.clientX, y: ev.clientY };
  const target = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (ev.target).closest("button, a"));
  if (!target) return;
  if (target.classList.contains("skip")) {
    // "Skip to your hand": the hand's current card takes the focus
    const card = rove($("#hand"), keys.index);
    if (card) {
      ev.preventDefault();
      card.focus();
    }
  } else if (target.dataset.closeNotice !== undefined) {
    $("#notice").hidden = true;
  } else if (target.dataset.card && target.closest("#hand")) {
    if (unavailable(target)) return;
    // The second click of a double click must not play the next state's card; a touch on
    // the fanned hand has already picked its card.
    if (again || fan.picked) return;
    onCard(target.dataset.card);
  } else if (target.id === "clear-selection") {
    app.store = clearSelection(app.store);
    render();
  } else if (target.id === "revoke-btn") {
    app.revoking = true;
    revokeLinks(app.id, app.token).then(
      (token) => {
        app.revoking = false;
        app.token = token;
        connect();
        notice(_("The other devices are signed out of your seat."), "info");
      },
      (err) => {
        app.revoking = false;
        notice(err.message);
      },
    );
  } else if (target.id === "keep-open") {
    api.keep(app.id, app.token).then(
      () => notice(_("The table stays open a while longer."), "info"),
      (err) => notice(err.message),
    );
  } else if (target.id === "hint-btn") {
    askHint();
  } else if (target.dataset.copy) {
    const input = /** @type {HTMLInputElement} */ (document.getElementById(target.dataset.copy));
    copyText(input.value, input).then((ok) => {
      target.textContent = ok ? _("Copied") : _("Copy failed");
      setTimeout(() => (target.textContent = _("Copy")), 2000);
    });
  } else if (target.dataset.move && !target.disabled) {
    play(target.dataset.move);
  }
});

document.addEventListener("dblclick", (ev) => {
  // A double click on a selected card plays it alone (a single card that could start a run).
  const target = /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest("#hand [data-card]"));
  if (!target || !app.store.msg || !myTurn(app.store.msg)) return;
  const card = target.dataset.card;
  if (app.store.selected.length !== 1 || app.store.selected[0] !== card) return;
  const move = classify(app.store.msg.view.legal_moves).single.get(card);
  if (move) play(move);
});

document.addEventListener(
  "toggle",
  (ev) => {
    const details = /** @type {HTMLDetailsElement} */ (ev.target);
    if (details.id === "last-trick-review") app.reviewOpen = details.open;
  },
  true,
);

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && app.store.selected.length) {
    app.store = clearSelection(app.store);
    render();
  }
});

// ---------------------------------------------------------------- start

async function start() {
  translatePage();
  initTurnSound();
  languageSwitcher(document.querySelector(".topbar"));
  if (!app.id) return fatal(_("No table given: open a table from the lobby."));
  const moved = fragment().get("token");
  if (moved) {
    // A "continue on another device" link: drop it from the address bar, then take its
    // token, asking first when this browser holds another seat here (custody.js).
    history.replaceState(null, "", tableUrl(app.id));
    await adoptDeviceLink(app.id, moved);
  }
  app.token = loadToken(app.id);
  if (app.token) connect();
  else showJoin();
}

start();
