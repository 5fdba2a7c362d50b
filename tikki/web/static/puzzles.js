// @ts-check
// The puzzles page: /puzzles shows today's puzzle, /puzzles/{id} one puzzle. The position
// is the seat's view (the server sends nothing more before the attempt), drawn by the
// game's own renderer as at the table; a card of the hand (or a move button) is the
// attempt. The answer then says right or wrong, the explanation in the page's language,
// the themes and, for an account's first attempt, the rating change. A puzzle of several
// moves goes a step at a time: a right move that is not the last shows the others' replies
// and the next position (the server sends it only then); a wrong move ends the attempt.
import { esc, seatLabel, YOU } from "./api.js";
import { apiCall, whoAmI } from "./account.js";
import { cardChip, cardName, cardSVG, isCard, sortCards } from "./cards.js";
import { $, $button, showError } from "./dom.js";
import { GAMES } from "./games.js";
import { _, acceptLanguage, languageSwitcher, translatePage } from "./i18n.js";
import { buttonLabel, classify, moveChips, moveForSelection } from "./moves.js";
import { loaded, ready, rendererOf } from "./renderers.js";
import { renderSeats } from "./replay/seats.js";
import { dateText, signed } from "./words.js";

/**
 * @typedef {object} Shown A puzzle before the attempt (GET /api/puzzles/…).
 * @property {string} id
 * @property {string} game
 * @property {number} players
 * @property {string} kind the task: "escape" (the move that cannot lose) or "points"
 * @property {number} seat
 * @property {number} moves how many moves the answer takes
 * @property {number} [step] the step shown now (0: the first; set by the page)
 * @property {any} view the seat's view
 * @property {boolean} rated whether an attempt now is rated
 * @property {string} [date] the daily puzzle's UTC date
 */

/** @typedef {{rating: number, mu: number, sigma: number, attempts: number, provisional: boolean}} Rating */

/** @typedef {[number, string]} Reply another seat's move: its seat and the move */

/**
 * @typedef {object} StepDone A right move that is not the last (POST …/attempt, final false).
 * @property {true} right
 * @property {false} final
 * @property {number} step the step to play now (0: the first)
 * @property {string} explanation why the move just played was right
 * @property {Reply[]} replies the others' moves since
 * @property {any} view the seat's view now
 */

/**
 * @typedef {object} Verdict The attempt's answer (POST /api/puzzles/{id}/attempt).
 * @property {boolean} right
 * @property {boolean} [final]
 * @property {string[]} answer
 * @property {string} explanation
 * @property {{answer: string, replies: Reply[], explanation: string}[]} [steps]
 * @property {{id: string, title: string}[]} themes
 * @property {boolean} rated
 * @property {Rating} puzzle_rating
 * @property {{before: Rating, after: Rating} | null} player
 */

const pz = {
  /** @type {Shown | null} */
  shown: null,
  /** @type {string[]} the moves chosen so far */
  chosen: [],
  /** @type {string[]} cards selected for a move of several cards */
  selected: [],
  done: false,
  /** a move is on its way to the server */
  busy: false,
};

/** The signed-in account (null: a guest). @type {{name: string} | null} */
let account = null;

/** GET or POST to the puzzles' API (account.js: apiCall).
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>} */
const call = (path, body) => apiCall(`/api/puzzles${path}`, body);

/** Show an error (dom.js); empty: hide it. */
const notice = showError;

/** The seats' names as the page says them: "You" for the solver. @param {Shown} p */
function names(p) {
  return Array.from({ length: p.players }, (_x, s) => (s === p.seat ? YOU : seatLabel(s)));
}

/** What the player is asked to find (the puzzle's kind: escape or points).
 * @param {Shown} p
 * @param {string} game the game's title */
function task(p, game) {
  if (p.kind === "points") {
    return _("{game}: your move. Find the move that scores the most points this round, wherever the hidden cards lie.", { game });
  }
  return p.moves > 1
    ? _("{game}: your move. Find the {n} moves that cannot lose, wherever the hidden cards lie.", { game, n: p.moves })
    : _("{game}: your move. Find the move that cannot lose, wherever the hidden cards lie.", { game });
}

/** A rating's change after an attempt in words, each rating as the site shows ratings
 * (one decimal: "went up by 2.9, from 0.0 to 2.9").
 * @param {Rating} before @param {Rating} after @returns {string} */
function ratingChange(before, after) {
  const d = after.rating - before.rating;
  const params = { change: signed(Math.abs(d)), before: signed(before.rating), after: signed(after.rating) };
  if (signed(Math.abs(d)) === signed(0)) return _("Your puzzle rating stays at {after}", params);
  return d > 0
    ? _("Your puzzle rating went up by {change}, from {before} to {after}", params)
    : _("Your puzzle rating went down by {change}, from {before} to {after}", params);
}

/** The mark of a provisional rating, as the profile marks one. @returns {HTMLElement} */
function provisionalMark() {
  const span = document.createElement("span");
  span.className = "provisional";
  span.textContent = _("(provisional)");
  span.title = _("provisional: few puzzles tried yet");
  return span;
}

/** Draw the puzzle's position and the hand to play from. */
function draw() {
  const p = /** @type {Shown} */ (pz.shown);
  if (!loaded()) {
    ready.then(draw);
    return;
  }
  const R = rendererOf(p.game);
  const who = names(p);
  const legal = pz.done ? [] : p.view.legal_moves ?? [];
  const ctx = { names: who, plainNames: who, mySeat: p.seat, legal, outcome: null, memoryAids: false };
  const tableView = R.tableView ? R.tableView(p.view, ctx) : p.view;
  const title = GAMES[p.game]?.title ?? p.game;
  $("#puzzle-title").textContent = p.date ? _("Today's puzzle · {date}", { date: dateText(p.date) }) : _("Puzzle {id}", { id: p.id });
  $("#puzzle-task").textContent = task(p, title);
  $("#step-count").textContent = p.moves > 1 ? _("Move {k} of {n}", { k: Math.min((p.step ?? 0) + 1, p.moves), n: p.moves }) : "";
  $("#puzzle-rated").textContent = p.rated
    ? _("Rated: your first try at this puzzle counts.")
    : account
      ? _("Not rated: only your first try at a puzzle counts.")
      : _("Not rated: sign in to have a puzzle rating.");
  $("#puzzle").classList.toggle("done", pz.done);
  renderSeats(p.view, R, ctx, who, p.players);
  showMySeat();
  $("#centre").innerHTML = R.centre(tableView, ctx);
  drawHand(p, legal);
  document.body.dataset.puzzle = p.id;
  document.body.dataset.step = String(p.step ?? 0);
}

/** Scroll the seats' row (a phone's is narrower than the seats) so that the solver's own
 * seat is in view: it is often the last. */
function showMySeat() {
  const row = $("#seats");
  const mine = row.querySelector(".seat.mine");
  if (!mine) return;
  const past = mine.getBoundingClientRect().right - row.getBoundingClientRect().right;
  if (past > 0) row.scrollLeft += past;
}

/**
 * The hand's cards as buttons, and the moves that are no card as buttons.
 * @param {Shown} p
 * @param {string[]} legal
 */
function drawHand(p, legal) {
  const { single, multi, buttons } = classify(legal);
  const inMulti = new Set(multi.flatMap(([cards]) => cards));
  const hand = sortCards(p.view.hand ?? []);
  $("#hand").innerHTML = hand
    .map((card) => {
      const playable = single.has(card) || inMulti.has(card);
      const cls = ["card", "hand-card", playable ? "legal" : "dim", pz.selected.includes(card) ? "chosen" : ""].join(" ");
      const label = playable ? _("play {card}", { card: cardName(card) }) : cardName(card);
      return `<li><button type="button" class="${cls.trim()}" data-card="${esc(card)}" aria-label="${esc(label)}" title="${esc(
        label,
      )}"${playable ? "" : ' aria-disabled="true"'}>${cardSVG(card)}</button></li>`;
    })
    .join("");
  const parts = buttons.map((m) => `<button type="button" class="move-btn" data-move="${esc(m)}">${buttonLabel(m)}</button>`);
  if (multi.length && pz.selected.length) {
    const move = moveForSelection(pz.selected, legal);
    parts.push(`<button type="button" id="play-selected"${move ? ` data-move="${esc(move)}"` : " disabled"}>${esc(_("Play"))}</button>`);
  }
  $("#actions").innerHTML = parts.join("");
}

/** A card of the hand was clicked: its move, or a card of a move of several.
 * @param {string} card */
function onCard(card) {
  const legal = /** @type {Shown} */ (pz.shown).view.legal_moves ?? [];
  const { single, multi } = classify(legal);
  if (!multi.some(([cards]) => cards.includes(card)) && single.has(card)) return choose(/** @type {string} */ (single.get(card)));
  const i = pz.selected.indexOf(card);
  if (i >= 0) pz.selected.splice(i, 1);
  else pz.selected.push(card);
  const alone = moveForSelection(pz.selected, legal);
  if (alone && !multi.some(([cards]) => cards.length > pz.selected.length && pz.selected.every((c) => cards.includes(c)))) {
    return choose(alone);
  }
  draw();
}

/** The player chose a move: the attempt with every move so far (a puzzle of several
 * moves: a right move that is not the last brings the next position).
 * @param {string} move */
async function choose(move) {
  const p = /** @type {Shown} */ (pz.shown);
  if (pz.done || pz.busy) return;
  pz.chosen.push(move);
  pz.selected = [];
  pz.busy = true;
  const last = pz.chosen.length >= p.moves;
  if (last) pz.done = true;
  draw();
  try {
    const v = await call(`/${encodeURIComponent(p.id)}/attempt`, { moves: pz.chosen });
    if (v.final === false) showStep(/** @type {StepDone} */ (v));
    else {
      pz.done = true;
      $("#puzzle-step").hidden = true;
      draw();
      showVerdict(v);
    }
  } catch (err) {
    pz.done = false;
    pz.chosen.pop();
    notice(/** @type {Error} */ (err).message);
    draw();
  } finally {
    pz.busy = false;
  }
}

/** A right move that is not the last: why it was right, the others' replies one by one,
 * and the next position to play from.
 * @param {StepDone} v */
function showStep(v) {
  const p = /** @type {Shown} */ (pz.shown);
  p.view = v.view;
  p.step = v.step;
  const box = $("#puzzle-step");
  box.hidden = false;
  const right = $("#step-right");
  const played = pz.chosen[v.step - 1] ?? "";
  const why = `<details class="step-why"><summary>${esc(_("Why it was right"))}</summary>${withChips(v.explanation)}</details>`;
  right.innerHTML = `<strong>${esc(_("Right!"))}</strong> ${moveChips(played)}${why}`;
  right.dataset.text = v.explanation;
  const list = $("#step-replies");
  list.innerHTML = v.replies.length
    ? v.replies
        .map(([seat, m]) => `<li>${esc(names(p)[seat] ?? seatLabel(seat))}: ${moveChips(m)}</li>`)
        .join("")
    : "";
  list.setAttribute("aria-label", _("The others' replies"));
  draw();
}

/** @param {Verdict} v */
function showVerdict(v) {
  const box = $("#verdict");
  box.hidden = false;
  box.className = `panel verdict ${v.right ? "right" : "wrong"}`;
  $("#verdict-title").textContent = v.right ? _("Right!") : _("Not this time.");
  $("#verdict-answer").innerHTML = _("The answer: {move}", { move: v.answer.map(moveChips).join(" ") });
  const explanation = $("#verdict-explanation");
  explanation.innerHTML = withChips(v.explanation);
  explanation.dataset.text = v.explanation;
  const steps = v.steps ?? [];
  const list = $("#verdict-steps");
  list.hidden = steps.length < 2;
  explanation.hidden = steps.length >= 2;
  list.innerHTML = steps.length < 2 ? "" : steps.map((s, i) => stepItem(s, i)).join("");
  markHand(v);
  const rating = $("#verdict-rating");
  if (v.player && v.rated) {
    const d = v.player.after.rating - v.player.before.rating;
    rating.replaceChildren(ratingChange(v.player.before, v.player.after));
    if (v.player.after.provisional) rating.append(" ", provisionalMark());
    rating.className = d >= 0 ? "up" : "down";
  } else {
    rating.className = "muted";
    rating.textContent = v.player ? _("Not rated: only your first try at a puzzle counts.") : _("Not rated: sign in to have a puzzle rating.");
  }
  rating.append(" · ", _("This puzzle's rating: {rating}", { rating: signed(v.puzzle_rating.rating) }));
  const themes = $("#verdict-themes");
  themes.replaceChildren();
  if (v.themes.length) themes.append(_("Themes:"), " ");
  for (const t of v.themes) {
    const span = document.createElement("span");
    span.className = "theme";
    span.textContent = t.title;
    themes.append(span);
  }
  $button("#next-puzzle").focus();
}

/** One step of a puzzle of several moves, after the attempt: the others' replies before
 * it, its answer and why.
 * @param {{answer: string, replies: Reply[], explanation: string}} s
 * @param {number} i */
function stepItem(s, i) {
  const p = /** @type {Shown} */ (pz.shown);
  const replies = s.replies.map(([seat, m]) => `${esc(names(p)[seat] ?? seatLabel(seat))}: ${moveChips(m)}`).join(", ");
  const then = replies ? `<span class="muted">${esc(_("Then:"))} ${replies}</span><br>` : "";
  const head = _("Move {k}: {move}", { k: i + 1, move: moveChips(s.answer) });
  return `<li data-step="${i}">${then}<strong>${head}</strong> ${withChips(s.explanation)}</li>`;
}

/** The moves an explanation names in the game's move text (`take`, `trump G`), drawn
 * as the table words them. */
const MOVE_TEXT = /^(?:take|pass|stock|(?:trump|double|drop) \w+)$/;

/** A text with its card codes (`5C`, `TS`) drawn as the table's card chips and its
 * move texts in the player's words (HTML).
 * @param {string} text */
function withChips(text) {
  return text
    .split(/((?:trump|double|drop) \w+|\s+|[,.;:()+])/)
    .map((word) => (isCard(word) ? cardChip(word) : MOVE_TEXT.test(word) ? moveChips(word) : esc(word)))
    .join("");
}

/** Mark the answer's cards in the hand, and a wrong choice's.
 * @param {Verdict} v */
function markHand(v) {
  const at = Math.max(pz.chosen.length - 1, 0);
  const answer = new Set((v.answer[at] ?? "").split("+"));
  const chosen = new Set((pz.chosen[at] ?? "").split("+"));
  for (const button of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand [data-card]"))) {
    const card = button.dataset.card ?? "";
    button.classList.toggle("answer", answer.has(card));
    button.classList.toggle("missed", chosen.has(card) && !answer.has(card));
  }
}

/** Load and show a puzzle. @param {string} path the API's path (/daily, /{id}, /next?…) */
async function open(path) {
  try {
    pz.shown = await call(path);
  } catch (err) {
    notice(/** @type {Error} */ (err).message);
    return;
  }
  pz.chosen = [];
  pz.selected = [];
  pz.done = false;
  pz.busy = false;
  $("#verdict").hidden = true;
  $("#puzzle-step").hidden = true;
  $("#notice").hidden = true;
  const p = /** @type {Shown} */ (pz.shown);
  const url = p.date ? "/puzzles" : `/puzzles/${encodeURIComponent(p.id)}`;
  if (location.pathname !== url) history.replaceState(null, "", url + location.search);
  draw();
}

document.addEventListener("click", (ev) => {
  const target = /** @type {HTMLElement} */ (ev.target);
  const card = /** @type {HTMLElement | null} */ (target.closest("#hand [data-card]"));
  if (card && !pz.done && card.getAttribute("aria-disabled") !== "true") return onCard(card.dataset.card ?? "");
  const move = /** @type {HTMLElement | null} */ (target.closest("#actions [data-move]"));
  if (move && !pz.done) return choose(move.dataset.move ?? "");
  if (target.closest("#next-puzzle") && pz.shown) {
    open(`/next?after=${encodeURIComponent(pz.shown.id)}&game=${encodeURIComponent(pz.shown.game)}`);
  }
});

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
  const match = location.pathname.match(/\/puzzles\/([^/?#]+)/);
  await open(match ? `/${encodeURIComponent(decodeURIComponent(match[1]))}` : "/daily");
}

main();
