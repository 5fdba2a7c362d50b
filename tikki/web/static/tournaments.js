// @ts-check
// The tournaments page: /tournaments lists them and (signed in) creates one;
// /tournaments/{id} shows one tournament live: its standings, its rounds (each table
// with a link to watch it), and the buttons to enter, leave, add bots (its creator)
// and go to your table while it runs. It reads /api/tournaments and polls every few
// seconds while the tournament is not over.
import { esc, saveToken, saveTournament, tableUrl } from "./api.js";
import { apiCall, whoAmI } from "./account.js";
import { $, $input, $select, showError } from "./dom.js";
import { BOTS, GAMES, levelPlays } from "./games.js";
import { _, lang, languageSwitcher, ngettext, translatePage } from "./i18n.js";
import { HOURS, allowanceWords, isCorrespondence } from "./correspondence.js";
import { clearFieldError, fieldError } from "./fielderror.js";
import { readOptions, renderOptions } from "./lobby/options.js";
import { levelLabel, optionName, optionValue, variantName } from "./words.js";

/** @typedef {import("./lobby/options.js").LobbyGame} LobbyGame */

/**
 * @typedef {object} Line One line of the standings.
 * @property {number} place
 * @property {number} entrant
 * @property {string} name
 * @property {boolean} bot
 * @property {boolean} [withdrawn] whether this entrant has withdrawn
 * @property {number} points
 * @property {number} games
 * @property {number} firsts
 * @property {number} byes
 * @property {number} opponents
 */

/**
 * @typedef {object} Tournament One tournament (GET /api/tournaments/{id}).
 * @property {string} id
 * @property {string} name
 * @property {string} kind "swiss" or "arena"
 * @property {string} game
 * @property {number} players
 * @property {string | null} variant
 * @property {Record<string, any>} [options] the game's options set at its creation
 * @property {number | null} turn_timer each turn's seconds (hours a move: a game that lasts days)
 * @property {number | null} rounds
 * @property {number | null} minutes
 * @property {number} cap
 * @property {string} starts
 * @property {string | null} ends
 * @property {string} status "open", "running", "finished" or "cancelled"
 * @property {number} round
 * @property {string} creator
 * @property {boolean} mine whether you created it
 * @property {number | null} entered your entrant id
 * @property {boolean} [withdrawn] whether you have withdrawn from it (while it runs)
 * @property {{id: number, name: string, bot: boolean}[]} entrants
 * @property {Line[]} standings
 * @property {{round: number, tables: {table: string | null, seats: string[], points: number[] | null}[]}[]} games
 */

const POLL_MS = 3000;

/** The live turn timers a tournament may have (seconds); its tables' bots play a turn that
 * runs out. The correspondence allowances (HOURS) come after them. */
const LIVE = [30, 60, 120];

/** @type {{name: string} | null} */
let account = null;

/** GET or POST to the tournaments' API (account.js: apiCall).
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>} */
const call = (path, body) => apiCall(`/api/tournaments${path}`, body);

/** Show an error (dom.js); empty: hide it. */
const notice = showError;

/** A game's title in the page's language. @param {string} game */
const gameTitle = (game) => GAMES[game]?.title ?? game;

/** A game's declaration as the lobby's option fields read it (GET /api/games).
 * @param {string} game @returns {LobbyGame} */
function declared(game) {
  const g = /** @type {any} */ (GAMES[game] ?? {});
  return { title: g.title ?? game, players: g.players ?? { min: 3, max: 6, default: 3 }, variants: g.variants ?? { standard: {} }, options: g.options ?? [] };
}

/** A turn timer in words: "60 s a turn", "24 h a move". @param {number | null | undefined} seconds */
const timerWords = (seconds) =>
  !seconds ? "" : isCorrespondence(seconds) ? allowanceWords(seconds) : _("{n} s a turn", { n: seconds });

/** A stored time as the reader's local date and time. @param {string | null} iso */
function when(iso) {
  if (!iso) return "";
  const locale = lang === "pseudo" ? "en" : lang;
  return new Date(iso).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/** A tournament's status in words. @param {string} status */
function statusWord(status) {
  return (
    {
      open: _("Open for entries"),
      running: _("Playing"),
      finished: _("Finished"),
      cancelled: _("Cancelled: too few entrants"),
    }[status] ?? status
  );
}

/** The kind and length of a tournament in words. @param {{kind: string, rounds: number | null, minutes: number | null}} t */
function kindWords(t) {
  return t.kind === "swiss"
    ? ngettext("Swiss, {n} round", "Swiss, {n} rounds", t.rounds ?? 0)
    : _("Arena, {n} minutes", { n: t.minutes ?? 0 });
}

/** A table of a round not finished yet. */
const stillPlaying = () => _("still playing");

/** The mark of a bot in the standings. */
const botWord = () => _("bot");

/** Points as the standings show them (halves for byes). @param {number} n */
const pts = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

// ------------------------------------------------------------------ the list and the form

async function showList() {
  const { tournaments } = await call("");
  const body = /** @type {HTMLTableSectionElement} */ ($("#list tbody"));
  body.innerHTML = tournaments
    .map(
      /** @param {any} t */ (t) =>
        `<tr><td><a href="/tournaments/${encodeURIComponent(t.id)}">${esc(t.name)}</a></td>` +
        `<td>${esc(gameTitle(t.game))}</td><td>${esc(kindWords(t))}</td><td>${esc(when(t.starts))}</td>` +
        `<td>${t.entrants} / ${t.cap}</td><td>${esc(statusWord(t.status))}</td></tr>`,
    )
    .join("");
  $("#list").hidden = tournaments.length === 0;
  $("#list-empty").hidden = tournaments.length > 0;
}

/** The chosen game's players (3 to 6, as a tournament's tables take), variants and options. */
function fillGame() {
  const g = declared($select("#t-game").value);
  const players = $select("#t-players");
  const was = Number(players.value);
  const low = Math.max(3, g.players.min);
  const high = Math.min(6, g.players.max);
  players.replaceChildren();
  for (let n = low; n <= high; n++) players.append(new Option(String(n), String(n)));
  players.value = String(was >= low && was <= high ? was : Math.min(high, Math.max(low, g.players.default)));
  const variant = $select("#variant");
  variant.replaceChildren(...Object.keys(g.variants).map((v) => new Option(variantName(v), v)));
  variant.disabled = variant.options.length < 2;
  renderOptions(g, variant.value);
}

/** The turn timers: the live ones, then hours a move (a Swiss tournament only: an arena
 * lasts minutes). */
function fillTimers() {
  const timer = $select("#t-timer");
  for (const n of LIVE) timer.append(new Option(_("{n} s a turn", { n }), String(n), n === 60, n === 60));
  for (const h of HOURS) timer.append(new Option(allowanceWords(h * 3600), String(h * 3600)));
}

/** Offer hours a move to a Swiss tournament only. @param {string} kind */
function timersFor(kind) {
  const timer = $select("#t-timer");
  for (const o of timer.options) o.disabled = kind !== "swiss" && isCorrespondence(Number(o.value));
  if (timer.selectedOptions[0]?.disabled) timer.value = "60";
}

/** The create request the form describes. */
function formBody() {
  const game = $select("#t-game").value;
  const kind = $select("#t-kind").value;
  const variant = $select("#variant").value;
  const minutes = Number($input("#t-starts").value || 0);
  return {
    name: $input("#t-name").value,
    game,
    players: Number($select("#t-players").value),
    variant,
    options: readOptions(declared(game), variant),
    turn_timer: Number($select("#t-timer").value),
    kind,
    rounds: kind === "swiss" ? Number($input("#t-rounds").value) : null,
    minutes: kind === "arena" ? Number($input("#t-minutes").value) : null,
    starts: new Date(Date.now() + minutes * 60_000).toISOString(),
    cap: Number($input("#t-cap").value),
  };
}

function setUpForm() {
  $("#create-guest").hidden = Boolean(account);
  $("#create-form").hidden = !account;
  $("#to-create").hidden = !account; // the form lies under a long list on a phone
  const games = $select("#t-game");
  const names = Object.keys(GAMES).sort((a, b) => Number(Boolean(GAMES[b].featured)) - Number(Boolean(GAMES[a].featured)));
  for (const name of names) games.append(new Option(gameTitle(name), name));
  games.addEventListener("change", fillGame);
  $select("#variant").addEventListener("change", () => renderOptions(declared(games.value), $select("#variant").value));
  fillGame();
  fillTimers();
  const kind = $select("#t-kind");
  kind.addEventListener("change", () => {
    $("#rounds-label").hidden = kind.value !== "swiss";
    $("#minutes-label").hidden = kind.value !== "arena";
    timersFor(kind.value);
  });
  const submit = /** @type {HTMLButtonElement} */ ($("#t-create"));
  $("#create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearFieldError(submit);
    submit.disabled = true;
    try {
      const made = await call("", formBody());
      location.href = `/tournaments/${encodeURIComponent(made.id)}`;
    } catch (err) {
      // beside the button: on a phone the page's notice is far above it
      fieldError(submit, _("The tournament could not be created: {reason}", { reason: /** @type {Error} */ (err).message }));
      document.getElementById(`${submit.id}-error`)?.scrollIntoView({ block: "center" });
    } finally {
      submit.disabled = false;
    }
  });
}

// ------------------------------------------------------------------ one tournament

/** @param {Tournament} t */
function drawOne(t) {
  $("#list-panel").hidden = true;
  $("#create-panel").hidden = true;
  $("#one-panel").hidden = false;
  $("#one-title").textContent = t.name;
  document.title = `${t.name} · tikki`;
  const round = t.kind === "swiss" && t.status === "running" ? ` · ${_("round {n} of {of}", { n: t.round, of: t.rounds ?? 0 })}` : "";
  $("#one-info").textContent =
    `${gameTitle(t.game)}${t.variant && t.variant !== "standard" ? ` (${variantName(t.variant)})` : ""} · ` +
    `${_("{n} at a table", { n: t.players })} · ${kindWords(t)}${t.turn_timer ? ` · ${timerWords(t.turn_timer)}` : ""} · ` +
    `${t.status === "open" ? _("starts {when}", { when: when(t.starts) }) : _("started {when}", { when: when(t.starts) })} · ` +
    `${_("{n} of {cap} entrants", { n: t.entrants.length, cap: t.cap })} · ` +
    `${statusWord(t.status)}${round}`;
  drawOptions(t.options ?? {});
  drawActions(t);
  const body = /** @type {HTMLTableSectionElement} */ ($("#standings tbody"));
  body.innerHTML = t.standings
    .map(
      (s) =>
        `<tr class="${s.entrant === t.entered ? "me" : ""}"><td>${s.place}</td><td>${esc(s.name)}` +
        `${s.bot ? ` <span class="tourney-bot">${esc(botWord())}</span>` : ""}` +
        `${s.withdrawn ? ` <span class="tourney-bot">${esc(_("withdrawn"))}</span>` : ""}</td>` +
        `<td class="num">${pts(s.points)}</td><td class="num">${s.games}</td>` +
        `<td class="num">${t.kind === "swiss" ? pts(s.opponents) : "–"}</td><td class="num">${s.firsts}</td></tr>`,
    )
    .join("");
  $("#rounds-title").hidden = t.games.length === 0;
  $("#rounds").innerHTML = t.games
    .slice()
    .reverse()
    .map(
      (g) =>
        `<div class="tourney-round"><strong>${esc(t.kind === "swiss" ? _("Round {n}", { n: g.round }) : _("Tables"))}</strong><ul>` +
        g.tables
          .map(
            (table) => {
              // each name with its points once the table is over: "Anna7: 2, Aino (Easy): 0"
              const names = table.seats.map((name, i) => (table.points ? `${name}: ${pts(table.points[i])}` : name)).join(", ");
              const link = table.table ? `<a href="${tableUrl(table.table)}">${esc(names)}</a>` : esc(names);
              return `<li>${link}${table.points ? "" : ` · ${esc(stillPlaying())}`}</li>`;
            },
          )
          .join("") +
        "</ul></div>",
    )
    .join("");
}

/** The game's options a tournament plays, named as the lobby names them ("trump only
 * when void = on"); none: the line is hidden. @param {Record<string, any>} options */
function drawOptions(options) {
  const items = Object.entries(options).map(([k, v]) => `${optionName(k)} = ${optionValue(v)}`);
  const line = $("#one-options");
  line.textContent = items.length ? `${_("Options")}: ${items.join(", ")}` : "";
  line.hidden = items.length === 0;
}

/** The buttons of one tournament for the reader. @param {Tournament} t */
function drawActions(t) {
  const box = $("#one-actions");
  box.replaceChildren();
  /** @param {string} label @param {() => Promise<void>} act */
  const button = (label, act) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", () => act().catch((err) => notice(err.message)));
    box.append(b);
    return b;
  };
  if (!account) {
    if (t.status !== "open") return; // nothing to enter any more
    const a = document.createElement("a");
    a.href = "/account";
    a.textContent = _("Sign in to enter.");
    box.append(a);
    return;
  }
  if (t.status === "open") {
    if (t.entered === null) button(_("Enter"), () => change(t, "/join"));
    else button(_("Leave"), () => change(t, "/leave"));
    if (t.mine) {
      const level = document.createElement("select");
      level.id = "bot-level";
      level.setAttribute("aria-label", _("Bot level"));
      for (const b of BOTS.filter((x) => levelPlays(x, t.game, t.players, t.variant ?? "standard"))) {
        level.append(new Option(levelLabel(b), b.spec));
      }
      box.append(level);
      button(_("Add a bot"), () => change(t, "/bots", { bot: level.value, count: 1 }));
      if (t.entrants.length >= t.players) button(_("Start now"), () => change(t, "/start"));
    }
  } else if (t.status === "running" && t.entered !== null) {
    if (t.withdrawn) {
      const said = document.createElement("span");
      said.textContent = _("You have withdrawn: no new table, and your results stay.");
      box.append(said);
      return;
    }
    button(_("Go to my table"), () => goToTable(t));
    button(_("Withdraw from the tournament"), () => withdraw(t)).classList.add("secondary");
  }
}

/** Withdraw from a running tournament, once the player says so. @param {Tournament} t */
async function withdraw(t) {
  if (!confirm(_("Withdraw from this tournament? A bot plays out your seat at the table you are at; you get no new table and no bye; your results stay."))) return;
  await change(t, "/withdraw");
}

/** @param {Tournament} t @param {string} path @param {object} [body] */
async function change(t, path, body = {}) {
  notice("");
  drawOne(await call(`/${encodeURIComponent(t.id)}${path}`, body));
}

/** Take your seat at your table now (its token kept like any seat's). @param {Tournament} t */
async function goToTable(t) {
  const seat = await call(`/${encodeURIComponent(t.id)}/seat`);
  saveToken(seat.table.id, seat.token, seat.seat);
  saveTournament(seat.table.id, t); // the table's end leads back here
  location.href = tableUrl(seat.table.id, seat.seat);
}

/** @param {string} id */
async function showOne(id) {
  /** @type {Tournament} */
  const t = await call(`/${encodeURIComponent(id)}`);
  drawOne(t);
  if (t.status === "open" || t.status === "running") setTimeout(() => showOne(id).catch((err) => notice(err.message)), POLL_MS);
}

async function main() {
  translatePage();
  languageSwitcher(document.querySelector(".topbar"));
  account = await whoAmI().catch(() => null);
  const link = document.getElementById("account-link");
  if (link && account) {
    link.textContent = account.name;
    link.setAttribute("href", `/players/${encodeURIComponent(account.name)}`);
    link.removeAttribute("data-i18n");
  }
  const match = location.pathname.match(/\/tournaments\/([^/?#]+)/);
  try {
    if (match) await showOne(decodeURIComponent(match[1]));
    else {
      setUpForm();
      await showList();
    }
  } catch (err) {
    notice(/** @type {Error} */ (err).message);
  }
}

main();
