// @ts-check
// "What you want now": one short line per game and phase, shown when a phase begins.
// Each game declares its lines (Game.phase_goals); /api/games serves them in the
// page's language (games.js).
import { GAMES } from "./games.js";

/**
 * The goal line of a game's current phase, or "" (game over, unknown phase).
 * @param {string} game
 * @param {{ phase?: string } | null | undefined} view
 * @returns {string}
 */
export function goal(game, view) {
  const phase = view?.phase;
  return (phase && GAMES[game]?.goals?.[phase]) || "";
}
