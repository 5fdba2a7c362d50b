// @ts-check
// "Analyse my game" at the end of a game: the server judges every
// decision of your seat from your own view, on its background pool; this panel starts the
// job, shows its progress, then the summary, a chart of your chances move by move, and
// marks the inaccuracies, mistakes and blunders in the move log.  The judge is the Expert
// bot's own search (tikki/analysis.py); the chart marks the labelled moves and nothing else.
import { api, esc } from "./api.js";
import { cardShort, isCard } from "./cards.js";
import { $, $button } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { moveChips } from "./moves.js";
import { percent, signed } from "./words.js";

/**
 * @typedef {import("./replay/said.js").Decision & {value: number, errors: Record<string, number>, error: number}}
 * JudgedDecision a decision as the server answers it: with the position's value
 */

/**
 * @typedef {object} FullAnalysis The analysis of one seat's game (tikki/analysis.py: to_json).
 * @property {number} seat
 * @property {string} kind `not_loser` (a chance) or points
 * @property {number} iterations the judge's search budget a decision
 * @property {Record<string, number>} thresholds the loss that gives each label
 * @property {number} accuracy the share (0–1) of decisions without a label
 * @property {Record<string, number>} counts how many decisions got each label
 * @property {number[]} worst the numbers of the worst decisions
 * @property {JudgedDecision[]} decisions
 */

/**
 * @typedef {object} JobBase An analysis job (POST or GET /api/tables/{id}/analysis/{seat}).
 * @property {string} table
 * @property {number} seat
 * @property {number} done the decisions judged so far
 * @property {number} total
 */

/**
 * @typedef {JobBase & ({status: "running"} | {status: "failed", message?: string} | {status: "done", analysis: FullAnalysis})}
 * AnalysisJob
 */

const POLL_MS = 1000;
/** @type {Record<string, string>} */
const SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** A move as plain text with the log's card names (`9♦`, `red 12`): for tooltips.
 * @param {string} move
 * @returns {string} */
function plainMove(move) {
  return String(move)
    .split(/([ +])/)
    .map((word) => (isCard(word) ? cardShort(word) : word))
    .join("");
}

/** A verdict's name in the page's language.
 * @param {string} label
 * @returns {string} */
function labelName(label) {
  return /** @type {Record<string, string>} */ ({ inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") })[label] ?? label;
}

/** @type {{table: string | null, seat: number | null, timer: ReturnType<typeof setTimeout> | undefined, result: FullAnalysis | null}} */
const state = { table: null, seat: null, timer: undefined, result: null };

/** Show the panel at a finished table for the seated player (called after each render).
 * @param {import("./store.js").StateMessage} m */
export function renderAnalysis(m) {
  const box = $("#analysis");
  if (!box) return;
  const seat = m.seat;
  const show = m.status === "finished" && seat !== null && seat !== undefined;
  box.hidden = !show;
  if (!show) return;
  if (state.table === m.table.id && state.seat === seat) {
    if (state.result) markLog(state.result);
    return;
  }
  state.table = m.table.id;
  state.seat = seat;
  state.result = null;
  box.innerHTML =
    `<h2>${esc(_("Analysis"))}</h2>` +
    `<p class="muted">${esc(_("How good was each of your moves? The server tries every legal move from what you could see, in many possible deals."))}</p>` +
    `<button type="button" id="analyse">${esc(_("Analyse my game"))}</button> <span id="analysis-status" ` +
    `class="muted" role="status"></span><div id="analysis-body"></div>`;
  $("#analyse").addEventListener("click", () => start(m.table.id, seat));
  resume(m.table.id, seat);
}

/** Show at once an analysis of this seat that is running, done or kept by the server
 * (after a reload or a restart too); otherwise the button waits for a click.
 * @param {string} table
 * @param {number} seat
 */
async function resume(table, seat) {
  try {
    const { seats } = /** @type {{seats: number[]}} */ (await api.analysedSeats(table));
    if (seats.includes(seat)) show_(await api.analysis(table, seat));
  } catch {
    // nothing analysed to show: the button stays
  }
}

/**
 * @param {string} table
 * @param {number} seat
 */
async function start(table, seat) {
  $button("#analyse").disabled = true;
  try {
    show_(await api.analyse(table, seat));
  } catch (err) {
    $button("#analyse").disabled = false;
    $("#analysis-status").textContent = /** @type {Error} */ (err).message;
  }
}

/** @param {AnalysisJob} job */
function show_(job) {
  const status = $("#analysis-status");
  if (!status || job.table !== state.table || job.seat !== state.seat) return;
  clearTimeout(state.timer);
  if (job.status === "running") {
    $button("#analyse").disabled = true;
    status.textContent = job.total
      ? _("Judging your decisions: {done} of {total}…", { done: job.done, total: job.total })
      : _("Starting…");
    state.timer = setTimeout(async () => {
      try {
        show_(await api.analysis(job.table, job.seat));
      } catch (err) {
        status.textContent = /** @type {Error} */ (err).message;
      }
    }, POLL_MS);
    return;
  }
  if (job.status === "failed") {
    $button("#analyse").disabled = false;
    status.textContent = job.message || _("The analysis failed.");
    return;
  }
  $("#analyse").remove();
  status.textContent = "";
  state.result = job.analysis;
  $("#analysis-body").innerHTML = summary(job.analysis) + chart(job.analysis);
  markLog(job.analysis);
}

/**
 * @param {FullAnalysis} a
 * @param {number} value
 * @returns {string}
 */
function fmt(a, value) {
  return a.kind === "not_loser" ? percent(Math.round(value * 100)) : signed(value, true);
}

/**
 * @param {FullAnalysis} a
 * @returns {string}
 */
function summary(a) {
  const n = a.decisions.length;
  const c = a.counts;
  const worst = a.decisions
    .filter((d) => a.worst.includes(d.number))
    .sort((x, y) => y.loss - x.loss)
    .map((d) => {
      const params = {
        n: d.number,
        played: `<b>${moveChips(d.played)}</b>`,
        label: esc(labelName(/** @type {string} */ (d.label))), // the worst are labelled
        best: `<b>${moveChips(d.best)}</b>`,
        loss: esc(withError(a, d.loss, d.error)),
      };
      const text = _("Move {n}: you played {played} ({label}); {best} was better by {loss}.", params);
      return `<li>${text}</li>`;
    })
    .join("");
  const counts = [
    ngettext("{n} inaccuracy", "{n} inaccuracies", c.inaccuracy),
    ngettext("{n} mistake", "{n} mistakes", c.mistake),
    ngettext("{n} blunder", "{n} blunders", c.blunder),
  ].join(", ");
  const accuracy = `<b>${esc(_("Accuracy {percent}%", { percent: Math.round(a.accuracy * 100) }))}</b>`;
  const chartText = a.kind === "not_loser"
    ? _("The line is your chance of not being the loser before each of your moves, if play goes on well; a mark is a labelled move, at the chance it left you.")
    : _("The line is the points you could expect from the round in progress before each of your moves (counted at the round's end, not your running total); a mark is a labelled move, at the points it left you.");
  return (
    `<p class="analysis-summary">${ngettext("{accuracy} over {n} decision: {counts}.", "{accuracy} over {n} decisions: {counts}.", n, { accuracy, counts: esc(counts) })}</p>` +
    (worst ? `<ol class="analysis-worst">${worst}</ol>` : `<p>${esc(_("No mistakes found."))}</p>`) +
    `<p class="analysis-rule">${esc(ruleText(a))}</p>` +
    `<p class="muted">${esc(chartText)} ${esc(judgeText(a))}</p>`
  );
}

/** The one sentence that says how a label is decided (the terminal says the same).
 * @param {FullAnalysis} a
 * @returns {string} */
function ruleText(a) {
  const t = a.thresholds;
  const loss = (/** @type {number} */ v) => (a.kind === "not_loser" ? percent(Math.round(v * 100)) : v.toFixed(0));
  return a.kind === "not_loser"
    ? _("A move is labelled when the best move's chance beats it by at least {inaccuracy} (inaccuracy), {mistake} (mistake) or {blunder} (blunder), after taking off the sampling error (±).", { inaccuracy: loss(t.inaccuracy), mistake: loss(t.mistake), blunder: loss(t.blunder) })
    : _("A move is labelled when the best move beats it by at least {inaccuracy} (inaccuracy), {mistake} (mistake) or {blunder} (blunder) points, after taking off the sampling error (±).", { inaccuracy: loss(t.inaccuracy), mistake: loss(t.mistake), blunder: loss(t.blunder) });
}

/** Who judged, at which budget, and the typical sampling error of a value.
 * @param {FullAnalysis} a
 * @returns {string} */
function judgeText(a) {
  const errors = a.decisions.map((d) => d.errors[d.best]).sort((x, y) => x - y);
  const typical = errors.length ? errors[Math.floor(errors.length / 2)] : 0;
  return _("The judge is the Expert bot's own search ({iterations} iterations a decision; the hint uses it too); a value's sampling error is typically ±{error}.", { iterations: a.iterations, error: fmt(a, typical).replace("+", "") });
}

/** A value with its sampling error: `62% ± 3%`, `+1.5 ± 0.4`.
 * @param {FullAnalysis} a
 * @param {number} value
 * @param {number} error
 * @returns {string} */
function withError(a, value, error) {
  return `${fmt(a, value)} ± ${fmt(a, error).replace("+", "")}`;
}

/** An SVG line chart of the value before each decision; a mark at every labelled move
 * (and nothing else), at the value the move played left, joined to the line by its drop.
 * @param {FullAnalysis} a
 * @returns {string} */
function chart(a) {
  const ds = a.decisions;
  if (!ds.length) return "";
  const w = 600, h = 180, pad = 28;
  const last = ds[ds.length - 1].number, first = ds[0].number;
  const values = ds.flatMap((d) => [d.value, d.values[d.played]]);
  let lo = a.kind === "not_loser" ? 0 : Math.min(...values);
  let hi = a.kind === "not_loser" ? 1 : Math.max(...values);
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const x = (/** @type {number} */ n) => pad + ((n - first) / Math.max(1, last - first)) * (w - 2 * pad);
  const y = (/** @type {number} */ v) => h - pad - ((v - lo) / (hi - lo)) * (h - 2 * pad);
  const line = ds.map((d, i) => `${i ? "L" : "M"}${x(d.number).toFixed(1)},${y(d.value).toFixed(1)}`).join("");
  const points = ds
    .map((d) => {
      const cx = x(d.number).toFixed(1);
      let title = _("move {n}: {played} {value}", { n: d.number, played: plainMove(d.played), value: withError(a, d.values[d.played], d.errors[d.played]) });
      let shape;
      if (d.label) {
        title += ` (${labelName(d.label)}) · ` + _("{best} was better by {loss}", { best: plainMove(d.best), loss: withError(a, d.loss, d.error) });
        shape =
          `<line class="drop ${d.label}" x1="${cx}" y1="${y(d.value).toFixed(1)}" x2="${cx}" y2="${y(d.values[d.played]).toFixed(1)}"/>` +
          `<circle class="dot ${d.label}" cx="${cx}" cy="${y(d.values[d.played]).toFixed(1)}" r="5"><title>${esc(title)}</title></circle>`;
      } else {
        // no mark: an invisible target on the line, for the tooltip and the replay link
        shape = `<circle class="hit" cx="${cx}" cy="${y(d.value).toFixed(1)}" r="6"><title>${esc(title)}</title></circle>`;
      }
      // each point opens the replay at that position, with what the analysis said there
      return `<a href="${esc(replayUrl(d.number))}" class="chart-link" aria-label="${esc(title)}">${shape}</a>`;
    })
    .join("");
  return (
    `<svg class="analysis-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(_("Your chances move by move"))}">` +
    `<line class="axis" x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}"/>` +
    `<text x="${pad}" y="${pad - 8}" class="tick">${esc(fmt(a, hi))}</text>` +
    `<text x="${pad}" y="${h - 8}" class="tick">${esc(fmt(a, lo))} · ${esc(_("move {n}", { n: first }))}</text>` +
    `<text x="${w - pad}" y="${h - 8}" class="tick" text-anchor="end">${esc(_("move {n}", { n: last }))}</text>` +
    `<path class="value" d="${line}"/>${points}</svg>`
  );
}

/** The replay of this seat at decision `number`: that move played ("Move N of …"), with
 * what the analysis said of it.
 * @param {number} number */
function replayUrl(number) {
  return `/replay/${encodeURIComponent(String(state.table))}?seat=${state.seat}&at=${number}&analysis=1`;
}

/** Mark the labelled moves in the move log (its items carry their history index).
 * @param {FullAnalysis} a */
function markLog(a) {
  for (const d of a.decisions) {
    if (!d.label) continue;
    const li = document.querySelector(`#log-list li[data-i="${d.number - 1}"]`);
    if (!li || li.querySelector(".verdict")) continue;
    li.classList.add(`verdict-${d.label}`);
    const badge = document.createElement("span");
    badge.className = `verdict ${d.label}`;
    badge.innerHTML =
      ` ${SIGN[d.label]} ${_("{label}: {best} was better by {loss}", { label: esc(labelName(d.label)), best: moveChips(d.best), loss: esc(withError(a, d.loss, d.error)) })} ` +
      `<a class="replay-link" href="${esc(replayUrl(d.number))}">${esc(_("see it in the replay"))}</a>`;
    li.appendChild(badge);
  }
}
