// @ts-check
// Friends, on the lobby and on a player's profile: the accounts you follow (online, at
// which table), following one by name, challenging one to a table with chosen options,
// the challenges to you as an in-site notification with Accept and Decline (and, once
// turned on in the bell's panel (notices.js), as the browser's notifications while the
// page is open), and following or blocking from a profile. The list comes over /ws/account,
// which keeps you shown online and sends it again whenever it changes; an accepted
// challenge takes both people to the table.
import { _ } from "./i18n.js";
import { saveToken, storage, tableUrl } from "./api.js";
import { whoAmI } from "./account.js";
import { clearFieldError, fieldError } from "./fielderror.js";
import { challengeForm, challengeWords, el, gameTitle, send } from "./friends/forms.js";

/**
 * @typedef {object} Friend An account followed (GET /api/friends).
 * @property {string} name
 * @property {boolean} online
 * @property {{id: string, game: string} | null} table where it sits with the page open
 * @property {boolean} follows_you
 */
/**
 * @typedef {object} Challenge
 * @property {string} id
 * @property {string} from
 * @property {string} to
 * @property {Record<string, any>} options
 * @property {string} state open or accepted
 * @property {string | null} table
 */
/**
 * @typedef {object} Listing GET /api/friends
 * @property {Friend[]} following
 * @property {string[]} followers
 * @property {string[]} blocked
 * @property {Challenge[]} incoming
 * @property {Challenge[]} outgoing
 */

const NOTIFY_KEY = "tikki.notify";
const state = {
  /** @type {string} */
  me: "",
  /** @type {Listing | null} */
  list: null,
  /** challenges already shown as a notification @type {Set<string>} */
  told: new Set(),
  /** the friend whose challenge form is open */
  asking: "",
  /** an accepted challenge's seat is being taken (the page goes to its table) */
  taking: false,
};

const $ = (/** @type {string} */ id) => document.getElementById(id);

/** Take an accepted challenge's seat (the challenger) and go to the table.
 * @param {Challenge} c */
async function takeSeat(c) {
  const seated = await send(`/challenges/${c.id}/seat`);
  saveToken(seated.table.id, seated.token, seated.seat);
  location.href = tableUrl(seated.table.id, seated.seat);
}

/** Accept a challenge and go to its table. @param {Challenge} c */
async function accept(c) {
  const seated = await send(`/challenges/${c.id}/accept`);
  saveToken(seated.table.id, seated.token, seated.seat);
  location.href = tableUrl(seated.table.id, seated.seat);
}

/** A button that runs `act`, its refusal shown beside it.
 * @param {string} text @param {() => Promise<any>} act @param {string} [cls] @param {string} [id] */
function button(text, act, cls = "secondary small", id = "") {
  const b = /** @type {HTMLButtonElement} */ (el("button", text, cls));
  b.type = "button";
  if (id) b.id = id;
  b.addEventListener("click", async () => {
    clearFieldError(b);
    b.disabled = true;
    try {
      const answer = await act();
      if (answer && answer.following) show(answer);
    } catch (err) {
      fieldError(b, /** @type {Error} */ (err).message);
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

/** What a challenge to you says, with Accept and Decline. @param {Challenge} c */
function incomingLine(c) {
  const line = el("div", "", "challenge-line");
  line.dataset.challenge = c.id;
  line.append(el("p", _("{name} challenges you: {table}", { name: c.from, table: challengeWords(c.options) })));
  const buttons = el("p", "", "challenge-buttons");
  buttons.append(button(_("Accept"), () => accept(c), "primary small"), " ", button(_("Decline"), () => send(`/challenges/${c.id}/decline`)));
  line.append(buttons);
  return line;
}

/** Your own challenge: waiting (Withdraw) or accepted (to the table). @param {Challenge} c */
function outgoingLine(c) {
  const line = el("div", "", "challenge-line");
  if (c.state === "accepted") {
    line.append(el("p", _("{name} accepted your challenge.", { name: c.to })));
    line.append(button(_("Go to the table"), () => takeSeat(c), "primary small"));
  } else {
    line.append(el("p", _("Waiting for {name} to answer: {table}", { name: c.to, table: challengeWords(c.options) })));
    line.append(button(_("Withdraw"), () => send(`/challenges/${c.id}/cancel`)));
  }
  return line;
}

/** Where a friend is, in words, with a link to the table. @param {Friend} f */
function whereabouts(f) {
  const where = el("span", "", "presence");
  where.dataset.state = f.table ? "table" : f.online ? "online" : "offline";
  if (f.table) {
    where.append(_("at a table: "));
    const a = /** @type {HTMLAnchorElement} */ (el("a", gameTitle(f.table.game)));
    a.href = tableUrl(f.table.id);
    where.append(a);
  } else where.textContent = f.online ? _("online") : _("offline");
  return where;
}

/** One followed account: its name, where it is, Challenge and Unfollow. @param {Friend} f */
function friendLine(f) {
  const li = el("li", "", "friend");
  li.dataset.friend = f.name;
  const who = el("span", "", "friend-name");
  const a = /** @type {HTMLAnchorElement} */ (el("a", f.name));
  a.href = `/players/${encodeURIComponent(f.name)}`;
  who.append(a, " ", whereabouts(f));
  if (f.follows_you) who.append(" ", el("span", _("follows you"), "tag"));
  const actions = el("span", "", "friend-actions");
  actions.append(
    button(_("Challenge"), async () => {
      state.asking = state.asking === f.name ? "" : f.name;
      render();
    }),
    " ",
    button(_("Unfollow"), () => send("/unfollow", { name: f.name })),
  );
  li.append(who, actions);
  if (state.asking === f.name) li.append(challengeBox(f.name, li));
  return li;
}

/** The challenge form under a friend. @param {string} name @param {HTMLElement} host */
function challengeBox(name, host) {
  return challengeForm(
    name,
    async (options) => {
      try {
        await send("/challenges", options);
        state.asking = "";
        await refresh();
      } catch (err) {
        const go = /** @type {HTMLElement} */ (host.querySelector("button[type=submit]"));
        fieldError(go, /** @type {Error} */ (err).message);
      }
    },
    () => {
      state.asking = "";
      render();
    },
  );
}

/** Draw the lobby's friends panel from the list. */
function renderPanel() {
  const list = state.list;
  const host = $("friends-list");
  if (!list || !host) return;
  host.replaceChildren(...list.following.map(friendLine));
  $("friends-empty")?.toggleAttribute("hidden", list.following.length > 0);
  const challenges = /** @type {HTMLElement} */ ($("challenges"));
  challenges.replaceChildren(...list.outgoing.map(outgoingLine)); // those to you: the notification
  const blocked = /** @type {HTMLElement} */ ($("blocked"));
  blocked.replaceChildren(
    ...list.blocked.map((name) => {
      const li = el("li", name + " ");
      li.append(button(_("Unblock"), () => send("/unblock", { name })));
      return li;
    }),
  );
  /** @type {HTMLElement} */ ($("blocked-box")).hidden = list.blocked.length === 0;
}

/** On a profile: Follow or Unfollow, Block or Unblock, and Challenge. */
function renderProfile() {
  const host = $("friend-actions");
  const list = state.list;
  const name = decodeURIComponent(location.pathname.split("/")[2] ?? "");
  if (!host || !list || !name || name.toLowerCase() === state.me.toLowerCase()) return;
  const lower = name.toLowerCase();
  const follows = list.following.some((f) => f.name.toLowerCase() === lower);
  const blocks = list.blocked.some((b) => b.toLowerCase() === lower);
  const row = el("p", "", "friend-actions");
  if (blocks) row.append(button(_("Unblock"), () => send("/unblock", { name }), "secondary small", "unblock-btn"));
  else {
    row.append(
      follows
        ? button(_("Unfollow"), () => send("/unfollow", { name }), "secondary small", "unfollow-btn")
        : button(_("Follow"), () => send("/follow", { name }), "primary small", "follow-btn"),
      " ",
      button(_("Challenge"), async () => {
        state.asking = state.asking ? "" : name;
        render();
      }, "secondary small", "challenge-btn"),
      " ",
      button(_("Block"), () => send("/block", { name }), "secondary small danger", "block-btn"),
    );
  }
  host.replaceChildren(row);
  if (state.asking === name) host.append(challengeBox(name, host));
  if (blocks) host.append(el("p", _("You blocked this player: no challenges, no chat, no shared tables."), "muted"));
  host.hidden = false;
}

/** The in-site notification of challenges to you (every page with this module). */
function renderToast() {
  let toast = $("challenge-toast");
  if (!toast) {
    toast = el("div", "", "toast");
    toast.id = "challenge-toast";
    toast.setAttribute("role", "alert");
    document.body.append(toast);
  }
  const incoming = state.list?.incoming ?? [];
  toast.replaceChildren(...incoming.slice(0, 3).map(incomingLine));
  toast.hidden = incoming.length === 0;
  for (const c of incoming) {
    if (state.told.has(c.id)) continue;
    state.told.add(c.id);
    browserNotice(c);
  }
}

/** The browser's notification of a new challenge, when turned on and the page is hidden
 * or not focused. @param {Challenge} c */
function browserNotice(c) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  if (storage()?.getItem(NOTIFY_KEY) !== "on") return;
  const note = new Notification(_("{name} challenges you", { name: c.from }), { body: challengeWords(c.options), tag: c.id });
  note.onclick = () => window.focus();
}

function render() {
  renderPanel();
  renderProfile();
  renderToast();
}

/** @param {Listing} list */
function show(list) {
  state.list = list;
  render();
  const accepted = list.outgoing.find((c) => c.state === "accepted" && !state.taking);
  if (accepted) {
    state.taking = true; // once: the seat is given once
    takeSeat(accepted).catch(() => (state.taking = false));
  }
}

async function refresh() {
  const r = await fetch("/api/friends");
  if (r.ok) show(await r.json());
}

/** Keep /ws/account open: presence, and the list whenever it changes. */
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/account`);
  ws.addEventListener("message", (ev) => {
    const message = JSON.parse(String(ev.data));
    if (message.type === "friends") show(message.friends);
    window.dispatchEvent(new CustomEvent("tikki:account", { detail: message })); // notices.js
  });
  ws.addEventListener("close", (ev) => {
    if (ev.code !== 4401) setTimeout(connect, 5000);
  });
}

async function start() {
  const account = await whoAmI();
  const panel = $("friends-panel");
  if (!account) {
    if (panel) {
      panel.hidden = false;
      /** @type {HTMLElement} */ ($("friends-body")).hidden = true;
      /** @type {HTMLElement} */ ($("friends-guest")).hidden = false;
    }
    return;
  }
  state.me = account.name;
  if (panel) panel.hidden = false;
  const form = /** @type {HTMLFormElement | null} */ (document.querySelector("#follow-form"));
  form?.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($("follow-name"));
    const go = /** @type {HTMLButtonElement} */ ($("follow-go"));
    clearFieldError(input);
    try {
      show(await send("/follow", { name: input.value.trim() }));
      input.value = "";
    } catch (err) {
      fieldError(input, /** @type {Error} */ (err).message);
      go.blur();
    }
  });
  connect();
}

start();
