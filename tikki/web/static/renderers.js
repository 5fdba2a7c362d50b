// @ts-check
// Each game's renderer for the table and the replay pages: render/<game>.js where the game
// ships one (its /api/games entry says so: `renderer`, read by games.js), else
// render/generic.js, which draws any game from its view. No game is named here.
// The renderers load while the page starts: a page draws once `ready` has settled.
import { GAMES } from "./games.js";
import generic from "./render/generic.js";

/**
 * @typedef {object} Ctx What a renderer knows besides the view.
 * @property {string[]} names the seats' names as this page says them (this seat: "You")
 * @property {string[]} plainNames the seats' names
 * @property {number | null} mySeat this page's seat (null: watching)
 * @property {string[]} legal the moves to offer now (none while another seat acts)
 * @property {any} outcome the table's outcome, once over
 * @property {boolean} memoryAids whether the table shows won tricks (table memory off)
 */

/**
 * @typedef {object} Renderer A game's drawing hooks (render/*.js); the views are the
 * game's own (`any`: each game adds its keys).
 * @property {(view: any) => string} phase the phase's name
 * @property {(view: any, seat: number) => [string, string | number][]} seatStats
 * @property {(view: any, seat: number) => (string | [string, string])[]} seatBadges
 * @property {(view: any, seat: number) => string} seatExtra HTML
 * @property {(view: any, ctx: Ctx) => string} centre HTML
 * @property {(view: any, ctx: Ctx) => string} prompt HTML
 * @property {(view: any, ctx: Ctx) => string} sheet HTML ("" for none)
 * @property {(view: any, ctx: Ctx) => string} result HTML
 * @property {(view: any, ctx: Ctx) => any} [tableView] the view the table shows
 */

/** The games' own renderers, by game name, once loaded. @type {Record<string, Renderer>} */
export const RENDERERS = {};

let settled = false;

/** Settles when every game's own renderer is loaded (one that fails to load is drawn by
 * the generic renderer). */
export const ready = Promise.all(
  Object.entries(GAMES)
    .filter(([, info]) => info.renderer)
    .map(async ([name]) => {
      RENDERERS[name] = (await import(`./render/${name}.js`)).default;
    }),
)
  .catch(() => {})
  .finally(() => {
    settled = true;
  });

/** Whether `ready` has settled (a page that draws before waits for it). */
export const loaded = () => settled;

/** The renderer of `game`: its own, or the generic one.
 * @param {string} game
 * @returns {Renderer} */
export function rendererOf(game) {
  return RENDERERS[game] ?? generic;
}
