// @ts-check
// What each game declares about itself (GET /api/games), in the page's language
// (`?lang=`, the pseudo-locale included), read once when the page loads: the shared code
// asks this module instead of naming games.
import { lang } from "./i18n.js";

/**
 * @typedef {object} GameInfo What the page reads of a game's declaration.
 * @property {string} [title]
 * @property {boolean} [featured] the lobby offers it first
 * @property {Record<string, string>} [variant_titles] the variants' names, by key
 * @property {Record<string, string>} [goals] a short goal line per phase
 * @property {Record<string, string>} [phase_titles] the phases' names, by id (the generic table)
 * @property {Record<string, string>} [move_titles] its moves that are no cards, by move text
 * (`<word> {n}` for every `<word> <number>` move)
 * @property {Record<string, string>} [seat_facts] public facts shown beside each seat: view
 * key (a list by seat) → title
 * @property {string} [tie_word] the game's own word for a tie, or ""
 * @property {boolean} [renderer] the web table has a renderer of its own (render/<game>.js)
 */

/**
 * @typedef {object} BotLevel A bot level the server offers.
 * @property {string} spec what the lobby asks for
 * @property {string} label its name in the page's language
 * @property {string[]} [aliases] specs that run for this level in some games
 * @property {Record<string, {players: number[], variants: string[]}> | null} [games] the games
 * it plays, with their player counts and variants (Learned: where a model is shipped); none:
 * every game
 */

/** @returns {Promise<{games?: Record<string, GameInfo>, bots?: BotLevel[]}>} */
async function load() {
  try {
    const response = await fetch(`/api/games?lang=${encodeURIComponent(lang)}`, {
      headers: { Accept: "application/json" },
    });
    return (response.ok ? await response.json() : null) || {};
  } catch {
    return {}; // no server (a unit test) or an error: every game reads as undeclared
  }
}

const answer = await load();

/** @type {Record<string, GameInfo>} */
export const GAMES = answer.games || {};

/** The server's bot levels (none without a server). @type {BotLevel[]} */
export const BOTS = answer.bots || [];

/** Whether the bot level `bot` plays `game` with `players` players in `variant`.
 * @param {BotLevel} bot @param {string} game @param {number | string} players @param {string} [variant] */
export function levelPlays(bot, game, players, variant = "standard") {
  const where = bot.games === null || bot.games === undefined ? null : bot.games[game];
  if (where === null) return true;
  return Boolean(where) && where.players.includes(Number(players)) && where.variants.includes(variant || "standard");
}
