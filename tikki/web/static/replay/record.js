// @ts-check
// The replay page's requests (the positions of a table's game, or of an uploaded record)
// and the packing of an uploaded record into the shareable link's fragment.
import { ApiError } from "../api.js";
import { _, acceptLanguage } from "../i18n.js";

/**
 * The server's answer as JSON, or its error as an ApiError.
 * @param {Response} response
 * @returns {Promise<any>}
 */
async function answer(response) {
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && data.detail;
    throw new ApiError(response.status, detail?.code ?? "error", detail?.message ?? _("The server answered {status}.", { status: response.status }));
  }
  return data;
}

/**
 * POST a record (JSON text) and read the answer.
 * @param {string} path
 * @param {string | null} body the record
 * @returns {Promise<any>}
 */
export async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": acceptLanguage() },
    body,
  });
  return answer(response);
}

/**
 * GET a path with this browser's seat token, if it has one.
 * @param {string} path
 * @param {string | null} token
 * @returns {Promise<any>}
 */
export async function get(path, token) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", "Accept-Language": acceptLanguage() };
  if (token) headers.Authorization = `Bearer ${token}`;
  return answer(await fetch(path, { headers }));
}

/**
 * A JSON text without the whitespace between its tokens, every token kept as written: a
 * round trip through JSON.parse would turn a record's 128-bit seed into a float.
 * @param {string} text valid JSON
 * @returns {string}
 */
export function compactJson(text) {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== " " && c !== "\n" && c !== "\r" && c !== "\t") out += c;
  }
  return out;
}

/**
 * A stream's bytes.
 * @param {ReadableStream<Uint8Array>} stream
 */
async function squeeze(stream) {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A record as a compact, URL-safe text (raw deflate, base64url): the shared link's fragment.
 * @param {string} text
 * @returns {Promise<string>}
 */
export async function pack(text) {
  const bytes = await squeeze(new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw")));
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(out).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The record a link's fragment holds (pack's inverse).
 * @param {string} packed
 * @returns {Promise<string>}
 */
export async function unpack(packed) {
  const raw = atob(packed.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(raw, (c) => c.charCodeAt(0));
  const out = await squeeze(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")));
  return new TextDecoder().decode(out);
}
