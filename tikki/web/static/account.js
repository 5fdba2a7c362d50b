// @ts-check
// The account page: sign in, create an account (attaching this browser's guest
// games: the seat tokens kept in localStorage), sign out everywhere, a private profile,
// and deleting the account. Every request that changes something repeats the CSRF
// cookie's value in X-CSRF-Token; the session itself is an HttpOnly cookie the page
// never sees.
import { _, acceptLanguage, languageSwitcher, translatePage } from "./i18n.js";

/** @typedef {{name: string, private: boolean}} Account a signed-in account (GET /api/account) */

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

/** POST to the account API with the CSRF header; the answer, or an Error with the
 * server's message.
 * @param {string} path
 * @param {object} [body] sent as JSON
 * @returns {Promise<any>} */
export async function post(path, body) {
  const r = await fetch(`/api/account${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-CSRF-Token": cookie("tikki_csrf"),
      "Accept-Language": acceptLanguage(),
    },
    body: JSON.stringify(body ?? {}),
  });
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
  box.hidden = !text;
}

/** @param {string} id */
const byId = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @param {Account | null} account */
function show(account) {
  byId("signed-in").hidden = !account;
  byId("signed-out").hidden = !!account;
  if (!account) return;
  const link = /** @type {HTMLAnchorElement} */ (document.getElementById("me-link"));
  link.textContent = account.name;
  link.href = `/players/${encodeURIComponent(account.name)}`;
  byId("private").checked = account.private;
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
  byId(form).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await action();
      notice("");
    } catch (err) {
      notice(err instanceof Error ? err.message : String(err));
    }
  });
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
    notice(_("Welcome, {name}! {n} guest games added.", { name: answer.account.name, n: answer.attached }), "info");
  });
  handle("delete-form", async () => {
    await post("/delete", { password: byId("delete-password").value });
    show(null);
    notice(_("Your account is deleted."), "info");
  });
  byId("logout").addEventListener("click", () => post("/logout").then(() => show(null), (e) => notice(e.message)));
  byId("attach").addEventListener("click", () =>
    post("/games", { games: guestGames() }).then(
      (a) => notice(_("{n} guest games added.", { n: a.attached }), "info"),
      (e) => notice(e.message),
    ),
  );
  byId("private").addEventListener("change", () =>
    post("/settings", { private: byId("private").checked }).then(
      (a) => show(a.account),
      (e) => notice(e.message),
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
