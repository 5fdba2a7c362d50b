// @ts-check
// "Play now against bots": one button per game in the lobby makes a
// table of you and bots with your last settings for that game, takes your seat and opens
// the table, in one step. The settings of the last table created for each game (players,
// variant, options, bot level, table options) are kept in localStorage.
import { api, esc, inviteOf, loadName, saveName, saveToken, storage, tableUrl } from "./api.js";
import { _, ngettext } from "./i18n.js";
import { levelLabel, variantName } from "./words.js";
import { levelPlays } from "./games.js";

/** @typedef {import("./lobby/options.js").LobbyGame} LobbyGame */
/** @typedef {import("./games.js").BotLevel} BotLevel */

/**
 * @typedef {object} CreateBody A create request (POST /api/tables) as the lobby and this
 * module make it.
 * @property {string} game
 * @property {number} players
 * @property {string} [variant]
 * @property {Record<string, any>} options
 * @property {{kind: string, bot?: string, anyone?: boolean}[]} seats
 * @property {boolean} [memory_aids]
 * @property {boolean} [forced_moves]
 */

const KEY = "tikki.quick";
const DEFAULT_BOT = "heuristic";

/** The remembered settings of every game ({game: settings}).
 * @returns {Record<string, any>} */
function remembered() {
  try {
    return JSON.parse(storage()?.getItem(KEY) ?? "{}") || {};
  } catch {
    return {};
  }
}

/** Remember the settings of a table created in the lobby (called after it was made).
 * @param {CreateBody} body */
export function rememberSettings(body) {
  const bot = (body.seats || []).find((s) => s.kind === "bot");
  const all = remembered();
  all[body.game] = {
    players: body.players,
    variant: body.variant,
    options: body.options || {},
    bot: bot ? bot.bot : (all[body.game]?.bot ?? DEFAULT_BOT),
    memory_aids: Boolean(body.memory_aids),
    forced_moves: body.forced_moves !== false,
  };
  storage()?.setItem(KEY, JSON.stringify(all));
}

/** The create request of a quick game: you at seat 1, bots at the others.
 * @param {string} game
 * @param {LobbyGame} info
 * @param {BotLevel[]} bots
 * @returns {CreateBody} */
export function quickBody(game, info, bots) {
  const saved = remembered()[game] || {};
  const players = Number(saved.players) || info.players.default;
  const variant = saved.variant && saved.variant in info.variants ? saved.variant : undefined;
  /** @param {BotLevel} b */
  const plays = (b) => b.spec === saved.bot && levelPlays(b, game, players, variant);
  const level = bots.some(plays) ? saved.bot : DEFAULT_BOT;
  /** @type {CreateBody} */
  const body = {
    game,
    players,
    variant,
    options: saved.options || {},
    seats: [{ kind: "open" }, ...Array.from({ length: players - 1 }, () => ({ kind: "bot", bot: level }))],
  };
  if (saved.memory_aids) body.memory_aids = true;
  body.forced_moves = saved.forced_moves !== false; // on unless the last table had it off
  return body;
}

/**
 * @param {CreateBody} body
 * @param {LobbyGame} info
 * @param {BotLevel[]} bots
 * @returns {string}
 */
function settingsText(body, info, bots) {
  const bot = bots.find((b) => b.spec === body.seats[1]?.bot);
  const parts = [ngettext("{n} player", "{n} players", body.players)];
  if (body.variant && body.variant !== "standard") parts.push(variantName(body.variant));
  if (bot) parts.push(_("bots: {level}", { level: levelLabel(bot) }));
  return parts.join(" · ");
}

/** One "Play now" button per game into `host`; `nameInput` holds the player's name.
 * @param {HTMLElement | null} host
 * @param {Record<string, LobbyGame>} games
 * @param {BotLevel[]} bots
 * @param {HTMLInputElement | null} nameInput */
export function renderQuickPlay(host, games, bots, nameInput) {
  if (!host) return;
  host.innerHTML = Object.entries(games)
    .map(([game, info]) => {
      const body = quickBody(game, info, bots);
      return (
        `<div class="quick-game" data-game="${esc(game)}"><button type="button" class="primary quick-btn" data-quick="${esc(game)}" aria-describedby="quick-${esc(game)}">` +
        `${esc(_("Play {game} now against bots", { game: info.title }))}</button>` +
        `<small id="quick-${esc(game)}" class="help">${esc(settingsText(body, info, bots))}</small></div>`
      );
    })
    .join("");
  host.addEventListener("click", async (ev) => {
    const button = /** @type {HTMLElement} */ (ev.target).closest("[data-quick]");
    if (!(button instanceof HTMLButtonElement)) return;
    const game = button.dataset.quick ?? "";
    await play(game, games[game], bots, nameInput, button);
  });
}

/** A name for a first visit that has typed none: "Guest 4821" (the server keeps words such
 * as "Player" for itself, so a default must be a name of its own). */
function guestName() {
  return _("Guest {number}", { number: String(1000 + Math.floor(Math.random() * 9000)) });
}

/**
 * @param {string} game
 * @param {LobbyGame} info
 * @param {BotLevel[]} bots
 * @param {HTMLInputElement | null} nameInput
 * @param {HTMLButtonElement} button
 */
async function play(game, info, bots, nameInput, button) {
  const box = /** @type {HTMLElement} */ (button.parentElement);
  box.querySelector(".field-error")?.remove(); // an error shows only while it holds
  const typed = nameInput ? nameInput.value.trim() : "";
  const name = typed || loadName() || guestName();
  if (name !== loadName()) {
    saveName(name); // a first visit's guest name stays, shown in the field to change
    if (nameInput) nameInput.value = name;
  }
  button.disabled = true;
  try {
    const body = quickBody(game, info, bots);
    /** @type {{table: {id: string}, invites: {seat: number, url: string}[]}} */
    const made = await api.create(body);
    rememberSettings(body);
    const id = made.table.id;
    const mine = made.invites.find((i) => i.seat === 0);
    const joined = await api.join(id, 0, name, mine ? inviteOf(mine.url) : null);
    saveToken(id, joined.token, joined.seat);
    location.href = tableUrl(id, joined.seat);
  } catch (err) {
    const error = document.createElement("p");
    error.className = "field-error";
    error.setAttribute("role", "alert");
    error.textContent = _("The game could not be started: {reason}", { reason: /** @type {Error} */ (err).message });
    box.append(error);
    button.disabled = false;
    button.focus();
  }
}
