// @ts-check
// The replay page's seats (the game's figures and badges for each) and the hands the
// chosen view shows, face up.
import { esc } from "../api.js";
import { cardName, cardSVG, sortCards } from "../cards.js";
import { $ } from "../dom.js";
import { _ } from "../i18n.js";

/** @typedef {import("../renderers.js").Ctx} Ctx */
/** @typedef {import("../renderers.js").Renderer} Renderer */

/**
 * The seats with the game's figures and badges.
 * @param {any} view
 * @param {Renderer} R
 * @param {Ctx} ctx
 * @param {string[]} names
 * @param {number} n the number of players
 */
export function renderSeats(view, R, ctx, names, n) {
  const items = [];
  for (let s = 0; s < n; s++) {
    const acting = view.to_act === s && view.phase !== "over";
    const stats = R.seatStats(view, s)
      .map(([label, value]) => `<div><dt>${esc(label)}</dt><dd>${esc(value)}</dd></div>`)
      .join("");
    const badges = R.seatBadges(view, s)
      .map((b) => {
        const [key, text] = Array.isArray(b) ? b : [b.split(" ")[0], _(b)];
        return `<span class="badge badge-${esc(key)}">${esc(text)}</span>`;
      })
      .join("");
    items.push(
      `<li class="seat${acting ? " acting" : ""}${s === ctx.mySeat ? " mine" : ""}" data-seat="${s}"${acting ? ' aria-current="true"' : ""}>` +
        `<div class="seat-head"><span class="seat-name">${acting ? '<span class="turn-dot" aria-hidden="true">▶</span> ' : ""}` +
        `${esc(names[s])}</span>${badges}</div><dl class="stats">${stats}</dl>${R.seatExtra(view, s)}</li>`,
    );
  }
  $("#seats").innerHTML = items.join("");
}

/**
 * One hand, face up (HTML).
 * @param {string[] | undefined} cards
 * @param {string} title
 */
function handRow(cards, title) {
  const hand = sortCards(cards || []);
  const items = hand
    .map((c) => `<li><span class="card static hand-card" role="img" aria-label="${esc(cardName(c))}">${cardSVG(c)}</span></li>`)
    .join("");
  return (
    `<div class="replay-hand"><h2 class="hand-title">${esc(title)} · ${hand.length}</h2>` +
    `<ul class="hand">${items || `<li class="muted empty-hand">${esc(_("No cards."))}</li>`}</ul></div>`
  );
}

/**
 * The hands the chosen view shows: every hand, one seat's, or none.
 * @param {any} view
 * @param {number | null} seat the seat followed
 * @param {boolean} all whether every hand is shown
 * @param {string[]} names
 */
export function renderHands(view, seat, all, names) {
  const box = $("#hands");
  if (all && view.hands) {
    box.innerHTML = view.hands.map((/** @type {string[]} */ cards, /** @type {number} */ s) => handRow(cards, _("{name}'s hand", { name: names[s] }))).join("");
  } else if (seat !== null) {
    box.innerHTML = handRow(view.hand, _("{name}'s hand", { name: names[seat] }));
  } else {
    box.innerHTML = `<p class="muted">${esc(_("Spectators see no hand. Choose a player's view above."))}</p>`;
  }
}
