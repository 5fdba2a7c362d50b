// @ts-check
// The lobby: create a table from GET /api/games, share invite links, list and join tables.
import {
  api,
  copyText,
  esc,
  inviteOf,
  loadInvites,
  loadName,
  saveInvites,
  saveName,
  saveToken,
  seatLabel,
  tableUrl,
} from "./api.js";
import { $, $button, $input, $select } from "./dom.js";
import { _, languageSwitcher, translatePage } from "./i18n.js";
import { levelLabel, rulesUrl, variantName } from "./words.js";
import { levelPlays } from "./games.js";
import { timerChoice } from "./leave.js";
import { clearFieldError, fieldError } from "./fielderror.js";
import { rememberSettings, renderQuickPlay } from "./quickplay.js";
import { readOptions, renderOptions } from "./lobby/options.js";
import { clearSeatErrors, loadTables, seatError } from "./lobby/tables.js";

/** @typedef {import("./lobby/options.js").LobbyGame} LobbyGame */
/** @typedef {import("./games.js").BotLevel} BotLevel */
/** @typedef {import("./api.js").ApiError} ApiError */

/** The largest seed the server takes (tikki/server/seeds.py: 128 bits). */
const SEED_MAX = 2n ** 128n - 1n;
const state = {
  /** @type {Record<string, LobbyGame>} */
  games: {},
  /** @type {BotLevel[]} */
  bots: [],
  /** the game chosen (its name) */
  game: "",
};

/** The chosen game's declaration. */
const chosen = () => state.games[state.game];

/** Draw the chosen game's option fields at the chosen variant. */
const drawOptions = () => renderOptions(chosen(), $select("#variant").value);

/**
 * The control a server error is about: the seed field, the timer, else `fallback`.
 * @param {ApiError} err
 * @param {HTMLElement} fallback
 * @returns {HTMLElement}
 */
function controlOf(err, fallback) {
  /** @type {Record<string, string>} */
  const byCode = {
    bad_seed: "#seed",
    seed_not_allowed: "#seed",
    bad_timer: "#turn-timer",
    correspondence_needs_account: "#turn-timer",
    bad_name: "#player-name",
  };
  const message = String(err.message || "");
  const sel = byCode[err.code] ?? (/\bseed\b|siemen|Startwert/i.test(message) ? "#seed" : null);
  return (sel && $(sel)) || fallback;
}

/** Hours a move (a game that lasts days) are an account's: a guest's form does not offer
 * them (the server refuses them to a guest in words, shown beside the timer). */
async function offerHoursToAccounts() {
  const r = await fetch("/api/account").catch(() => null);
  const account = r && r.ok ? (await r.json()).account : null;
  const hours = /** @type {NodeListOf<HTMLOptionElement>} */ (document.querySelectorAll("#turn-timer option[value$='h']"));
  for (const option of hours) option.hidden = option.disabled = !account;
  const timer = $select("#turn-timer");
  if (!account && timer.value.endsWith("h")) timer.value = "";
}

/**
 * The player's name from the field at the top (kept for next time), or null with an error
 * beside the field (and beside `near`, the control that asked).
 * @param {HTMLElement | null} [near]
 * @returns {string | null}
 */
function playerName(near = null) {
  const input = $input("#player-name");
  const name = input.value.trim();
  if (!name) {
    fieldError(input, _("Please enter your name first."));
    if (near && near !== input) fieldError(near, _("Please enter your name first (at the top)."));
    input.focus();
    return null;
  }
  clearFieldError(input);
  saveName(name);
  return name;
}

// ---------------------------------------------------------------- the create form

/** The header's list of games, the featured ones first: "A · B · C". */
function renderTitles() {
  const games = Object.values(state.games);
  const titles = [...games.filter((g) => g.featured), ...games.filter((g) => !g.featured)].map((g) => g.title);
  $("#game-titles").textContent = titles.join(" · ");
}

/** The game choice (the featured game chosen first) and the chosen game's form. */
function renderGames() {
  const box = $("#game-choice");
  const names = Object.keys(state.games);
  const first = names.find((n) => state.games[n].featured) ?? names[0]; // its declaration
  box.innerHTML =
    `<legend>${esc(_("Game"))}</legend>` +
    names
      .map(
        (g) =>
          `<label class="game-option"><input type="radio" name="game" value="${esc(g)}"${g === first ? " checked" : ""}>` +
          `<span>${esc(state.games[g].title)}</span>` +
          `<span class="game-summary">${esc(state.games[g].summary || "")} ` +
          `<a href="${rulesUrl(g)}" data-rules="${esc(g)}" target="_blank" rel="noopener" aria-label="${esc(
            _("Rules of {game}", { game: state.games[g].title }),
          )}">${esc(_("Rules"))}</a></span></label>`,
      )
      .join("");
  state.game = first;
  box.addEventListener("change", (ev) => {
    const target = /** @type {HTMLInputElement} */ (ev.target);
    if (target.name === "game") {
      state.game = target.value;
      renderGameForm();
    }
  });
  renderGameForm();
}

/** The chosen game's form: the players, the variants, the options and the seats. */
function renderGameForm() {
  const g = chosen();
  const players = $select("#players");
  players.replaceChildren();
  for (let n = g.players.min; n <= g.players.max; n++) {
    players.append(new Option(String(n), String(n), n === g.players.default, n === g.players.default));
  }
  const variant = $select("#variant");
  variant.innerHTML = Object.keys(g.variants)
    .map((v) => `<option value="${esc(v)}">${esc(variantName(v))}</option>`)
    .join("");
  variant.disabled = Object.keys(g.variants).length < 2;
  $("#memory-box").hidden = !g.memory_aids; // the table option the game declares (/api/games)
  drawOptions();
  renderSeats();
}

/** The bot levels that play the chosen game with the chosen number of players. */
function botsHere() {
  return state.bots.filter((b) => levelPlays(b, state.game, $select("#players").value, $select("#variant").value));
}

/**
 * The choices of one seat: a person (by invite, or anyone) or a bot level.
 * @param {string} selected the choice selected
 * @returns {string} HTML
 */
function seatOptions(selected) {
  const bots = botsHere()
    .map(
      (b) =>
        `<option value="bot:${esc(b.spec)}"${selected === `bot:${b.spec}` ? " selected" : ""}>${esc(_("Bot · {level}", { level: levelLabel(b) }))}</option>`,
    )
    .join("");
  /** @param {string} value @param {string} text HTML */
  const person = (value, text) => `<option value="${value}"${selected === value ? " selected" : ""}>${text}</option>`;
  return `${person("open", esc(_("A person (invite link)")))}${person("anyone", esc(_("A person (open to anyone)")))}${bots}`;
}

/** A choice for each seat, keeping the earlier choices where they still play here. */
function renderSeats() {
  const n = Number($select("#players").value);
  const list = $("#seat-choices");
  const here = botsHere();
  const kept = new Set(["open", "anyone", ...here.map((b) => `bot:${b.spec}`)]);
  const old = [...list.querySelectorAll("select")].map((s) => s.value);
  const medium = here.find((b) => b.spec === "heuristic") || here[0];
  const fallback = medium ? `bot:${medium.spec}` : "open";
  const items = [];
  for (let i = 0; i < n; i++) {
    const wanted = old[i] ?? (i === 0 ? "open" : fallback);
    const value = kept.has(wanted) ? wanted : fallback; // a level that does not play here (Learned)
    items.push(
      `<li><label for="seat-${i}">${esc(seatLabel(i))}</label><select id="seat-${i}" data-seat="${i}">${seatOptions(
        value,
      )}</select></li>`,
    );
  }
  list.innerHTML = items.join("");
}

/**
 * Create the table the form describes (the seed checked first), then show its links.
 * @param {SubmitEvent} ev
 */
async function create(ev) {
  ev.preventDefault();
  const choices = /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("#seat-choices select"));
  const seats = [...choices].map((s) =>
    s.value === "open"
      ? { kind: "open" }
      : s.value === "anyone"
        ? { kind: "open", anyone: true }
        : { kind: "bot", bot: s.value.slice(4) },
  );
  const variant = $select("#variant").value;
  /** @type {import("./quickplay.js").CreateBody & Record<string, any>} */
  const body = {
    game: state.game,
    players: Number($select("#players").value),
    variant,
    options: readOptions(chosen(), variant),
    seats,
  };
  const seed = $input("#seed").value.trim();
  if (seed !== "" && !(/^[0-9]{1,39}$/.test(seed) && BigInt(seed) <= SEED_MAX)) {
    const field = $input("#seed");
    /** @type {HTMLDetailsElement} */ (field.closest("details")).open = true;
    fieldError(field, _("A seed is a whole number from 0 to {most}.", { most: String(SEED_MAX) }));
    field.focus();
    return;
  }
  if (seed !== "") body.seed = seed; // decimal text: a 128-bit seed is no JS number
  if (chosen().memory_aids && $input("#memory-aids").checked) body.memory_aids = true;
  body.forced_moves = $input("#forced-moves").checked; // on unless unticked (the API's default is off)
  if ($input("#rated")?.checked) body.rated = true; // shown when signed in (account.js)
  Object.assign(body, timerChoice());
  const button = $button("#create-btn");
  clearFieldError(button);
  button.disabled = true;
  try {
    const answer = await api.create(body);
    showCreated(answer);
    rememberSettings(body);
    loadTables();
  } catch (err) {
    const error = /** @type {ApiError} */ (err);
    const text = _("The table could not be created: {reason}", { reason: error.message });
    const control = controlOf(error, button);
    const details = /** @type {HTMLDetailsElement | null} */ (control.closest("details"));
    if (details) details.open = true;
    fieldError(control, text);
    if (control !== button) fieldError(button, text);
  } finally {
    button.disabled = false;
  }
}

/**
 * The table just created: its invite links and a button to take each seat.
 * @param {{table: {id: string, title: string}, invites: {seat: number, url: string}[]}} answer
 */
function showCreated(answer) {
  const t = answer.table;
  saveInvites(t.id, answer.invites);
  const box = $("#created");
  const invites = answer.invites
    .map((inv) => {
      const url = new URL(inv.url, location.href).href;
      return (
        `<li class="invite" data-seat="${inv.seat}"><label for="invite-${inv.seat}">${esc(seatLabel(inv.seat))}</label>` +
        `<input id="invite-${inv.seat}" readonly value="${esc(url)}">` +
        `<button type="button" class="secondary" data-copy="invite-${inv.seat}">${esc(_("Copy link"))}</button>` +
        `<button type="button" class="primary" data-take="${inv.seat}" data-table="${esc(t.id)}">${esc(_("Take this seat"))}</button></li>`
      );
    })
    .join("");
  box.innerHTML =
    `<h3>${esc(_("{game} table created", { game: t.title }))}</h3>` +
    (invites
      ? `<p>${esc(_("Send a link to each friend, or take a seat yourself:"))}</p><ul class="invites">${invites}</ul>`
      : `<p>${esc(_("Only bots at this table."))} <a href="${tableUrl(t.id)}">${esc(_("Watch it"))}</a></p>`);
  box.hidden = false;
  /** @type {HTMLElement | null} */ (box.querySelector("button, a"))?.focus();
}

/**
 * Take a seat with the name at the top, and open its table.
 * @param {string} id the table
 * @param {number} seat
 * @param {HTMLButtonElement | null} button the button that asked
 */
async function take(id, seat, button) {
  const listed = Boolean(button?.closest("#tables"));
  clearSeatErrors(); // the player acts again
  const name = playerName(listed ? null : button);
  if (name === null) {
    if (listed) seatError(id, seat, _("Please enter your name first (at the top)."));
    return;
  }
  if (button) button.disabled = true;
  try {
    const link = loadInvites(id)[seat];
    const answer = await api.join(id, seat, name, link ? inviteOf(link) : null);
    saveToken(id, answer.token, answer.seat);
    location.href = tableUrl(id, answer.seat);
  } catch (err) {
    const message = /** @type {Error} */ (err).message;
    if (listed) seatError(id, seat, message); // kept through the list's refreshes
    else if (button) fieldError(button, message);
    else fieldError($("#player-name"), message);
    if (button) button.disabled = false;
    loadTables();
  }
}

// ---------------------------------------------------------------- the table list

// ---------------------------------------------------------------- start

document.addEventListener("click", (ev) => {
  const target = /** @type {Element} */ (ev.target).closest("button");
  if (!target) return;
  if (target.dataset.take !== undefined) {
    take(target.dataset.table ?? "", Number(target.dataset.take), target);
  } else if (target.dataset.copy) {
    const input = /** @type {HTMLInputElement} */ (document.getElementById(target.dataset.copy));
    copyText(input.value, input).then((ok) => {
      target.textContent = ok ? _("Copied") : _("Select and copy");
      setTimeout(() => (target.textContent = _("Copy link")), 2000);
    });
  } else if (target.id === "refresh") {
    loadTables();
  }
});

async function start() {
  translatePage();
  languageSwitcher(document.querySelector(".topbar"));
  const name = $input("#player-name");
  if (!name.value.trim()) name.value = loadName(); // keep a name typed while the page loaded
  name.addEventListener("change", () => name.value.trim() && saveName(name.value.trim()));
  $("#create-form").addEventListener("submit", (ev) => create(/** @type {SubmitEvent} */ (ev)));
  $("#players").addEventListener("change", renderSeats);
  $("#variant").addEventListener("change", () => {
    drawOptions();
    renderSeats(); // a level may play only some variants (Learned)
  });
  $("#table-filter").addEventListener("change", loadTables);
  offerHoursToAccounts();
  try {
    const answer = await api.games();
    state.games = answer.games;
    renderTitles();
    state.bots = answer.bots || [];
    $("#learned-help").hidden = !state.bots.some((b) => b.spec === "learned"); // where the server offers it
    renderGames();
    renderQuickPlay($("#quick-play"), state.games, state.bots, $input("#player-name"));
  } catch (err) {
    const reason = /** @type {Error} */ (err).message;
    $("#game-choice").innerHTML =
      `<legend>${esc(_("Game"))}</legend>` +
      `<p>${esc(_("The games could not be loaded: {reason}", { reason }))}</p>`;
  }
  loadTables();
  setInterval(() => {
    if (document.visibilityState === "visible") loadTables();
  }, 15000);
}

start();
