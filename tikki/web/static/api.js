// @ts-check
// The HTTP side of docs/protocol.md, the seat tokens kept in localStorage, and small
// DOM helpers shared by the lobby and the table page.
import { _, acceptLanguage, ngettext } from "./i18n.js";

/** An error answered by the server: `code` and a readable `message`. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: no answer)
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * One request to the server's HTTP API: its JSON answer, or an ApiError in words.
 * @param {string} method
 * @param {string} path
 * @param {object} [body] sent as JSON
 * @param {string | null} [token] the seat token
 * @returns {Promise<any>}
 */
async function request(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", "Accept-Language": acceptLanguage() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", _("The server cannot be reached. Check your connection."));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && data.detail;
    if (detail && typeof detail === "object" && !Array.isArray(detail) && detail.message) {
      throw new ApiError(response.status, detail.code || "error", detail.message);
    }
    if (Array.isArray(detail) && detail.length) {
      const first = detail[0];
      const where = Array.isArray(first.loc) ? first.loc.slice(1).join(".") : "";
      throw new ApiError(response.status, "invalid", `${where ? where + ": " : ""}${first.msg}`);
    }
    const text = typeof detail === "string" ? detail : _("The server answered {status}.", { status: response.status });
    throw new ApiError(response.status, "error", text);
  }
  return data;
}

/** @typedef {string | null | undefined} Token a seat token (none: the request is refused) */

/** The HTTP API (docs/protocol.md), one function a request; each answers the JSON. */
export const api = {
  games: () => request("GET", "/api/games"),
  tables: (status = "open") => request("GET", `/api/tables?status=${encodeURIComponent(status)}`),
  /** @param {string} id */
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  /** @param {object} body */
  create: (body) => request("POST", "/api/tables", body),
  /** @param {string} id @param {number | null} seat @param {string} name @param {string | null} [invite] */
  join: (id, seat, name, invite) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}`, invite ? { name, invite } : { name }),
  /** @param {string} id @param {Token} token */
  hint: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/hint`, undefined, token),
  /** @param {string} id @param {Token} token */
  state: (id, token) => request("GET", `/api/tables/${encodeURIComponent(id)}/state`, undefined, token),
  /** @param {string} id @param {number} seat */
  analyse: (id, seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/analysis/${seat}`),
  /** @param {string} id @param {number} seat */
  analysis: (id, seat) => request("GET", `/api/tables/${encodeURIComponent(id)}/analysis/${seat}`),
  /** @param {string} id */
  analysedSeats: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/analyses`),
  /** @param {string} id @param {Token} token */
  rematch: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, undefined, token),
  /** @param {string} id @param {Token} token */
  resign: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/resign`, undefined, token),
  /** @param {string} id @param {Token} token */
  back: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/back`, undefined, token),
  /** @param {string} id @param {number} seat @param {Token} token */
  handOver: (id, seat, token) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, undefined, token),
  /** @param {string} id @param {Token} token @param {string} move @param {number} seq */
  move: (id, token, move, seq) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/moves`, { move, seq }, token),
  /** @param {string} id @param {Token} token */
  revoke: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/revoke`, undefined, token),
  /** @param {string} id @param {Token} token */
  keep: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/keep`, undefined, token),
};

/** Where a table's record is downloaded. @param {string} id */
export const recordUrl = (id) => `/api/tables/${encodeURIComponent(id)}/record`;

/** The page of a table, for one seat. @param {string} id @param {number | null} [seat] */
export const tableUrl = (id, seat) =>
  `/t/${encodeURIComponent(id)}${seat === undefined || seat === null ? "" : `?seat=${seat}`}`;

/** The page's localStorage, or null where the browser refuses it (private modes, sandboxed
 * frames): every module keeps its settings through this one.
 * @returns {Storage | null} */
export function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The seat token kept for a table (`tikki.token.<id>`), or null. @param {string} id */
export function loadToken(id) {
  return storage()?.getItem(`tikki.token.${id}`) ?? null;
}

/** Keep a table's seat token (and its seat) in this browser.
 * @param {string} id @param {string} token @param {number} [seat] */
export function saveToken(id, token, seat) {
  const s = storage();
  s?.setItem(`tikki.token.${id}`, token);
  if (seat !== undefined) s?.setItem(`tikki.seat.${id}`, String(seat));
}

/** Note that table `id` is a game of tournament `tournament` (its id and name), so the
 * table's end leads back to it. @param {string} id @param {{id: string, name: string}} tournament */
export function saveTournament(id, tournament) {
  storage()?.setItem(`tikki.tournament.${id}`, JSON.stringify({ id: tournament.id, name: tournament.name }));
}

/** The tournament noted for table `id`, or null. @param {string} id
 * @returns {{id: string, name: string} | null} */
export function loadTournament(id) {
  try {
    const found = JSON.parse(storage()?.getItem(`tikki.tournament.${id}`) ?? "null");
    return found && typeof found.id === "string" ? { id: found.id, name: String(found.name ?? "") } : null;
  } catch {
    return null;
  }
}

/** The link that moves a seat to another device: the token sits in the URL's fragment,
 * which a browser never sends to a server. */
/** @param {string} id @param {string} token */
export const deviceUrl = (id, token) =>
  new URL(`/t/${encodeURIComponent(id)}#token=${encodeURIComponent(token)}`, location.href).href;

/** The parameters of the page's fragment (`#invite=…`, `#token=…`). */
export const fragment = () => new URLSearchParams(location.hash.slice(1));

/** The invite secret of an invite link (`…#invite=SECRET`), or null. @param {string} url */
export const inviteOf = (url) => new URLSearchParams(new URL(url, location.href).hash.slice(1)).get("invite");

/** Keep the invite links of a table this browser created ({seat: url}). */
/** @param {string} id @param {{seat: number, url: string, anyone?: boolean}[]} invites */
export function saveInvites(id, invites) {
  const links = Object.fromEntries(invites.filter((i) => !i.anyone).map((i) => [i.seat, i.url]));
  storage()?.setItem(`tikki.invites.${id}`, JSON.stringify(links));
}

/** The invite links this browser keeps for a table ({seat: url}).
 * @param {string} id
 * @returns {Record<number, string>} */
export function loadInvites(id) {
  try {
    return JSON.parse(storage()?.getItem(`tikki.invites.${id}`) ?? "{}") || {};
  } catch {
    return {};
  }
}

/** Forget a table's seat token (it is no longer valid). @param {string} id */
export function forgetToken(id) {
  storage()?.removeItem(`tikki.token.${id}`);
  storage()?.removeItem(`tikki.seat.${id}`);
}

/** The display name last used in this browser. */
export function loadName() {
  return storage()?.getItem("tikki.name") ?? "";
}

/** Keep the display name for next time. @param {string} name */
export function saveName(name) {
  storage()?.setItem("tikki.name", name);
}

/** The HTML entities of the characters esc() replaces. @type {Record<string, string>} */
const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape a text for HTML. @param {unknown} text */
export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

/** What the page calls the viewer's own seat ("You"): `names[seat] === YOU` picks the
 * sentences in the second person. */
export const YOU = _("You");

/** A seat without a name: `Seat 2` for seat index 1. @param {number} seat */
export const seatLabel = (seat) => _("Seat {number}", { number: seat + 1 });

/** A count of cards: `1 card`, `3 cards`. @param {number} n */
export const cardCount = (n) => ngettext("{n} card", "{n} cards", n);

/** The seats' display names, made unique with the seat number where two share one;
 * with `mySeat`, that seat reads "You".
 * @param {{seats: {seat: number, name?: string}[]}} table
 * @param {number | null} [mySeat]
 * @returns {string[]} */
export function seatNames(table, mySeat = null) {
  const raw = table.seats.map((s) => s.name || seatLabel(s.seat));
  return raw.map((name, i) => {
    if (i === mySeat) return YOU;
    return raw.filter((n) => n === name).length > 1 ? `${name} ${i + 1}` : name;
  });
}

/** Copy a text to the clipboard; falls back to selecting it in a given input.
 * @param {string} text
 * @param {HTMLInputElement} [input]
 * @returns {Promise<boolean>} whether it was copied */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}
