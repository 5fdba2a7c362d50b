// @ts-check
// Each game's renderer for the table and the replay pages: render/<game>.js where the game
// ships one (its /api/games entry says so: `renderer`, read by games.js), else
// render/generic.js, which draws any game from its view. No game is named here (issue 39).
// The renderers load while the page starts: a page draws once `ready` has settled.
import { GAMES } from "./games.js";
import generic from "./render/generic.js";

/** The games' own renderers, by game name, once loaded. @type {Record<string, any>} */
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
 * @param {string} game */
export function rendererOf(game) {
  return RENDERERS[game] ?? generic;
}
