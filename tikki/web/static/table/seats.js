// @ts-check
// The seats around the table: each one's name, who is to play, what kind of player it is
// (bot, open, you, online, away), whether an account or a guest holds it, the game's
// badges and figures for it.
import { esc } from "../api.js";
import { $ } from "../dom.js";
import { _ } from "../i18n.js";

/** @typedef {import("../store.js").StateMessage} StateMessage */
/** @typedef {import("../renderers.js").Ctx} Ctx */
/** @typedef {import("../renderers.js").Renderer} Renderer */

/** The seat kinds shown by each name (the key is also the CSS class).
 * @type {Record<string, string>} */
const KINDS = { bot: _("bot"), open: _("open"), you: _("you"), online: _("online"), away: _("away") };

/** The marks of who holds a person's seat (its `holder`): the word and what it means.
 * @type {Record<string, [string, string]>} */
const HOLDERS = {
  account: [_("account"), _("Signed in: this name is an account's")],
  guest: [_("guest"), _("A guest: this name belongs to no account")],
};

/** The renderers' badges by their key (the first word is the CSS class).
 * @type {Record<string, string>} */
const BADGES = {
  dealer: _("dealer"),
  winner: _("winner"),
  loser: _("loser"),
  "set-aside card": _("set-aside card"),
};

/**
 * Draw the seats, this seat's first.
 * @param {StateMessage} m the state message with the table's view
 * @param {Renderer} R the game's renderer
 * @param {Ctx} ctx
 */
export function renderSeats(m, R, ctx) {
  const n = m.table.players;
  const start = m.seat ?? 0;
  const boxes = [];
  for (let k = 0; k < n; k++) boxes.push(seatHtml(m, R, ctx, (start + k) % n));
  $("#seats").innerHTML = boxes.join("");
  markStrips();
  const acting = m.status === "playing" ? m.view.to_act ?? null : null;
  if (acting !== shownActing) showSeat(acting);
  shownActing = acting;
}

/** The seat to act that the seats' row last scrolled to (the reader may scroll it
 * elsewhere until another seat acts). @type {number | null} */
let shownActing = null;

/**
 * Scroll the seats' row (on a phone a strip narrower than its seats) so that the seat
 * to act is in view; the page itself does not scroll.
 * @param {number | null} seat
 */
function showSeat(seat) {
  if (seat === null) return;
  const row = $("#seats");
  const tile = row.querySelector(`.seat[data-seat="${seat}"]`);
  if (!tile) return;
  const box = tile.getBoundingClientRect();
  const strip = row.getBoundingClientRect();
  if (box.right > strip.right) row.scrollLeft += Math.min(box.right - strip.right, box.left - strip.left);
  else if (box.left < strip.left) row.scrollLeft -= strip.left - box.left;
}

/** The strips of public cards in the seat tiles (they scroll sideways when too long). */
const STRIPS = "#seats .public-hand";

/**
 * Say on a sideways strip where it has more than it shows: `data-more` is "right",
 * "left", "left right" or absent (the styles fade that edge and show a "›").
 * @param {HTMLElement} strip
 */
function markStrip(strip) {
  const hidden = strip.scrollWidth - strip.clientWidth;
  const more = [];
  if (hidden > 1 && strip.scrollLeft > 1) more.push("left");
  if (hidden > 1 && strip.scrollLeft < hidden - 1) more.push("right");
  if (more.length) strip.dataset.more = more.join(" ");
  else delete strip.dataset.more;
}

/** Mark every seat tile's strip of public cards (after a render or a resize). */
export function markStrips() {
  for (const strip of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(STRIPS))) markStrip(strip);
}

// a strip scrolled by a finger or the wheel: its marks follow (scroll does not bubble)
document.addEventListener(
  "scroll",
  (ev) => {
    const el = /** @type {HTMLElement} */ (ev.target);
    if (el instanceof HTMLElement && el.matches(STRIPS)) markStrip(el);
  },
  { capture: true, passive: true },
);
window.addEventListener("resize", markStrips);

/**
 * One seat's box.
 * @param {StateMessage} m
 * @param {Renderer} R
 * @param {Ctx} ctx
 * @param {number} s the seat
 * @returns {string} HTML
 */
function seatHtml(m, R, ctx, s) {
  const view = m.view;
  const seat = m.table.seats[s];
  const acting = m.status === "playing" && view.to_act === s;
  const kind =
    seat.kind === "bot"
      ? "bot"
      : seat.kind === "open"
        ? "open"
        : s === m.seat
          ? "you"
          : seat.connected
            ? "online"
            : "away";
  const stats = R.seatStats(view, s)
    .map(([label, value]) => `<div><dt>${esc(label)}</dt><dd>${esc(value)}</dd></div>`)
    .join("");
  const badges = R.seatBadges(view, s)
    .map((b) => {
      const [key, text] = Array.isArray(b) ? b : [b.split(" ")[0], BADGES[b] ?? b];
      return `<span class="badge badge-${esc(key)}">${esc(text)}</span>`;
    })
    .join("");
  const held = seat.kind === "human" ? HOLDERS[seat.holder ?? ""] : undefined;
  const holder = held
    ? `<span class="holder holder-${esc(seat.holder ?? "")}" title="${esc(held[1])}">${esc(held[0])}</span>`
    : "";
  const dot = acting
    ? `<span class="turn-dot" aria-hidden="true">▶</span><span class="visually-hidden">${esc(_("To play:"))} </span> `
    : "";
  return (
    `<li class="seat${acting ? " acting" : ""}${s === m.seat ? " mine" : ""}" data-seat="${s}"` +
    `${acting ? ' aria-current="true"' : ""}>` +
    `<div class="seat-head"><span class="seat-name">${dot}${esc(ctx.plainNames[s])}</span> ` +
    `<span class="kind kind-${kind.replace(" ", "-")}">${esc(KINDS[kind] ?? kind)}</span>${holder}${badges}</div>` +
    `<dl class="stats">${stats}</dl>${R.seatExtra(view, s)}</li>`
  );
}
