// @ts-check
// The table page (/t/{id}?seat=N): joins or reconnects to a seat and draws the seat's view;
// the input (cards, moves, hints) goes from here. The WebSocket is connection.js's, the
// state a message leaves is store.js's (no DOM there), each game's centre is render/*.js's;
// the parts of the board are table/*.js's (the join panel, the status line and the seats,
// the centre, the hand, the move buttons, the log, keyboard play), drawn from here.
import { api, copyText, forgetToken, fragment, loadToken, seatNames, tableUrl } from "./api.js";
import { $ } from "./dom.js";
import { _, lang, languageSwitcher, translatePage } from "./i18n.js";
import { markRated } from "./rated.js";
import { variantName } from "./words.js";
import { classify } from "./moves.js";
import { CLOSED_FOR_GOOD, Connection } from "./connection.js";
import { clearSelection, initialState, myTurn, pickCard, receive } from "./store.js";
import { renderExtras } from "./table_extras.js";
import { REVOKED, adoptDeviceLink, revokeLinks } from "./custody.js";
import { initTurnSound, turnAlert } from "./turnsound.js";
import { loaded, ready, rendererOf } from "./renderers.js";
import { conn, fatal, notice } from "./table/page.js";
import { showJoin } from "./table/join.js";
import { forcedNow, renderDevice, renderResult, renderStatus } from "./table/status.js";
import { renderSeats } from "./table/seats.js";
import { renderCentre } from "./table/centre.js";
import { fanPicked, onFanPick, renderHand } from "./table/hand.js";
import { askingHint, renderActions } from "./table/actions.js";
import { renderLog } from "./table/log.js";
import { focusHand, focusKey, restoreFocus, unavailable } from "./table/keys.js";

/** @typedef {import("./store.js").StateMessage} StateMessage */
/** @typedef {import("./store.js").ServerMessage} ServerMessage */
/** @typedef {import("./renderers.js").Ctx} Ctx */

const match = location.pathname.match(/\/t\/([^/?#]+)/);
const params = new URLSearchParams(location.search);
const app = {
  /** @type {string} */
  id: match ? decodeURIComponent(match[1]) : (params.get("table") ?? ""),
  seatParam: params.has("seat") ? Number(params.get("seat")) : null,
  invite: fragment().get("invite"),
  /** @type {string | null} */
  token: null,
  /** @type {Connection | null} */
  conn: null,
  store: initialState(), // the latest state message, the selection and the hint (store.js)
  pending: false,
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  pendingTimer: undefined,
  revoking: false, // this browser is revoking its seat's device links (custody.js)
  watching: false,
  reviewOpen: false,
};

// ---------------------------------------------------------------- joining

/** @type {import("./table/join.js").JoinHooks} */
const joinHooks = {
  seated(token) {
    app.token = token;
    connect();
  },
  watch,
};

/** @param {string} [reason] why the join panel is shown again */
const join = (reason) => showJoin(app, joinHooks, reason);

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
    app.conn = new Connection(url, {
      token: () => app.token,
      onMessage: (message) => onMessage(/** @type {ServerMessage} */ (message)),
      onStatus: conn,
      onClose: closed,
    });
    app.conn.reviveWhen(() => Boolean(app.token || app.watching));
  }
  app.conn.connect();
}

/** The socket closed: true to reconnect later; a bad token or a gone table ends it here.
 * @param {number} code the close code
 * @returns {boolean} */
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
    join(_("This browser's seat token is not valid for this table."));
    return false;
  }
  if (code === CLOSED_FOR_GOOD.unknownTable) {
    conn("offline", _("offline"));
    fatal(_("This table does not exist."));
    return false;
  }
  return true;
}

/** @param {object} obj a message for the server @returns {boolean} whether it went */
const sendRaw = (obj) => (app.conn ? app.conn.send(obj) : false);

/** @param {boolean} on whether a move waits for the server's answer */
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

/** @param {string} move */
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
    focusHand();
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
  askingHint();
  if (sendRaw({ type: "hint" })) return;
  api.hint(app.id, app.token).then(
    (answer) => onMessage({ type: "hint", ...answer }),
    (err) => notice(err.message),
  );
}

/** @param {ServerMessage} m a message from the server (or an HTTP answer like one) */
function onMessage(m) {
  const got = receive(app.store, m);
  app.store = got.state;
  if (got.answered) setPending(false);
  if (got.notice) notice(got.notice.text, got.notice.kind);
  if (got.sync) sendRaw({ type: "sync" });
  if (got.render) render();
}

// ---------------------------------------------------------------- drawing

/**
 * What the renderers know besides the view.
 * @param {StateMessage} m
 * @returns {Ctx}
 */
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
  const R = rendererOf(full.table.game);
  const ctx = ctxOf(full);
  // what the table shows (a game may hide won tricks during a round); hand and moves use the full view
  const m = R.tableView ? { ...full, view: R.tableView(full.view, ctx) } : full;
  const focus = focusKey();
  renderBoard(m, full, ctx);
  // a chime (if switched on) and an aria-live line when a turn begins; not for a forced
  // move, which the server plays by itself
  turnAlert(myTurn(m) && !forcedNow(full));
  renderStatus(app.id, m, R, ctx);
  renderDevice(app.id, app.token, m);
  renderSeats(m, R, ctx);
  renderCentre(m, R, ctx, app.reviewOpen, render);
  renderHand(full, ctx, app.store);
  renderActions(full, ctx, app.store);
  renderLog(m, ctx);
  const sheet = R.sheet(m.view, ctx);
  $("#sheet").hidden = !sheet;
  $("#sheet").innerHTML = sheet;
  renderResult(app.id, m, R, ctx);
  renderExtras(full, app.token);
  restoreFocus(focus);
}

/**
 * The board's data attributes (for the styles and the tests), the title and the phase.
 * @param {StateMessage} m the state message with the table's view
 * @param {StateMessage} full the state message with the full view
 * @param {Ctx} ctx
 */
function renderBoard(m, full, ctx) {
  const board = $("#board");
  board.hidden = false;
  $("#join").hidden = true;
  board.dataset.seq = String(m.seq);
  board.dataset.status = m.status;
  board.dataset.phase = m.view.phase;
  board.dataset.game = m.table.game;
  board.dataset.turn = forcedNow(full) ? "forced" : myTurn(m) ? "you" : "other";
  board.dataset.legal = JSON.stringify(ctx.legal);
  const variant = m.table.variant && m.table.variant !== "standard" ? ` · ${variantName(m.table.variant)}` : "";
  $("#title").textContent = `${m.table.title}${variant}`;
  markRated($("#title"), m.table);
  $("#phase").textContent = rendererOf(m.table.game).phase(m.view);
  document.title = `${myTurn(m) ? `● ${_("Your turn")} · ` : ""}${m.table.title} · tikki`;
}

// ---------------------------------------------------------------- input

/** @param {string} card a hand card clicked (or let go of, on the fanned hand) */
function onCard(card) {
  const m = app.store.msg;
  if (!m || app.pending || !myTurn(m)) return;
  const picked = pickCard(app.store, card);
  app.store = picked.state;
  if (picked.play) play(picked.play);
  else render();
}

onFanPick(onCard);

let lastClick = { x: -99, y: -99 };

document.addEventListener("click", (ev) => {
  // a second click on the same spot as the click before it (a double click or tap)
  const again = ev.detail > 1 && Math.hypot(ev.clientX - lastClick.x, ev.clientY - lastClick.y) < 12;
  lastClick = { x: ev.clientX, y: ev.clientY };
  const target = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (ev.target).closest("button, a"));
  if (!target) return;
  if (target.classList.contains("skip")) {
    // "Skip to your hand": the hand's current card takes the focus
    if (focusHand()) ev.preventDefault();
  } else if (target.dataset.closeNotice !== undefined) {
    $("#notice").hidden = true;
  } else if (target.dataset.card && target.closest("#hand")) {
    if (unavailable(target)) return;
    // The second click of a double click must not play the next state's card; a touch on
    // the fanned hand has already picked its card.
    if (again || fanPicked()) return;
    onCard(target.dataset.card);
  } else if (target.id === "clear-selection") {
    app.store = clearSelection(app.store);
    render();
  } else if (target.id === "revoke-btn") {
    revoke();
  } else if (target.id === "keep-open") {
    api.keep(app.id, app.token).then(
      () => notice(_("The table stays open a while longer."), "info"),
      (err) => notice(err.message),
    );
  } else if (target.id === "hint-btn") {
    askHint();
  } else if (target.dataset.copy) {
    copy(target, target.dataset.copy);
  } else if (target.dataset.move && !target.disabled) {
    play(target.dataset.move);
  }
});

/** "Sign out other devices": this browser gets a new token and reconnects with it. */
function revoke() {
  app.revoking = true;
  revokeLinks(app.id, /** @type {string} */ (app.token)).then(
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
}

/**
 * Copy an input's text; the button says how it went for two seconds.
 * @param {HTMLElement} button
 * @param {string} id the input's id
 */
function copy(button, id) {
  const input = /** @type {HTMLInputElement} */ (document.getElementById(id));
  copyText(input.value, input).then((ok) => {
    button.textContent = ok ? _("Copied") : _("Copy failed");
    setTimeout(() => (button.textContent = _("Copy")), 2000);
  });
}

document.addEventListener("dblclick", (ev) => {
  // A double click on a selected card plays it alone (a single card that could start a run).
  const target = /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest("#hand [data-card]"));
  if (!target || !app.store.msg || !myTurn(app.store.msg)) return;
  const card = target.dataset.card ?? "";
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
  else join();
}

start();
