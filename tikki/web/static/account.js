// @ts-check
// The account page: sign in, create an account (attaching this browser's guest
// games: the seat tokens kept in localStorage), the signed-in devices (each may be
// signed out), sign out everywhere, a private profile, a new password and deleting the
// account. A refusal shows beside the field it is about, as a sentence in the page's
// language. Every request that changes something repeats the CSRF cookie's value in
// X-CSRF-Token; the session itself is an HttpOnly cookie the page never sees.
import { _, acceptLanguage, lang, languageSwitcher, ngettext, translatePage } from "./i18n.js";
import { clearFieldError, fieldError } from "./fielderror.js";

/** @typedef {{name: string, private: boolean}} Account a signed-in account (GET /api/account) */

/**
 * @typedef {object} Device A signed-in session (GET /api/account/sessions).
 * @property {string} id
 * @property {string} created ISO time (UTC)
 * @property {string} last_seen ISO time (UTC)
 * @property {string | null} browser
 * @property {string | null} system
 * @property {boolean} current this browser's own
 */

/** A refused request: the server's error code and its message (in the page's language). */
export class Refusal extends Error {
  /**
   * @param {string} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** The server's wording (`a name has …`) as a sentence: a capital first letter and a
 * full stop.
 * @param {string} text
 * @returns {string} */
export function sentence(text) {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const first = trimmed.charAt(0).toLocaleUpperCase(lang);
  const rest = trimmed.slice(1);
  return /[.!?)]$/.test(trimmed) ? first + rest : `${first}${rest}.`;
}

/** The value of a cookie this page may read (the CSRF token), or "".
 * @param {string} name
 * @returns {string} */
export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return "";
}

/** The signed-in account (`null` for a guest); also sets the CSRF cookie.
 * @returns {Promise<Account | null>} */
export async function whoAmI() {
  const r = await fetch("/api/account", { headers: { "Accept-Language": acceptLanguage() } });
  return r.ok ? (await r.json()).account : null;
}

/** POST (or another method) to the account API with the CSRF header; the answer, or a
 * Refusal with the server's code and message.
 * @param {string} path
 * @param {object} [body] sent as JSON
 * @param {string} [method]
 * @returns {Promise<any>} */
export async function post(path, body, method = "POST") {
  const r = await fetch(`/api/account${path}`, {
    method,
    headers: {
      "Content-Type": "application/json",
      "X-CSRF-Token": cookie("tikki_csrf"),
      "Accept-Language": acceptLanguage(),
    },
    body: JSON.stringify(body ?? {}),
  });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) throw new Refusal(answer?.detail?.code ?? "", answer?.detail?.message ?? _("Something went wrong."));
  return answer;
}

/** GET (no body) or POST (a body, as JSON with the CSRF header) to one of the site's
 * APIs (`/api/puzzles/daily`); the answer, or an Error with the server's words.
 * @param {string} url
 * @param {object} [body]
 * @returns {Promise<any>} */
export async function apiCall(url, body) {
  /** @type {Record<string, string>} */
  const headers = { "Accept-Language": acceptLanguage() };
  if (body) {
    headers["Content-Type"] = "application/json";
    headers["X-CSRF-Token"] = cookie("tikki_csrf");
  }
  const r = await fetch(url, body ? { method: "POST", headers, body: JSON.stringify(body) } : { headers });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(answer?.detail?.message ?? _("Something went wrong."));
  return answer;
}

/** This browser's guest seats: [{table, token}] from localStorage. */
export function guestGames() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? "";
      if (key.startsWith("tikki.token.")) {
        out.push({ table: key.slice("tikki.token.".length), token: localStorage.getItem(key) ?? "" });
      }
    }
  } catch {
    // no storage: no guest games
  }
  return out.slice(-40);
}

/**
 * @param {string} text
 * @param {"error" | "info"} [kind]
 */
function notice(text, kind = "error") {
  const box = document.getElementById("notice");
  if (!box) return;
  box.textContent = text;
  box.dataset.kind = kind;
  box.classList.toggle("info", kind === "info");
  box.hidden = !text;
}

/** @param {string} id */
const byId = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** The field a refusal is about, by its code: the name, the password (in a form with a
 * new password: the new one for `bad_password`, the current one for `wrong_password`),
 * else the form's button.
 * @param {HTMLFormElement} form
 * @param {string} code
 * @returns {HTMLElement} */
export function fieldOf(form, code) {
  const inputs = [...form.querySelectorAll("input")];
  const name = inputs.find((i) => i.autocomplete === "username" && !i.hidden);
  const current = inputs.find((i) => i.autocomplete === "current-password");
  const fresh = inputs.find((i) => i.autocomplete === "new-password");
  const button = /** @type {HTMLElement} */ (form.querySelector("button[type=submit]"));
  if (code.includes("name") && name) return name;
  if (code === "bad_password") return fresh ?? current ?? button;
  if (code === "wrong_password") return current ?? fresh ?? button;
  return button;
}

/**
 * @param {HTMLElement} control
 * @param {unknown} err
 */
function refused(control, err) {
  fieldError(control, sentence(err instanceof Error ? err.message : String(err)));
}

/** A device in words: `Firefox on Linux` in the page's language.
 * @param {Device} d
 * @returns {string} */
export function deviceName(d) {
  if (d.browser && d.system) return _("{browser} on {system}", { browser: d.browser, system: d.system });
  return d.browser || d.system || _("Unknown device");
}

/** @param {string} iso */
function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** The signed-in devices, each with *Sign out this device*. */
async function showDevices() {
  const list = byId("devices");
  const r = await fetch("/api/account/sessions", { headers: { "Accept-Language": acceptLanguage() } });
  if (!r.ok) return;
  /** @type {Device[]} */
  const devices = (await r.json()).sessions;
  devices.sort((a, b) => Number(b.current) - Number(a.current)); // this one first, then the newest
  list.replaceChildren(
    ...devices.map((d) => {
      const item = document.createElement("li");
      item.className = "device";
      const title = document.createElement("span");
      title.className = "device-name";
      const label = document.createElement("strong");
      label.textContent = deviceName(d);
      title.append(label);
      if (d.current) {
        const mark = document.createElement("span");
        mark.className = "badge badge-this";
        mark.textContent = _("This device");
        title.append(" ", mark);
      }
      item.append(title);
      const times = document.createElement("span");
      times.className = "muted device-times";
      times.textContent = _("Signed in {created} · Last seen {seen}", { created: when(d.created), seen: when(d.last_seen) });
      const button = document.createElement("button");
      button.type = "button";
      button.className = "small";
      button.textContent = _("Sign out this device");
      button.addEventListener("click", () =>
        post(`/sessions/${encodeURIComponent(d.id)}`, undefined, "DELETE").then(
          () => (d.current ? show(null) : showDevices()),
          (e) => refused(button, e),
        ),
      );
      item.append(times, button);
      return item;
    }),
  );
}

/** @param {Account | null} account */
function show(account) {
  byId("signed-in").hidden = !account;
  byId("signed-out").hidden = !!account;
  if (!account) return;
  showDevices();
  const link = /** @type {HTMLAnchorElement} */ (document.getElementById("me-link"));
  link.textContent = account.name;
  link.href = `/players/${encodeURIComponent(account.name)}`;
  byId("private").checked = account.private;
  for (const field of document.querySelectorAll(".own-name")) /** @type {HTMLInputElement} */ (field).value = account.name;
  try {
    localStorage.setItem("tikki.name", account.name);
  } catch {
    // no storage
  }
}

/**
 * @param {string} form the form's id
 * @param {() => Promise<void>} action
 */
function handle(form, action) {
  const element = /** @type {HTMLFormElement} */ (document.getElementById(form));
  element.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    for (const control of element.querySelectorAll("input, button")) clearFieldError(/** @type {HTMLElement} */ (control));
    notice("");
    try {
      await action();
    } catch (err) {
      refused(fieldOf(element, err instanceof Refusal ? err.code : ""), err);
    }
  });
}

/** The greeting of a new account: the guest games it took over, if any, and where to
 * go next. @param {string} name @param {number} attached */
export function welcome(name, attached) {
  if (!attached) return _("Welcome, {name}! Play now, try today's puzzle or follow a friend from the lobby.", { name });
  return ngettext("Welcome, {name}! {n} guest game added.", "Welcome, {name}! {n} guest games added.", attached, { name });
}

async function main() {
  translatePage();
  languageSwitcher(document.querySelector(".topbar"));
  show(await whoAmI());
  handle("login-form", async () => {
    const answer = await post("/login", { name: byId("login-name").value, password: byId("login-password").value });
    show(answer.account);
  });
  handle("register-form", async () => {
    const games = byId("register-attach").checked ? guestGames() : [];
    const body = { name: byId("register-name").value, password: byId("register-password").value, games };
    const answer = await post("/register", body);
    show(answer.account);
    notice(welcome(answer.account.name, answer.attached), "info");
  });
  handle("password-form", async () => {
    await post("/password", { password: byId("current-password").value, new_password: byId("new-password").value });
    byId("current-password").value = byId("new-password").value = "";
    notice(_("Password changed. Your other devices are signed out."), "info");
    showDevices();
  });
  handle("delete-form", async () => {
    await post("/delete", { password: byId("delete-password").value });
    show(null);
    notice(_("Your account is deleted."), "info");
  });
  byId("logout").addEventListener("click", () =>
    post("/logout").then(
      () => show(null),
      (e) => refused(byId("logout"), e),
    ),
  );
  byId("attach").addEventListener("click", () =>
    post("/games", { games: guestGames() }).then(
      (a) => notice(ngettext("{n} guest game added.", "{n} guest games added.", a.attached), "info"),
      (e) => refused(byId("attach"), e),
    ),
  );
  byId("private").addEventListener("change", () =>
    post("/settings", { private: byId("private").checked }).then(
      (a) => show(a.account),
      (e) => refused(byId("private"), e),
    ),
  );
}

/** On the lobby: the account link says who is signed in, and a signed-in person may
 * make a rated table. */
async function lobby() {
  const account = await whoAmI();
  const box = document.getElementById("rated-box");
  if (box) box.hidden = !account;
  const link = document.getElementById("account-link");
  if (link && account) {
    link.textContent = account.name;
    link.setAttribute("href", `/players/${encodeURIComponent(account.name)}`);
    link.removeAttribute("data-i18n");
  }
}

if (document.getElementById("login-form")) main();
else if (document.getElementById("rated-box")) lobby();
