// @ts-check
// Who holds a seat in this browser: a device link (`/t/ID#token=…`) never replaces the
// seat this browser already holds without asking (the old token is kept); the seat's
// holder sees how many devices hold it and can sign the others out (a new token); a
// waiting table shows when it closes and can be kept open.

import { api, esc, loadToken, saveToken, storage } from "./api.js";
import { _ } from "./i18n.js";

/** The WebSocket close code of a connection whose seat's device links were revoked. */
export const REVOKED = 4401;

/** The key under which a seat's token is kept when a device link replaced it. */
const keptKey = (/** @type {string} */ id) => `tikki.token.${id}.kept`;

/** The seat a token holds at table `id` (null: none or not valid).
 * @param {string} id
 * @param {string} token
 * @returns {Promise<number | null>} */
async function seatOf(id, token) {
  try {
    const answer = await api.state(id, token);
    return typeof answer.seat === "number" ? answer.seat : null;
  } catch {
    return null;
  }
}

/**
 * Ask in the page (a modal dialog) whether to switch from seat `held` to seat `offered`.
 * @param {number} held
 * @param {number} offered
 * @returns {Promise<boolean>}
 */
function askToSwitch(held, offered) {
  const dialog = document.createElement("dialog");
  dialog.id = "switch-seat";
  dialog.className = "panel";
  dialog.style.margin = "auto"; // centred (CSSOM, which the page's CSP allows)
  dialog.style.maxWidth = "36rem";
  dialog.innerHTML =
    `<h2>${esc(_("Switch seats?"))}</h2>` +
    `<p>${esc(_("This link holds seat {offered} at this table, but this browser already plays seat {held}.", { offered: offered + 1, held: held + 1 }))}</p>` +
    `<p class="muted">${esc(_("Open links only from people you trust: whoever sent it may be playing that seat. Your own seat's token is kept in this browser either way."))}</p>` +
    `<p><button type="button" value="keep" id="keep-seat">${esc(_("Keep seat {held}", { held: held + 1 }))}</button> ` +
    `<button type="button" class="secondary" value="switch" id="switch-to">${esc(_("Switch to seat {offered}", { offered: offered + 1 }))}</button></p>`;
  document.body.append(dialog);
  return new Promise((resolve) => {
    const done = (/** @type {boolean} */ yes) => {
      dialog.close();
      dialog.remove();
      resolve(yes);
    };
    dialog.querySelector("#keep-seat")?.addEventListener("click", () => done(false));
    dialog.querySelector("#switch-to")?.addEventListener("click", () => done(true));
    dialog.addEventListener("cancel", (ev) => {
      ev.preventDefault();
      done(false);
    });
    dialog.showModal();
    /** @type {HTMLElement | null} */ (dialog.querySelector("#keep-seat"))?.focus();
  });
}

/**
 * Take a device link's token for table `id`: at once when this browser holds no seat
 * there (or the same seat), else only if the person agrees; the token it replaces is kept
 * (`tikki.token.ID.kept`). Returns whether the link's token is now this browser's.
 * @param {string} id
 * @param {string} offered the link's token
 */
export async function adoptDeviceLink(id, offered) {
  const mine = loadToken(id);
  if (!mine || mine === offered) {
    saveToken(id, offered);
    return true;
  }
  const [held, linked] = await Promise.all([seatOf(id, mine), seatOf(id, offered)]);
  if (held === null || linked === null || held === linked) {
    if (linked !== null) saveToken(id, offered);
    return linked !== null;
  }
  if (!(await askToSwitch(held, linked))) return false;
  storage()?.setItem(keptKey(id), mine);
  saveToken(id, offered, linked);
  return true;
}

/**
 * The seat's devices and the "sign out other devices" button (in `#device-custody`).
 * @param {{seat: number | null, devices?: number, status: string}} m the state message
 */
export function renderCustody(m) {
  const box = document.querySelector("#device-custody");
  if (!box) return;
  const devices = m.devices ?? 0;
  const text =
    devices > 1
      ? _("This seat is open on {n} devices.", { n: devices })
      : _("This seat is open on this device only.");
  const html =
    `<p id="device-count" class="muted">${esc(text)}</p>` +
    `<p><button type="button" class="secondary" id="revoke-btn">${esc(_("Sign out other devices"))}</button></p>` +
    `<p class="muted">${esc(_("Every earlier link to your seat stops working; this device gets a new one."))}</p>`;
  if (box.innerHTML !== html) box.innerHTML = html;
}

/**
 * Revoke the seat's device links: a new token for this browser; the others' sessions end.
 * @param {string} id
 * @param {string} token
 * @returns {Promise<string>} the new token
 */
export async function revokeLinks(id, token) {
  const answer = await api.revoke(id, token);
  saveToken(id, answer.token, answer.seat);
  return answer.token;
}

/**
 * When a waiting table closes, and the "Keep open" button of a seated person.
 * @param {{seat: number | null, status: string, table: {expires?: string | null}}} m
 */
export function keepOpenHtml(m) {
  const expires = m.table.expires;
  if (m.status !== "waiting" || !expires) return "";
  const minutes = Math.max(0, Math.round((Date.parse(expires) - Date.now()) / 60000));
  const text = _("This table closes in about {minutes} min unless someone joins.", { minutes });
  const button =
    m.seat !== null && m.seat !== undefined
      ? ` <button type="button" class="secondary" id="keep-open">${esc(_("Keep open"))}</button>`
      : "";
  return `<p class="muted" id="expires">${esc(text)}${button}</p>`;
}
