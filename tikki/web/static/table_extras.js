// @ts-check
// The table page's rules link, "what you want now" line and "Play again" button, and the
// turn timer, Resign and away seats (in leave.js); table.js calls renderExtras() after
// each render.
import { api, esc, loadTournament, saveToken, tableUrl } from "./api.js";
import { goal } from "./goals.js";
import { renderAnalysis } from "./analysis.js";
import { _ } from "./i18n.js";
import { rulesUrl } from "./words.js";
import { renderLeave } from "./leave.js";
import { $, $button } from "./dom.js";

/** @typedef {import("./store.js").StateMessage} StateMessage */


/** Show the rules link, the phase's goal line and, at the end, "Play again".
 * @param {StateMessage} m the state message (the full view)
 * @param {string | null} token this browser's seat token */
export function renderExtras(m, token) {
  const rules = /** @type {HTMLAnchorElement | null} */ ($("#rules-link"));
  if (rules) rules.href = rulesUrl(m.table.game);
  const line = $("#goal");
  if (line) {
    const text = m.status === "playing" ? goal(m.table.game, m.view) : "";
    line.textContent = text;
    line.hidden = !text;
  }
  renderAgain(m, token);
  renderAnalysis(m);
  renderLeave(m, token);
}

/** "Play again" for a seated player at a finished table; "Back to the tournament" at a
 * tournament's table (noted when its page sent the player here).
 * @param {StateMessage} m
 * @param {string | null} token */
function renderAgain(m, token) {
  const box = $("#again");
  if (!box) return;
  const seated = token && m.seat !== null && m.seat !== undefined;
  box.hidden = !(seated && m.status === "finished");
  if (box.hidden) return;
  const tournament = loadTournament(m.table.id);
  if (tournament) {
    // a tournament's game: its next round is on the tournament's page, not a rematch
    const href = `/tournaments/${encodeURIComponent(tournament.id)}`;
    box.innerHTML = `<a class="button primary" id="back-to-tournament" href="${esc(href)}">${esc(
      _("Back to the tournament: {name}", { name: tournament.name }),
    )}</a>`;
    return;
  }
  const asked = m.table.rematch ? ` ${_("(the others are waiting for you)")}` : "";
  if (box.dataset.table === m.table.id && box.dataset.asked === String(Boolean(m.table.rematch))) return;
  box.dataset.table = m.table.id;
  box.dataset.asked = String(Boolean(m.table.rematch));
  box.innerHTML =
    `<button type="button" class="primary" id="play-again">${esc(_("Play again"))}</button>` +
    ` <span class="muted">${esc(_("same players and bots, the dealer moves on"))}${esc(asked)}</span>`;
  const again = $button("#play-again");
  again.addEventListener("click", async () => {
    again.disabled = true;
    try {
      const answer = await api.rematch(m.table.id, token);
      saveToken(answer.table.id, answer.token, answer.seat);
      location.assign(tableUrl(answer.table.id));
    } catch (err) {
      again.disabled = false;
      /** @type {Element} */ (box.querySelector(".muted")).textContent = /** @type {Error} */ (err).message;
    }
  });
}
