// @ts-check
// Each game's renderer for the table and the replay pages: render/<game>.js where the game
// ships one (GET /api/games says so: `renderer`), else render/generic.js, which draws any
// game from its view. Loaded once when the page loads, so the pages draw synchronously;
// no game is named here (issue 39).
import { api } from "./api.js";
import generic from "./render/generic.js";

/** @type {Record<string, {renderer?: boolean}>} */
const games = await api.games().then(
  (answer) => answer?.games || {},
  () => ({}), // no server (a unit test) or an error: every game is drawn by the generic renderer
);

/** The games' own renderers, by game name. @type {Record<string, any>} */
export const RENDERERS = Object.fromEntries(
  await Promise.all(
    Object.entries(games)
      .filter(([, info]) => info.renderer)
      .map(async ([name]) => [name, (await import(`./render/${name}.js`)).default]),
  ),
);

/** The renderer of `game`: its own, or the generic one.
 * @param {string} game */
export function rendererOf(game) {
  return RENDERERS[game] ?? generic;
}
