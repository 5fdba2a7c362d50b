// @ts-check
// Each game's renderer for the table and the replay pages: render/<game>.js where the game
// ships one (GET /api/games says so: `renderer`), else render/generic.js, which draws any
// game from its view. No game is named here (issue 39). The list is read while the page
// starts, without holding it up: a page draws once `ready` has settled (`loaded()`).
import { api } from "./api.js";
import generic from "./render/generic.js";

/** The games' own renderers, by game name, once loaded. @type {Record<string, any>} */
export const RENDERERS = {};

let settled = false;

/** Settles when every game's own renderer is loaded (or the list could not be read: then
 * every game is drawn by the generic renderer). */
export const ready = api
  .games()
  .then(async (answer) => {
    /** @type {[string, any][]} */
    const games = Object.entries(answer?.games || {});
    const own = games.filter(([, info]) => info.renderer);
    for (const [name, module] of await Promise.all(
      own.map(async ([name]) => [name, await import(`./render/${name}.js`)]),
    )) {
      RENDERERS[name] = module.default;
    }
  })
  .catch(() => {}) // no server (a unit test) or an error: the generic renderer draws
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
