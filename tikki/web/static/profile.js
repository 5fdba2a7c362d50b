// @ts-check
// A player's profile: ratings per game (provisional ones marked), per-game
// statistics, the games with result, opponents, rating change and links to the replay and
// the analysis (filterable by game), all records as one download, and the game's
// leaderboard with the bot levels as reference lines. Every name is put in as text.
import { renderTournamentResults } from "./tournament_results.js";
import { _, acceptLanguage, languageSwitcher, ngettext, translatePage } from "./i18n.js";
import { botSeatName, dateText, levelName, percent, signed, withMinus } from "./words.js";
import { GAMES as DECLARED } from "./games.js";

/**
 * @typedef {object} Rating A rating (tikki/server/ratings.py: rating_json).
 * @property {number} rating
 * @property {number} games rated games
 * @property {boolean} provisional
 */

/** @typedef {{before: number, after: number}} RatingChange */

/**
 * @typedef {object} PlayedGame One of the player's games (GET /api/players/{name}).
 * @property {string} table
 * @property {string} game
 * @property {string} status
 * @property {string | null} created
 * @property {string | null} finished
 * @property {number} seat
 * @property {number | null} place
 * @property {boolean | null} last
 * @property {{seat: number, kind: string, name: string | null, bot: string | null}[]} opponents
 * @property {RatingChange | null} rating_change
 * @property {string} replay its replay's address
 * @property {string} analysis its analysis's address
 * @property {number | null} [accuracy] the analysis's accuracy (0–1), once analysed
 * @property {boolean} [analysed] the analysis is kept: its link shows it at once
 */

/**
 * @typedef {object} Profile A player's profile (GET /api/players/{name}).
 * @property {string} name
 * @property {Record<string, Rating>} ratings by game
 * @property {Record<string, {games: number, first: number, last: number, average_points: number | null}>} statistics
 * by game
 * @property {PlayedGame[]} games
 * @property {{rating: number, attempts: number} | null} [puzzle_rating] the puzzle rating
 */

/** @typedef {{bot: string, label: string, rating: number}} BotLine a bot level's anchored rating */
/** @typedef {{game: string, people: (Rating & {name: string})[], bots: BotLine[]}} Board GET /api/ratings/{game} */

/** Each game's title by its name (GET /api/games). @type {Record<string, string>} */
const GAMES = Object.fromEntries(Object.entries(DECLARED).map(([name, info]) => [name, info.title ?? name]));
/** The game shown when the player has none: the lobby's first. */
const FEATURED = Object.keys(DECLARED).find((name) => DECLARED[name].featured) ?? Object.keys(DECLARED)[0] ?? "";

/** An element with its class and text (text only: never HTML).
 * @param {string} tag
 * @param {string} [text]
 * @param {string} [cls]
 * @returns {HTMLElement} */
function el(tag, text = "", cls = "") {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

/**
 * @param {string} text
 * @param {string} href
 */
function link(text, href) {
  const a = /** @type {HTMLAnchorElement} */ (el("a", text));
  a.href = href;
  return a;
}

/**
 * @param {string[]} head
 * @param {HTMLElement[]} rows
 */
function table(head, rows) {
  const t = el("table");
  const tr = el("tr");
  for (const h of head) tr.append(el("th", h));
  const thead = el("thead");
  thead.append(tr);
  const body = el("tbody");
  for (const row of rows) body.append(row);
  t.append(thead, body);
  return t;
}

/**
 * @param {(Node | string | number | null | undefined)[]} cells (text: never HTML)
 * @param {string} [cls]
 */
function row(cells, cls = "") {
  const tr = el("tr", "", cls);
  for (const c of cells) {
    const td = el("td");
    if (c instanceof Node) td.append(c);
    else td.textContent = String(c ?? "");
    tr.append(td);
  }
  return tr;
}

/** @param {Rating} r */
const ratingText = (r) => signed(r.rating);

/** @param {Rating} r */
function ratingCell(r) {
  const span = el("span", ratingText(r));
  if (r.provisional) {
    span.title = _("provisional: fewer than 10 rated games");
    span.append(" ", el("span", _("(provisional)"), "provisional"));
  }
  return span;
}

/**
 * @param {PlayedGame} g
 * @returns {string}
 */
function opponentNames(g) {
  return g.opponents.map((o) => (o.kind === "bot" ? botSeatName(o.name, o.bot ?? "") : o.name ?? "—")).join(", ");
}

/**
 * @param {PlayedGame} g
 * @returns {string}
 */
function result(g) {
  if (g.status !== "finished") return _("not finished");
  if (g.place === 1) return _("won");
  return g.last ? _("last") : _("place {n}", { n: g.place });
}

/**
 * @param {PlayedGame} g
 * @returns {HTMLElement | string}
 */
function change(g) {
  const c = g.rating_change;
  if (!c) return "";
  const d = c.after - c.before;
  return el("span", `${signed(d, true)} (→ ${signed(c.after)})`, d >= 0 ? "up" : "down");
}

/** The link to a game's analysis, marked ✓ when the analysis is kept (it opens at once).
 * @param {PlayedGame} g
 * @returns {HTMLAnchorElement} */
function analysisLink(g) {
  if (!g.analysed) return link(_("Analysis"), g.analysis);
  const a = link(`${_("Analysis")} ✓`, g.analysis);
  a.classList.add("analysed");
  a.title = _("Analysed: the analysis opens at once");
  return a;
}

/**
 * @param {HTMLElement} host
 * @param {PlayedGame[]} games
 */
function renderGames(host, games) {
  const rows = games.map((g) => {
    const links = el("span");
    if (g.status === "finished") links.append(link(_("Replay"), g.replay), " · ", analysisLink(g));
    const accuracy = g.accuracy == null ? "" : percent(Math.round(g.accuracy * 100));
    return row([GAMES[g.game] ?? g.game, dateText(g.finished || g.created || ""), result(g), opponentNames(g), change(g), accuracy, links]);
  });
  host.replaceChildren(
    rows.length
      ? table([_("Game"), _("Date"), _("Result"), _("Opponents"), _("Rating"), _("Accuracy"), ""], rows)
      : el("p", _("No games yet."), "muted"),
  );
}

/**
 * @param {HTMLElement} host
 * @param {Profile} profile
 */
function renderRatings(host, profile) {
  const rows = [];
  for (const [game, stats] of Object.entries(profile.statistics)) {
    const r = profile.ratings[game];
    rows.push(
      row([
        GAMES[game] ?? game,
        r ? ratingCell(r) : "—",
        stats.games,
        stats.first,
        stats.last,
        stats.average_points == null ? "—" : withMinus(stats.average_points),
      ]),
    );
  }
  host.replaceChildren(
    rows.length
      ? table([_("Game"), _("Rating"), _("Games"), _("Won"), _("Last"), _("Average points")], rows)
      : el("p", _("No finished games yet."), "muted"),
  );
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The rating after each rated game of one game, oldest first, with the bot levels'
 * anchored ratings as dashed lines.
 * @param {HTMLElement} host
 * @param {PlayedGame[]} games
 * @param {BotLine[]} bots */
export function renderChart(host, games, bots) {
  const points = games
    .filter((g) => g.rating_change)
    .map((g) => {
      const c = /** @type {RatingChange} */ (g.rating_change); // the filter kept the rated ones
      return { at: g.finished || g.created || "", value: c.after, start: c.before };
    })
    .sort((a, b) => (a.at < b.at ? -1 : 1));
  if (!points.length) {
    host.replaceChildren(el("p", _("No rated games yet."), "muted"));
    return;
  }
  const values = [points[0].start, ...points.map((p) => p.value), ...bots.map((b) => b.rating)];
  const lo = Math.min(...values) - 1;
  const hi = Math.max(...values) + 1;
  const W = 600, H = 180, L = 110;
  const x = (/** @type {number} */ i) => L + (i * (W - L - 10)) / Math.max(1, points.length);
  const y = (/** @type {number} */ v) => 10 + ((hi - v) * (H - 20)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img" });
  chart.setAttribute("aria-label", _("Rating over time"));
  for (const b of bots) {
    chart.append(svg("line", { x1: L, x2: W - 10, y1: y(b.rating), y2: y(b.rating), class: "bot-ref" }));
    const label = svg("text", { x: 4, y: y(b.rating) + 4, class: "bot-ref-label" });
    label.textContent = `${levelName(b.bot)} ${signed(b.rating)}`;
    chart.append(label);
  }
  const coords = [[x(0), y(points[0].start)], ...points.map((p, i) => [x(i + 1), y(p.value)])];
  chart.append(svg("polyline", { points: coords.map((c) => c.join(",")).join(" "), class: "rating-line" }));
  for (const [cx, cy] of coords.slice(1)) chart.append(svg("circle", { cx, cy, r: 3, class: "rating-dot" }));
  host.replaceChildren(chart);
}

/** The accuracy of each analysed game of one game (the share of decisions without a
 * label, "Analyse my game"), oldest first, on a 0–100% scale.
 * @param {HTMLElement} host
 * @param {PlayedGame[]} games */
export function renderAccuracy(host, games) {
  const points = games
    .filter((g) => g.accuracy != null)
    .map((g) => ({ at: g.finished || g.created || "", value: /** @type {number} */ (g.accuracy) * 100 }))
    .sort((a, b) => (a.at < b.at ? -1 : 1));
  if (!points.length) {
    host.replaceChildren(el("p", _("No analysed games yet: “Analyse my game” at the end of a game adds one."), "muted"));
    return;
  }
  const W = 600, H = 150, L = 50;
  const x = (/** @type {number} */ i) => L + ((i + 0.5) * (W - L - 10)) / points.length;
  const y = (/** @type {number} */ v) => 10 + ((100 - v) * (H - 20)) / 100;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart accuracy-chart", role: "img" });
  chart.setAttribute("aria-label", _("Analysis accuracy over time"));
  for (const level of [0, 50, 100]) {
    chart.append(svg("line", { x1: L, x2: W - 10, y1: y(level), y2: y(level), class: "bot-ref" }));
    const label = svg("text", { x: 4, y: y(level) + 4, class: "bot-ref-label" });
    label.textContent = percent(level);
    chart.append(label);
  }
  const coords = points.map((p, i) => [x(i), y(p.value)]);
  chart.append(svg("polyline", { points: coords.map((c) => c.join(",")).join(" "), class: "rating-line" }));
  coords.forEach(([cx, cy], i) => {
    const dot = svg("circle", { cx, cy, r: 3, class: "rating-dot" });
    const tip = svg("title", {});
    tip.textContent = `${dateText(points[i].at)}: ${percent(Math.round(points[i].value))}`;
    dot.append(tip);
    chart.append(dot);
  });
  host.replaceChildren(chart);
}

/**
 * @param {HTMLElement} host
 * @param {string} game
 * @returns {Promise<Board | undefined>}
 */
async function renderBoard(host, game) {
  const r = await fetch(`/api/ratings/${encodeURIComponent(game)}`, { headers: { "Accept-Language": acceptLanguage() } });
  if (!r.ok) return;
  /** @type {Board} */
  const board = await r.json();
  const lines = [
    ...board.people.map((p) => ({ kind: /** @type {const} */ ("person"), rating: p.rating, p })),
    ...board.bots.map((b) => ({ kind: /** @type {const} */ ("bot"), rating: b.rating, b })),
  ].sort((a, b) => b.rating - a.rating);
  const rows = lines.map((line) =>
    line.kind === "person"
      ? row([link(line.p.name, `/players/${encodeURIComponent(line.p.name)}`), ratingCell(line.p), line.p.games])
      : row([_("Bot: {level}", { level: levelName(line.b.bot) }), signed(line.b.rating), ""], "bot-line"),
  );
  const title = el("h3", GAMES[game] ?? game);
  host.replaceChildren(title, table([_("Player"), _("Rating"), _("Games")], rows));
  return board;
}

async function main() {
  translatePage();
  languageSwitcher(document.querySelector(".topbar"));
  const name = decodeURIComponent(location.pathname.split("/")[2] ?? "");
  const heading = /** @type {HTMLElement} */ (document.getElementById("player-name"));
  heading.textContent = name;
  document.title = `${name} · tikki`;
  const filter = /** @type {HTMLSelectElement} */ (document.getElementById("game-filter"));
  filter.append(new Option(_("All games"), ""));
  for (const [id, title] of Object.entries(GAMES)) filter.append(new Option(title, id));
  const download = /** @type {HTMLAnchorElement} */ (document.getElementById("download"));
  download.href = `/api/players/${encodeURIComponent(name)}/records`;
  const load = async () => {
    const game = filter.value;
    const url = `/api/players/${encodeURIComponent(name)}${game ? `?game=${game}` : ""}`;
    const r = await fetch(url, { headers: { "Accept-Language": acceptLanguage() } });
    const answer = await r.json().catch(() => ({}));
    const box = /** @type {HTMLElement} */ (document.getElementById("notice"));
    if (!r.ok) {
      box.textContent = answer?.detail?.message ?? _("Something went wrong.");
      box.hidden = false;
      return;
    }
    heading.textContent = answer.name;
    renderRatings(/** @type {HTMLElement} */ (document.getElementById("ratings")), answer);
    const puzzles = /** @type {HTMLElement} */ (document.getElementById("puzzle-rating"));
    puzzles.hidden = !answer.puzzle_rating;
    if (answer.puzzle_rating) {
      const { rating, attempts } = answer.puzzle_rating;
      const params = { rating: signed(rating), n: attempts };
      puzzles.textContent = ngettext("Puzzle rating: {rating} ({n} puzzle tried)", "Puzzle rating: {rating} ({n} puzzles tried)", attempts, params);
    }
    renderTournamentResults(document.getElementById("tournaments-section"), document.getElementById("tournament-results"), answer.tournaments);
    renderGames(/** @type {HTMLElement} */ (document.getElementById("games")), answer.games);
    const shown = game || answer.games.find((/** @type {PlayedGame} */ g) => g.rating_change)?.game || answer.games[0]?.game || FEATURED;
    const board = await renderBoard(/** @type {HTMLElement} */ (document.getElementById("board")), shown);
    const ofGame = answer.games.filter((/** @type {PlayedGame} */ g) => g.game === shown);
    renderChart(/** @type {HTMLElement} */ (document.getElementById("chart")), ofGame, board?.bots ?? []);
    renderAccuracy(/** @type {HTMLElement} */ (document.getElementById("accuracy")), ofGame);
  };
  filter.addEventListener("change", load);
  await load();
}

main();
