// @ts-check
// The table's status line (waiting with the invite links, whose turn, watching), the
// "continue on another device" link, and the result at the end.
import { deviceUrl, esc, loadInvites, recordUrl, tableUrl } from "../api.js";
import { keepOpenHtml, renderCustody } from "../custody.js";
import { $ } from "../dom.js";
import { _ } from "../i18n.js";
import { myTurn } from "../store.js";

/** @typedef {import("../store.js").StateMessage} StateMessage */
/** @typedef {import("../renderers.js").Ctx} Ctx */
/** @typedef {import("../renderers.js").Renderer} Renderer */

/**
 * Whether it is my turn with a single legal move that the server plays by itself (the
 * table's forced moves): nothing to click then.
 * @param {StateMessage} m
 */
export function forcedNow(m) {
  return myTurn(m) && Boolean(m.table.forced_moves) && (m.view.legal_moves || []).length === 1;
}

/**
 * Draw the status line (hidden once the game is over).
 * @param {string} id the table
 * @param {StateMessage} m the state message with the table's view
 * @param {Renderer} R the game's renderer
 * @param {Ctx} ctx
 */
export function renderStatus(id, m, R, ctx) {
  const el = $("#status");
  const view = m.view;
  let text;
  let cls = "";
  if (m.status === "waiting") {
    text =
      `<strong>${esc(_("Waiting for players."))}</strong> ${esc(_("The game starts when every seat is taken."))}` +
      invitesHtml(id, m) +
      keepOpenHtml(m);
  } else if (m.status === "finished" || view.phase === "over") {
    el.hidden = true;
    return;
  } else if (m.seat === null || m.seat === undefined) {
    text = esc(_("You are watching. {name} is to play.", { name: ctx.names[view.to_act ?? -1] ?? "" }));
  } else if (forcedNow(m)) {
    text = `<strong>${esc(_("Your turn."))}</strong> ${esc(_("Your only legal move plays by itself…"))}`;
  } else if (myTurn(m)) {
    cls = "your-turn";
    text = `<strong>${esc(_("Your turn."))}</strong> ${R.prompt(view, ctx)}`;
  } else {
    const seat = m.table.seats[view.to_act ?? -1];
    const name = `<strong>${esc(ctx.names[view.to_act ?? -1] ?? "")}</strong>`;
    text =
      seat && (seat.kind === "bot" || seat.stand_in)
        ? _("Waiting: {name} is thinking…", { name })
        : _("Waiting: {name} is to play…", { name });
  }
  el.hidden = false;
  el.className = `status ${cls}`;
  el.innerHTML = text;
}

/**
 * The invite links of a waiting table's open seats that this browser holds (or anyone's
 * link), else who the seat waits for.
 * @param {string} id the table
 * @param {StateMessage} m
 * @returns {string} HTML
 */
function invitesHtml(id, m) {
  const links = loadInvites(id);
  return m.table.seats
    .filter((s) => s.kind === "open")
    .map((s) => {
      const link = links[s.seat] ?? (s.anyone ? tableUrl(id, s.seat) : null);
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
}

/**
 * The "continue on another device" link of a seated player (the token in its fragment).
 * @param {string} id the table
 * @param {string | null} token this browser's seat token
 * @param {StateMessage} m
 */
export function renderDevice(id, token, m) {
  const box = $("#device");
  const seated = token && m.seat !== null && m.seat !== undefined && m.status !== "finished";
  box.hidden = !seated;
  if (!token || !seated) return;
  const url = deviceUrl(id, token);
  const input = /** @type {HTMLInputElement} */ ($("#device-link"));
  if (input.value !== url) input.value = url;
  renderCustody(m);
}

/** Whether the result was shown already (its title takes the focus the first time). */
let resultShown = false;

/**
 * The result once the game is over, with the record and the replay.
 * @param {string} id the table
 * @param {StateMessage} m the state message with the table's view
 * @param {Renderer} R the game's renderer
 * @param {Ctx} ctx
 */
export function renderResult(id, m, R, ctx) {
  const box = $("#result");
  const over = m.status === "finished" || m.view.phase === "over";
  box.hidden = !over;
  if (!over) return;
  const url = recordUrl(id);
  box.innerHTML =
    `<h2 id="result-title" tabindex="-1">${esc(_("Game over"))}</h2>${R.result(m.view, ctx)}` +
    `<p class="result-links"><a id="record-link" class="button" href="${url}" download="tikki-${esc(id)}.json">` +
    `${esc(_("Download the record"))}</a> ` +
    `<a href="${url}" target="_blank" rel="noopener">${esc(_("View the record"))}</a>` +
    `<a id="replay-link" href="/replay/${encodeURIComponent(id)}${m.seat === null || m.seat === undefined ? "" : `?seat=${m.seat}`}">${esc(_("Replay the game"))}</a>` +
    `<a href="/">${esc(_("New table"))}</a></p>`;
  if (!resultShown) {
    resultShown = true;
    $("#result-title").focus();
  }
}
