// @ts-check
// The lobby: create a table from GET /api/games, share invite links, list and join tables.
import {
  api,
  copyText,
  esc,
  inviteOf,
  loadInvites,
  loadName,
  loadToken,
  saveInvites,
  saveName,
  saveToken,
  seatLabel,
  tableUrl,
} from "./api.js";
import { _, lang, languageSwitcher, ngettext, translatePage } from "./i18n.js";
import { andList, levelLabel, optionName, optionValue, rulesUrl, variantName } from "./words.js";
import { levelPlays } from "./games.js";
import { timerChoice } from "./leave.js";
import { clearFieldError, fieldError } from "./fielderror.js";
import { rememberSettings, renderQuickPlay } from "./quickplay.js";
import { ratedHtml } from "./rated.js";

const $ = (sel) => document.querySelector(sel);
/** The largest seed the server takes (tikki/server/seeds.py: 128 bits). */
const SEED_MAX = 2n ** 128n - 1n;
const state = { games: {}, bots: [], game: null };

/** The control a server error is about: the seed field, the timer, else `fallback`. */
function controlOf(err, fallback) {
  const byCode = { bad_seed: "#seed", seed_not_allowed: "#seed", bad_timer: "#turn-timer", bad_name: "#player-name" };
  const message = String(err.message || "");
  const sel = byCode[err.code] ?? (/\bseed\b|siemen|Startwert/i.test(message) ? "#seed" : null);
  return (sel && $(sel)) || fallback;
}

function playerName(near = null) {
  const input = $("#player-name");
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
    if (ev.target.name === "game") {
      state.game = ev.target.value;
      renderGameForm();
    }
  });
  renderGameForm();
}

function renderGameForm() {
  const g = state.games[state.game];
  const players = $("#players");
  players.innerHTML = "";
  for (let n = g.players.min; n <= g.players.max; n++) {
    players.append(new Option(String(n), String(n), n === g.players.default, n === g.players.default));
  }
  const variant = $("#variant");
  variant.innerHTML = Object.keys(g.variants)
    .map((v) => `<option value="${esc(v)}">${esc(variantName(v))}</option>`)
    .join("");
  variant.disabled = Object.keys(g.variants).length < 2;
  $("#memory-box").hidden = !g.memory_aids; // the table option the game declares (/api/games)
  renderOptions();
  renderSeats();
}

function effectiveDefaults() {
  const g = state.games[state.game];
  const preset = g.variants[$("#variant").value] || {};
  const out = {};
  for (const o of g.options) out[o.name] = o.name in preset ? preset[o.name] : o.default;
  return out;
}

/** An option's help in words, the rulings it follows as small references. */
function optionHelp(o) {
  const refs = (o.rulings || []).map(
    (r) => `<small class="ruling-ref" title="${esc(_("ruling {id}", { id: r }))}">${esc(r)}</small>`,
  );
  return esc(o.text ?? o.help ?? "") + refs.join("");
}

function renderOptions() {
  const g = state.games[state.game];
  const preset = g.variants[$("#variant").value] || {};
  const presetText = Object.entries(preset)
    .map(([k, v]) => `${optionName(k)} = ${optionValue(v)}`)
    .join(", ");
  $("#variant-help").textContent = presetText ? _("This variant sets {options}.", { options: presetText }) : "";
  const defaults = effectiveDefaults();
  const box = $("#options");
  $("#options-box").hidden = g.options.length === 0;
  box.innerHTML = g.options
    .map((o) => {
      const id = `opt-${o.name}`;
      const help = `<small id="${id}-help" class="help">${optionHelp(o)}</small>`;
      const value = defaults[o.name];
      let input;
      if (o.type === "bool") {
        input =
          `<label class="check"><input type="checkbox" id="${id}" data-option="${esc(o.name)}" data-type="bool"` +
          `${value ? " checked" : ""} aria-describedby="${id}-help"> ${esc(optionName(o.name))}</label>`;
        return `<div class="option">${input}${help}</div>`;
      }
      if (o.choices) {
        input =
          `<select id="${id}" data-option="${esc(o.name)}" data-type="${esc(o.type)}" aria-describedby="${id}-help">` +
          o.choices
            .map((c) => `<option value="${esc(c)}"${c === value ? " selected" : ""}>${esc(optionValue(c))}</option>`)
            .join("") +
          `</select>`;
      } else {
        const min = o.minimum !== undefined ? ` min="${o.minimum}"` : "";
        const max = o.maximum !== undefined ? ` max="${o.maximum}"` : "";
        const type = o.type === "int" ? "number" : "text";
        input = `<input id="${id}" type="${type}"${min}${max} data-option="${esc(o.name)}" data-type="${esc(
          o.type,
        )}" value="${esc(value)}" aria-describedby="${id}-help">`;
      }
      return `<div class="option"><label for="${id}">${esc(optionName(o.name))}</label>${input}${help}</div>`;
    })
    .join("");
}

/** The bot levels that play the chosen game with the chosen number of players. */
function botsHere() {
  return state.bots.filter((b) => levelPlays(b, state.game, $("#players").value, $("#variant").value));
}

function seatOptions(selected) {
  const bots = botsHere()
    .map(
      (b) =>
        `<option value="bot:${esc(b.spec)}"${selected === `bot:${b.spec}` ? " selected" : ""}>${esc(_("Bot · {level}", { level: levelLabel(b) }))}</option>`,
    )
    .join("");
  const person = (value, text) => `<option value="${value}"${selected === value ? " selected" : ""}>${text}</option>`;
  return `${person("open", esc(_("A person (invite link)")))}${person("anyone", esc(_("A person (open to anyone)")))}${bots}`;
}

function renderSeats() {
  const n = Number($("#players").value);
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

function readOptions() {
  const defaults = effectiveDefaults();
  const out = {};
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#options [data-option]"))) {
    const name = el.dataset.option;
    let value;
    if (el.dataset.type === "bool") value = el.checked;
    else if (el.dataset.type === "int") value = Number(el.value);
    else value = el.value;
    if (value !== defaults[name]) out[name] = value;
  }
  return out;
}

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
  const body = {
    game: state.game,
    players: Number($("#players").value),
    variant: $("#variant").value,
    options: readOptions(),
    seats,
  };
  const seed = $("#seed").value.trim();
  if (seed !== "" && !(/^[0-9]{1,39}$/.test(seed) && BigInt(seed) <= SEED_MAX)) {
    const field = $("#seed");
    field.closest("details").open = true;
    fieldError(field, _("A seed is a whole number from 0 to {most}.", { most: String(SEED_MAX) }));
    field.focus();
    return;
  }
  if (seed !== "") body.seed = seed; // decimal text: a 128-bit seed is no JS number
  if (state.games[state.game].memory_aids && $("#memory-aids").checked) body.memory_aids = true;
  body.forced_moves = $("#forced-moves").checked; // on unless unticked (the API's default is off)
  if ($("#rated")?.checked) body.rated = true; // shown when signed in (account.js)
  Object.assign(body, timerChoice());
  const button = $("#create-btn");
  clearFieldError(button);
  button.disabled = true;
  try {
    const answer = await api.create(body);
    showCreated(answer);
    rememberSettings(body);
    loadTables();
  } catch (err) {
    const text = _("The table could not be created: {reason}", { reason: err.message });
    const control = controlOf(err, button);
    if (control.closest("details")) control.closest("details").open = true;
    fieldError(control, text);
    if (control !== button) fieldError(button, text);
  } finally {
    button.disabled = false;
  }
}

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
  box.querySelector("button, a")?.focus();
}

async function take(id, seat, button) {
  const name = playerName(button);
  if (name === null) return;
  if (button) button.disabled = true;
  try {
    const link = loadInvites(id)[seat];
    const answer = await api.join(id, seat, name, link ? inviteOf(link) : null);
    saveToken(id, answer.token, answer.seat);
    location.href = tableUrl(id, answer.seat);
  } catch (err) {
    if (button) fieldError(button, err.message);
    else fieldError($("#player-name"), err.message);
    if (button) button.disabled = false;
    loadTables();
  }
}

// ---------------------------------------------------------------- the table list

function describeTable(t) {
  const variant = t.variant && t.variant !== "standard" ? ` · ${variantName(t.variant)}` : "";
  const seats = t.seats
    .map((s) => {
      if (s.kind === "open" && !s.anyone && !loadInvites(t.id)[s.seat]) {
        return `<span class="muted">${esc(_("seat {number}: invite only", { number: s.seat + 1 }))}</span>`;
      }
      if (s.kind === "open") {
        return t.status === "waiting"
          ? `<button type="button" class="secondary small" data-take="${s.seat}" data-table="${esc(t.id)}">${esc(_("Join seat {number}", { number: s.seat + 1 }))}</button>`
          : `<span class="muted">${esc(_("seat {number} open", { number: s.seat + 1 }))}</span>`;
      }
      return `<span class="seat-chip ${s.kind}">${esc(s.name || seatLabel(s.seat))}</span>`;
    })
    .join(" ");
  const mine = loadToken(t.id)
    ? ` <a class="button small" href="${tableUrl(t.id)}">${esc(_("Back to my seat"))}</a>`
    : "";
  const watch =
    t.status !== "waiting"
      ? ` <a class="small" href="${tableUrl(t.id)}">${esc(t.status === "finished" ? _("See the result") : _("Watch"))}</a>`
      : "";
  const record =
    t.status === "finished"
      ? ` · <a class="small" href="/replay/${esc(t.id)}">${esc(_("replay"))}</a>` +
        ` · <a class="small" href="/api/tables/${esc(t.id)}/record">${esc(_("record"))}</a>`
      : "";
  const when = t.created ? new Date(t.created).toLocaleString(lang === "pseudo" ? "en" : lang) : "";
  const result = t.status === "finished" ? resultLine(t) : "";
  return (
    `<li class="table-item"><div class="table-head"><strong>${esc(t.title)}</strong>${esc(variant)}${ratedHtml(t)}` +
    ` · ${esc(ngettext("{n} player", "{n} players", t.players))} <span class="muted">${esc(when)}</span></div>` +
    `<div class="table-seats">${seats}${mine}${watch}${record}</div>${result}</li>`
  );
}

/** A finished table's result in one line: the loser, or the winners and the scores. */
function resultLine(t) {
  const o = t.outcome;
  if (!o) return "";
  const name = (seat) => t.seats[seat]?.name || seatLabel(seat);
  let text;
  if (o.abandoned) text = _("Abandoned: no result");
  else if (Array.isArray(o.scores)) {
    const winners = (o.winners || []).map(name);
    const scores = o.scores.map((score, seat) => `${name(seat)} ${score}`).join(", ");
    text = winners.length
      ? ngettext("{names} won · {scores}", "{names} won · {scores}", winners.length, {
          names: andList(winners),
          scores,
        })
      : _("Nobody won · {scores}", { scores });
  } else if (o.loser !== undefined && o.loser !== null) text = _("{name} lost", { name: name(o.loser) });
  else return "";
  return `<div class="result-line" data-result="${esc(t.id)}">${esc(text)}</div>`;
}

async function loadTables() {
  const list = $("#tables");
  try {
    const answer = await api.tables($("#table-filter").value);
    list.innerHTML = answer.tables.length
      ? answer.tables.map(describeTable).join("")
      : `<li class="muted">${esc(_("No tables here yet — create one above."))}</li>`;
  } catch (err) {
    list.innerHTML = `<li class="muted">${esc(_("The tables could not be loaded: {reason}", { reason: err.message }))}</li>`;
  }
}

// ---------------------------------------------------------------- start

document.addEventListener("click", (ev) => {
  const target = /** @type {Element} */ (ev.target).closest("button");
  if (!target) return;
  if (target.dataset.take !== undefined) {
    take(target.dataset.table, Number(target.dataset.take), target);
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
  const name = $("#player-name");
  if (!name.value.trim()) name.value = loadName(); // keep a name typed while the page loaded
  name.addEventListener("change", () => name.value.trim() && saveName(name.value.trim()));
  $("#create-form").addEventListener("submit", create);
  $("#players").addEventListener("change", renderSeats);
  $("#variant").addEventListener("change", () => {
    renderOptions();
    renderSeats(); // a level may play only some variants (Learned)
  });
  $("#table-filter").addEventListener("change", loadTables);
  try {
    const answer = await api.games();
    state.games = answer.games;
    renderTitles();
    state.bots = answer.bots || [];
    $("#learned-help").hidden = !state.bots.some((b) => b.spec === "learned"); // where the server offers it
    renderGames();
    renderQuickPlay($("#quick-play"), state.games, state.bots, $("#player-name"));
  } catch (err) {
    $("#game-choice").innerHTML =
      `<legend>${esc(_("Game"))}</legend>` +
      `<p>${esc(_("The games could not be loaded: {reason}", { reason: err.message }))}</p>`;
  }
  loadTables();
  setInterval(() => {
    if (document.visibilityState === "visible") loadTables();
  }, 15000);
}

start();
