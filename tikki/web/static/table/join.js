// @ts-check
// The table page's join panel: the seats, a name field and a button for each seat this
// browser may take, or why there is none; "Just watch" always.
import { api, esc, loadName, saveName, saveToken, tableUrl } from "../api.js";
import { $ } from "../dom.js";
import { fieldError } from "../fielderror.js";
import { _ } from "../i18n.js";
import { ratedHtml } from "../rated.js";
import { variantName } from "../words.js";
import { fatal, notice } from "./page.js";

/**
 * @typedef {object} Asked The seat the page's address asks for.
 * @property {string} id the table
 * @property {number | null} seatParam the `?seat=` of the address
 * @property {string | null} invite the invite of the address's fragment
 */

/**
 * @typedef {object} JoinHooks What the page does once the panel is answered.
 * @property {(token: string) => void} seated a seat was taken with this token
 * @property {() => void} watch the person chose to watch
 */

/** @typedef {{seat: number, kind: string, name?: string, anyone?: boolean}} JoinSeat */

/**
 * Show the join panel (`reason`: why it is shown again, if it is).
 * @param {Asked} asked
 * @param {JoinHooks} hooks
 * @param {string} [reason]
 * @returns {Promise<void>}
 */
export async function showJoin(asked, hooks, reason) {
  let table;
  try {
    table = await api.table(asked.id);
  } catch (err) {
    const error = /** @type {import("../api.js").ApiError} */ (err);
    if (error.status === 404) return fatal(_("This table does not exist."));
    notice(error.message);
    setTimeout(() => showJoin(asked, hooks, reason), 3000);
    return;
  }
  if (table.status === "finished") return hooks.watch();
  /** @type {JoinSeat[]} */
  const seats = table.seats;
  /** @param {JoinSeat} s */
  const mine = (s) => s.seat === asked.seatParam && (s.anyone || asked.invite);
  const open = seats.filter((s) => s.kind === "open" && (s.anyone || mine(s))).map((s) => s.seat);
  const seat = asked.seatParam !== null && open.includes(asked.seatParam) ? asked.seatParam : null;
  const invited = seats.some((s) => s.seat === asked.seatParam && s.kind === "open" && !mine(s));
  const box = $("#join");
  const title = `${table.title}${table.variant && table.variant !== "standard" ? ` (${variantName(table.variant)})` : ""}`;
  box.innerHTML =
    `<h2>${esc(_("Join {table}", { table: title }))}${ratedHtml(table)}</h2>${reason ? `<p class="muted">${esc(reason)}</p>` : ""}` +
    `<ul class="seat-list">${seatList(seats)}</ul>${joinForm(asked, seats, open, seat, invited)}` +
    `<p><button type="button" id="watch-btn" class="secondary">${esc(_("Just watch"))}</button> · ` +
    `<a href="/">${esc(_("Lobby"))}</a></p>`;
  box.hidden = false;
  $("#board").hidden = true;
  $("#watch-btn").addEventListener("click", () => hooks.watch());
  const formEl = /** @type {HTMLFormElement | null} */ (document.querySelector("#join-form"));
  if (formEl) wireForm(formEl, asked, hooks, seat);
}

/**
 * The seats, one line each.
 * @param {JoinSeat[]} seats
 * @returns {string} HTML
 */
function seatList(seats) {
  return seats
    .map(
      (s) =>
        `<li>${esc(
          s.kind === "open"
            ? _("Seat {number}: open", { number: s.seat + 1 })
            : _("Seat {number}: {name}", { number: s.seat + 1, name: s.name }),
        )}</li>`,
    )
    .join("");
}

/**
 * The name field with a button for each seat this browser may take, or why there is none.
 * @param {Asked} asked
 * @param {JoinSeat[]} seats
 * @param {number[]} open the seats this browser may take
 * @param {number | null} seat the asked seat, when this browser may take it
 * @param {boolean} invited the asked seat is kept for the holder of its invite link
 * @returns {string} HTML
 */
function joinForm(asked, seats, open, seat, invited) {
  const nameField =
    `<form id="join-form" class="join-form"><label for="join-name">${esc(_("Your name"))}</label>` +
    `<input id="join-name" name="name" required maxlength="40" autocomplete="nickname" value="${esc(loadName())}">`;
  /** @param {number} n */
  const takeSeat = (n) => esc(_("Take seat {number}", { number: n + 1 }));
  const number = (asked.seatParam ?? 0) + 1;
  if (seat !== null) return `${nameField}<button type="submit" class="primary">${takeSeat(seat)}</button></form>`;
  if (open.length) {
    const why = invited
      ? `${_("Seat {number} needs its invite link.", { number })} `
      : asked.seatParam !== null
        ? `${_("Seat {number} is taken.", { number })} `
        : "";
    return (
      `<p>${esc(why)}${esc(_("Seats open to anyone:"))}</p>${nameField}` +
      open.map((s) => `<button type="submit" class="primary" name="seat" value="${s}">${takeSeat(s)}</button>`).join("") +
      `</form>`
    );
  }
  if (seats.some((s) => s.kind === "open")) {
    const whose = invited
      ? _("Seat {number} needs its invite link: open the whole link you were sent.", { number })
      : _("The open seats are kept for the holders of their invite links: open the whole link you were sent.");
    return `<p>${esc(whose)}</p>`;
  }
  return `<p>${esc(_("Every seat is taken."))}</p>`;
}

/**
 * Take the chosen seat when the form is sent; a refusal shows the panel again with why.
 * @param {HTMLFormElement} formEl
 * @param {Asked} asked
 * @param {JoinHooks} hooks
 * @param {number | null} seat the asked seat, when this browser may take it
 */
function wireForm(formEl, asked, hooks, seat) {
  const input = /** @type {HTMLInputElement} */ ($("#join-name"));
  input.focus();
  formEl.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) {
      fieldError(input, _("Please enter your name first."));
      input.focus();
      return;
    }
    const submitter = /** @type {HTMLButtonElement | null} */ (ev.submitter);
    const chosen = submitter && submitter.value ? Number(submitter.value) : seat;
    for (const b of formEl.querySelectorAll("button")) b.disabled = true;
    try {
      const invite = chosen === asked.seatParam ? asked.invite : null;
      const answer = await api.join(asked.id, chosen, name, invite);
      saveName(name);
      saveToken(asked.id, answer.token, answer.seat);
      history.replaceState(null, "", tableUrl(asked.id, answer.seat));
      $("#join").hidden = true;
      hooks.seated(answer.token);
    } catch (err) {
      const error = /** @type {Error} */ (err);
      await showJoin(asked, hooks);
      const field = /** @type {HTMLElement | null} */ (document.querySelector("#join-name"));
      if (field) fieldError(field, error.message);
      else notice(error.message);
    }
  });
}
