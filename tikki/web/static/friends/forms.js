// @ts-check
// The friends' requests and the challenge form: a game, its players and variant, the
// other seats' bot level and a turn timer, sent to POST /api/friends/challenges.
import { acceptLanguage, _ } from "../i18n.js";
import { cookie, Refusal, sentence } from "../account.js";
import { GAMES, BOTS } from "../games.js";
import { levelLabel, variantName } from "../words.js";
import { HOURS, allowanceWords, isCorrespondence } from "../correspondence.js";

/** @typedef {{min: number, max: number, default: number}} PlayerRange */

/** POST to the friends' API with the CSRF header; the answer, or a Refusal whose message
 * is a sentence in the page's language.
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>} */
export async function send(path, body) {
  const r = await fetch(`/api/friends${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-CSRF-Token": cookie("tikki_csrf"),
      "Accept-Language": acceptLanguage(),
    },
    body: JSON.stringify(body ?? {}),
  });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) throw new Refusal(answer?.detail?.code ?? "", sentence(answer?.detail?.message ?? _("Something went wrong.")));
  return answer;
}

/** A game's title. @param {string} game */
export const gameTitle = (game) => GAMES[game]?.title ?? game;

/** What a challenge asks for, in words: the game, its players, variant and timer.
 * @param {Record<string, any>} options */
export function challengeWords(options) {
  const parts = [gameTitle(options.game), _("{n} players", { n: options.players })];
  if (options.variant && options.variant !== "standard") parts.push(variantName(options.variant));
  const timer = options.turn_timer;
  if (typeof timer === "string" && timer.endsWith("h")) parts.push(allowanceWords(Number(timer.slice(0, -1)) * 3600));
  else if (isCorrespondence(timer)) parts.push(allowanceWords(timer));
  else if (timer) parts.push(_("{n} s a turn", { n: timer }));
  return parts.join(", ");
}

/**
 * @param {string} tag
 * @param {string} [text]
 * @param {string} [cls]
 * @returns {HTMLElement}
 */
export function el(tag, text = "", cls = "") {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

/** A labelled select. @param {string} id @param {string} label @param {[string, string][]} choices */
function select(id, label, choices) {
  const box = el("label", "", "challenge-field");
  const text = el("span", label);
  const sel = document.createElement("select");
  sel.id = id;
  for (const [value, title] of choices) sel.append(new Option(title, value));
  box.append(text, sel);
  return { box, sel };
}

/** The players a game takes (GET /api/games). @param {string} game @returns {PlayerRange} */
function range(game) {
  const info = /** @type {any} */ (GAMES[game] ?? {});
  return info.players ?? { min: 2, max: 4, default: 3 };
}

/**
 * The challenge form for `name`, with its own Send and Cancel buttons.
 * @param {string} name the account challenged
 * @param {(options: Record<string, any>) => Promise<void>} submit
 * @param {() => void} close
 * @returns {HTMLFormElement}
 */
export function challengeForm(name, submit, close) {
  const form = /** @type {HTMLFormElement} */ (el("form", "", "challenge-form"));
  const key = name.replace(/[^\w-]/g, "_");
  form.append(el("p", _("Challenge {name} to a table:", { name }), "challenge-title"));
  const games = Object.keys(GAMES).sort((a, b) => Number(Boolean(GAMES[b].featured)) - Number(Boolean(GAMES[a].featured)));
  const game = select(`challenge-game-${key}`, _("Game"), games.map((g) => [g, gameTitle(g)]));
  const players = select(`challenge-players-${key}`, _("Players"), []);
  const variant = select(`challenge-variant-${key}`, _("Variant"), []);
  const levels = BOTS.filter((b) => b.spec !== "learned").map((b) => [b.spec, levelLabel(b)]);
  const bot = select(`challenge-bot-${key}`, _("Bots at the other seats"), /** @type {[string, string][]} */ (levels));
  bot.sel.value = "heuristic";
  const days = HOURS.map((h) => /** @type {[string, string]} */ ([`${h}h`, allowanceWords(h * 3600)]));
  const timer = select(`challenge-timer-${key}`, _("Turn timer"), [["", _("off")], ["60", _("60 s")], ["120", _("120 s")], ...days]);
  const fill = () => {
    const r = range(game.sel.value);
    players.sel.replaceChildren(
      ...Array.from({ length: r.max - Math.max(2, r.min) + 1 }, (_x, i) => new Option(String(Math.max(2, r.min) + i), String(Math.max(2, r.min) + i))),
    );
    players.sel.value = String(Math.max(2, r.min));
    const variants = Object.keys(/** @type {any} */ (GAMES[game.sel.value] ?? {}).variants ?? { standard: {} });
    variant.sel.replaceChildren(...variants.map((v) => new Option(variantName(v), v)));
    bot.box.hidden = Number(players.sel.value) <= 2;
  };
  game.sel.addEventListener("change", fill);
  players.sel.addEventListener("change", () => (bot.box.hidden = Number(players.sel.value) <= 2));
  fill();
  const row = el("div", "", "challenge-fields");
  row.append(game.box, players.box, variant.box, bot.box, timer.box);
  const go = /** @type {HTMLButtonElement} */ (el("button", _("Send challenge"), "primary small"));
  go.type = "submit";
  go.id = `challenge-send-${key}`;
  const cancel = /** @type {HTMLButtonElement} */ (el("button", _("Cancel"), "secondary small"));
  cancel.type = "button";
  cancel.addEventListener("click", close);
  const buttons = el("p", "", "challenge-buttons");
  buttons.append(go, " ", cancel);
  form.append(row, buttons);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    go.disabled = true;
    try {
      await submit({
        name,
        game: game.sel.value,
        players: Number(players.sel.value),
        variant: variant.sel.value,
        bot: bot.sel.value || "heuristic",
        turn_timer: !timer.sel.value ? null : timer.sel.value.endsWith("h") ? timer.sel.value : Number(timer.sel.value),
      });
    } finally {
      go.disabled = false;
    }
  });
  return form;
}
