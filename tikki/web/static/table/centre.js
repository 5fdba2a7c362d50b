// @ts-check
// The middle of the table: the game's own centre (its renderer's), the trick just won
// beside it (below it on a phone: the hand stays in view), the latest events and the last
// trick to review; the trick slots not drawn before animate in.
import { $ } from "../dom.js";
import { doneTrickHtml, reviewHtml } from "../render/trick.js";
import { dueTrick, faceDownAt, recentEvents } from "../store.js";

/** @typedef {import("../store.js").StateMessage} StateMessage */
/** @typedef {import("../renderers.js").Ctx} Ctx */
/** @typedef {import("../renderers.js").Renderer} Renderer */

/** Finished tricks drawn: key -> when first drawn. */
const doneSeen = new Map();
/** @type {ReturnType<typeof setTimeout> | undefined} */
let doneTimer;
/** The trick slots drawn last time, to animate only the new ones. */
let seenSlots = new Set();

/**
 * Draw the centre of the table.
 * @param {StateMessage} m the state message with the table's view
 * @param {Renderer} R the game's renderer
 * @param {Ctx} ctx
 * @param {boolean} reviewOpen whether the last trick's review is unfolded
 * @param {() => void} redraw draws the page again (when a finished trick's time is up)
 */
export function renderCentre(m, R, ctx, reviewOpen, redraw) {
  const view = m.view;
  const recent = recentEvents(m, ctx.names);
  const box = $("#centre");
  box.innerHTML =
    `<div class="centre-row"><div class="centre-main">${R.centre(view, ctx)}</div>${doneTrick(m, ctx, redraw)}</div>` +
    (recent.length ? `<p class="event-line">${recent.map((l) => `<span class="event">${l}</span>`).join(" ")}</p>` : "") +
    reviewHtml(view, ctx.names, reviewOpen);
  markArrivals(box);
}

/**
 * The finished trick to show now (store.js's dueTrick), drawn again when its time is up.
 * @param {StateMessage} m
 * @param {Ctx} ctx
 * @param {() => void} redraw
 * @returns {string} HTML
 */
function doneTrick(m, ctx, redraw) {
  const due = dueTrick(m, doneSeen, Date.now());
  clearTimeout(doneTimer);
  if (!due) return "";
  const [done, left] = due;
  if (left > 0) doneTimer = setTimeout(redraw, left + 20);
  // table memory turns a won trick face down, but only after it was face up for its
  // hold, even when its winner leads the next trick at once
  return doneTrickHtml(done, left <= 0 && faceDownAt(m.view, done.index), ctx.names);
}

/**
 * Marks the trick slots not drawn before, so that they (alone) animate in.
 * @param {HTMLElement} box
 */
function markArrivals(box) {
  const seen = new Set();
  for (const slot of box.querySelectorAll(".trick .slot")) {
    const row = slot.querySelector(".card-row");
    const key = `${slot.closest(".trick-done, .last-trick") ? "done" : "live"}:${row ? row.getAttribute("aria-label") : ""}`;
    seen.add(key);
    if (!seenSlots.has(key)) slot.classList.add("arrive");
  }
  seenSlots = seen;
}
