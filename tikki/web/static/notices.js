// @ts-check
// Notifications, on the lobby and at a table, for a signed-in account: a bell in the
// top bar with the unread count, its list (your move at a correspondence table, a
// friend's challenge, a tournament starting), marked read when opened; the browser's
// notifications while the page is open, once the player turns them on with a click;
// the e-mail setting when the server sends mail; and on the lobby the "Your turn" list
// of the account's correspondence tables where it is to move. New notices come over
// /ws/account (the friends panel's socket on the lobby, announced as "tikki:account").
import { _, acceptLanguage } from "./i18n.js";
import { storage, tableUrl } from "./api.js";
import { cookie, whoAmI } from "./account.js";
import { byWhen } from "./correspondence.js";
import { GAMES } from "./games.js";

/**
 * @typedef {object} Notice GET /api/notices
 * @property {number} id
 * @property {string} kind your_turn, challenge or tournament_start
 * @property {Record<string, any>} data
 * @property {string} created
 * @property {boolean} read
 */

const NOTIFY_KEY = "tikki.notify"; // shared with the friends panel's button
const state = {
  /** @type {Notice[]} */
  notices: [],
  unread: 0,
  mail: false,
  open: false,
};

/** @param {string} tag @param {string} [text] @param {string} [cls] @returns {HTMLElement} */
function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

/** @param {string} path @param {object} body */
async function post(path, body) {
  const r = await fetch(`/api/notices${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": cookie("tikki_csrf"), "Accept-Language": acceptLanguage() },
    body: JSON.stringify(body),
  });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(answer?.detail?.message ?? _("Something went wrong."));
  return answer;
}

const title = (/** @type {string} */ game) => GAMES[game]?.title ?? game;

/** A notice in words, and where it leads. @param {Notice} n
 * @returns {{head: string, body: string, href: string}} */
export function words(n) {
  const d = n.data;
  if (n.kind === "your_turn") {
    const by = d.deadline ? _("your move by {when}", { when: byWhen(new Date(d.deadline)) }) : "";
    return { head: _("Your move in {game}", { game: title(d.game) }), body: by, href: tableUrl(d.table, d.seat) };
  }
  if (n.kind === "challenge") {
    return { head: _("{name} challenges you", { name: d.from }), body: title(d.game), href: "/" };
  }
  const page = d.tournament ? `/tournaments/${encodeURIComponent(d.tournament)}` : "/tournaments";
  const href = typeof d.url === "string" && d.url.startsWith("/") && !d.url.startsWith("//") ? d.url : page;
  return { head: _("A tournament starts: {name}", { name: d.name ?? "" }), body: "", href };
}

// ---------------------------------------------------------------- the bell and its list

function renderBell() {
  const bell = document.getElementById("notices-bell");
  if (!bell) return;
  const badge = /** @type {HTMLElement} */ (bell.querySelector(".notices-count"));
  badge.textContent = state.unread ? String(state.unread) : "";
  badge.hidden = !state.unread;
  bell.setAttribute("aria-label", state.unread ? _("Notifications: {n} unread", { n: state.unread }) : _("Notifications"));
  bell.setAttribute("aria-expanded", String(state.open));
}

function renderList() {
  const list = document.getElementById("notices-list");
  if (!list) return;
  list.replaceChildren(
    ...state.notices.map((n) => {
      const w = words(n);
      const item = el("li", "", n.read ? "" : "unread");
      const link = /** @type {HTMLAnchorElement} */ (el("a", w.head));
      link.href = w.href;
      item.append(link);
      if (w.body) item.append(el("span", w.body, "muted"));
      return item;
    }),
  );
  /** @type {HTMLElement} */ (document.getElementById("notices-empty")).hidden = state.notices.length > 0;
  renderBrowserChoice();
  renderEmail();
}

/** The button that turns the browser's notifications on (permission asked on its click). */
function renderBrowserChoice() {
  const host = document.getElementById("notices-browser");
  if (!host) return;
  const on = "Notification" in window && Notification.permission === "granted" && storage()?.getItem(NOTIFY_KEY) === "on";
  if (!("Notification" in window)) host.replaceChildren(el("span", _("This browser shows no notifications."), "muted"));
  else if (Notification.permission === "denied") host.replaceChildren(el("span", _("This browser blocks notifications from this site."), "muted"));
  else if (on) {
    const off = el("button", _("Turn off"), "secondary small");
    off.addEventListener("click", () => {
      storage()?.setItem(NOTIFY_KEY, "off");
      renderBrowserChoice();
    });
    host.replaceChildren(el("span", _("Browser notifications are on."), "muted"), " ", off);
  } else {
    const ask = el("button", _("Turn on browser notifications"), "secondary small");
    ask.id = "notices-browser-on";
    ask.addEventListener("click", async () => {
      if ((await Notification.requestPermission()) === "granted") storage()?.setItem(NOTIFY_KEY, "on");
      renderBrowserChoice();
    });
    host.replaceChildren(ask);
  }
}

async function renderEmail() {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById("notices-email"));
  if (!form) return;
  form.hidden = !state.mail;
  if (!state.mail || form.dataset.loaded) return;
  form.dataset.loaded = "1";
  const r = await fetch("/api/notices/email");
  if (!r.ok) return;
  const mine = await r.json();
  /** @type {HTMLInputElement} */ (form.elements.namedItem("address")).value = mine.address ?? "";
}

async function openPanel() {
  const panel = /** @type {HTMLElement} */ (document.getElementById("notices-panel"));
  state.open = !state.open;
  panel.hidden = !state.open;
  renderBell();
  if (state.open && state.unread) {
    const after = await post("/read", { ids: null }).catch(() => null);
    if (after) show(after, false);
  }
}

/** @param {{notices: Notice[], unread: number, mail?: boolean}} list @param {boolean} [fresh] */
function show(list, fresh = true) {
  if (fresh || !state.open) state.notices = list.notices;
  else state.notices = list.notices.map((n) => ({ ...n, read: state.notices.find((o) => o.id === n.id)?.read ?? n.read }));
  state.unread = list.unread;
  state.mail = !!list.mail;
  renderBell();
  renderList();
}

/** A bell drawn in SVG (an emoji needs a font the device may lack). */
function bellIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("notices-icon");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M12 2a6 6 0 0 0-6 6v4.5L4 16v1h16v-1l-2-3.5V8a6 6 0 0 0-6-6zm-2.5 16.5a2.5 2.5 0 0 0 5 0z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

function build() {
  const bar = document.querySelector(".topbar");
  if (!bar || document.getElementById("notices-bell")) return;
  const bell = el("button", "", "notices-bell");
  bell.id = "notices-bell";
  bell.setAttribute("aria-controls", "notices-panel");
  bell.append(bellIcon(), el("span", "", "notices-count"));
  bell.addEventListener("click", openPanel);
  const before = document.getElementById("account-link") ?? document.getElementById("conn");
  bar.insertBefore(bell, before);
  const panel = el("section", "", "notices-panel panel");
  panel.id = "notices-panel";
  panel.hidden = true;
  panel.setAttribute("aria-label", _("Notifications"));
  const head = el("div", "", "notices-head");
  head.append(el("h2", _("Notifications")));
  const close = el("button", _("Close"), "secondary small");
  close.addEventListener("click", openPanel);
  head.append(close);
  const list = el("ul", "", "notices-list");
  list.id = "notices-list";
  const empty = el("p", _("No notifications yet: your moves at games that last days, challenges and tournaments show here."), "muted");
  empty.id = "notices-empty";
  const browser = el("p", "", "notices-browser");
  browser.id = "notices-browser";
  panel.append(head, list, empty, browser, emailForm());
  document.body.append(panel);
}

/** The e-mail setting (only where the server sends mail); nobody else sees the address. */
function emailForm() {
  const form = /** @type {HTMLFormElement} */ (el("form", "", "notices-email"));
  form.id = "notices-email";
  form.hidden = true;
  const label = el("label", _("E-mail me these notifications"));
  label.setAttribute("for", "notices-address");
  const input = /** @type {HTMLInputElement} */ (el("input"));
  Object.assign(input, { id: "notices-address", name: "address", type: "email", autocomplete: "email", maxLength: 254 });
  const save = el("button", _("Save"), "secondary small");
  const said = el("small", _("Only you see this address. Leave it empty to get no mail."), "help");
  form.append(label, input, " ", save, said);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const done = await post("/email", { address: input.value.trim() || null });
      said.textContent = done.address ? _("Notifications go to {address}.", { address: done.address }) : _("No mail will be sent.");
      said.classList.remove("error");
    } catch (err) {
      said.textContent = /** @type {Error} */ (err).message;
      said.classList.add("error");
    }
  });
  return form;
}

// ---------------------------------------------------------------- your turn (lobby)

async function renderTurns() {
  const host = document.getElementById("friends-panel");
  if (!host) return;
  let box = document.getElementById("your-turn");
  if (!box) {
    box = el("section", "", "panel your-turn");
    box.id = "your-turn";
    box.append(el("h2", _("Your turn")), el("ul", "", "your-turn-list"));
    host.parentElement?.insertBefore(box, host);
  }
  const r = await fetch("/api/notices/turns");
  const tables = r.ok ? (await r.json()).tables : [];
  const list = /** @type {HTMLElement} */ (box.querySelector("ul"));
  list.replaceChildren(
    ...tables.map((/** @type {any} */ t) => {
      const item = el("li");
      const link = /** @type {HTMLAnchorElement} */ (el("a", title(t.game)));
      link.href = tableUrl(t.id, t.seat);
      item.append(link, " ", el("span", t.deadline ? _("your move by {when}", { when: byWhen(new Date(t.deadline)) }) : "", "muted"));
      return item;
    }),
  );
  box.hidden = tables.length === 0;
}

// ---------------------------------------------------------------- live

/** @param {{notice: Notice, unread: number}} message */
function arrived(message) {
  const n = message.notice;
  if (state.notices.some((o) => o.id === n.id)) return;
  // a new turn replaces the same table's earlier one, read or not (the server did so too)
  const same = (/** @type {Notice} */ o) => o.kind === "your_turn" && n.kind === "your_turn" && o.data.table === n.data.table;
  state.notices = [n, ...state.notices.filter((o) => !same(o))].slice(0, 50);
  state.unread = message.unread;
  renderBell();
  renderList();
  if (n.kind === "your_turn") renderTurns();
  browserNotice(n);
}

/** The browser's notification of a notice, when turned on and the page is not in view
 * (the friends panel tells of challenges itself). @param {Notice} n */
function browserNotice(n) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  if (storage()?.getItem(NOTIFY_KEY) !== "on" || (!document.hidden && document.hasFocus())) return;
  if (n.kind === "challenge" && document.getElementById("friends-panel")) return;
  const w = words(n);
  const note = new Notification(w.head, { body: w.body, tag: `tikki-notice-${n.id}` });
  note.onclick = () => {
    window.focus();
    location.href = w.href;
  };
}

/** Notices marked read elsewhere (another page opened the bell or the table): the same
 * count here at once; the open list keeps its highlights until it closes.
 * @param {{unread: number, unread_ids: number[]}} message */
function readElsewhere(message) {
  state.unread = message.unread;
  if (!state.open) {
    const unread = new Set(message.unread_ids);
    state.notices = state.notices.map((n) => ({ ...n, read: !unread.has(n.id) }));
  }
  renderBell();
  renderList();
}

/** @param {any} message a message of /ws/account */
function heard(message) {
  if (message?.type === "notice") arrived(message);
  else if (message?.type === "notices_read") readElsewhere(message);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/account`);
  ws.addEventListener("message", (ev) => heard(JSON.parse(String(ev.data))));
  ws.addEventListener("close", (ev) => {
    if (ev.code !== 4401) setTimeout(connect, 5000);
  });
}

async function start() {
  const account = await whoAmI();
  if (!account) return;
  build();
  const r = await fetch("/api/notices");
  if (r.ok) show(await r.json());
  renderTurns();
  if (document.getElementById("friends-panel")) {
    window.addEventListener("tikki:account", (ev) => heard(/** @type {CustomEvent} */ (ev).detail));
  } else connect();
}

start();
