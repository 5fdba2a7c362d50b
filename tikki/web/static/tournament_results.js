// @ts-check
// A player's tournaments on their profile: each with its place, points and status,
// linked to the tournament's page.
import { esc } from "./api.js";
import { GAMES } from "./games.js";
import { _, ngettext } from "./i18n.js";

/**
 * @typedef {object} Entered One tournament of the player (GET /api/players/{name}).
 * @property {string} id
 * @property {string} name
 * @property {string} game
 * @property {string} status
 * @property {number | null} place
 * @property {number} of
 * @property {number} points
 */

/**
 * Fill ``host`` with the player's tournaments; hide ``section`` when there are none.
 * @param {HTMLElement | null} section
 * @param {HTMLElement | null} host
 * @param {Entered[] | undefined} list
 */
export function renderTournamentResults(section, host, list) {
  if (!section || !host) return;
  section.hidden = !list || list.length === 0;
  if (!list) return;
  const items = list.map((t) => {
    const title = GAMES[t.game]?.title ?? t.game;
    const link = `<a href="/tournaments/${encodeURIComponent(t.id)}">${esc(t.name)}</a>`;
    return `<li>${link} · ${esc(title)} · ${esc(standing(t))}</li>`;
  });
  host.innerHTML = `<ul class="tournament-results">${items.join("")}</ul>`;
}

/** The player's standing in one tournament, in words. @param {Entered} t */
function standing(t) {
  const place = t.place ?? "–";
  if (t.status === "finished") {
    return ngettext("{place}. of {n}, {points} point", "{place}. of {n}, {points} points", t.points, { place, n: t.of, points: t.points });
  }
  if (t.status === "running") return _("playing: {place}. of {n} so far", { place, n: t.of });
  if (t.status === "cancelled") return _("cancelled: too few entrants");
  return _("entered, not started yet");
}
