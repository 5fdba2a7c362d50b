// @ts-check
// The seat's hand at the table: its cards as buttons (what each does now, the selection,
// the hint), kept on one row, and the fanned hand of a phone, where the card under the
// finger is lifted and a tap picks it. A swipe over the hand never plays a card.
import { esc } from "../api.js";
import { cardName, cardSVG, sortCards } from "../cards.js";
import { $ } from "../dom.js";
import { _ } from "../i18n.js";
import { classify, extensions, parseMove } from "../moves.js";
import { myTurn, selectsCards } from "../store.js";
import { keys, rove, unavailable } from "./keys.js";

/** @typedef {import("../store.js").StateMessage} StateMessage */
/** @typedef {import("../store.js").TableState} TableState */
/** @typedef {import("../renderers.js").Ctx} Ctx */

/**
 * Draw the hand of the seat (hidden for a watcher, and at the end once it is empty).
 * @param {StateMessage} m the full state message
 * @param {Ctx} ctx
 * @param {TableState} store the selection and the hint
 */
export function renderHand(m, ctx, store) {
  const view = m.view;
  const box = $("#hand");
  const section = $("#you");
  const over = m.status === "finished" || view.phase === "over";
  if (m.seat === null || m.seat === undefined || (over && !(view.hand || []).length)) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const hand = sortCards(view.hand || []);
  const items = handItems(hand, ctx.legal, store, myTurn(m), selectsCards(m));
  // Unchanged (a re-render for the finished trick's timer): keep the buttons, so that a
  // tap in progress is not lost on replaced elements.
  setHtml(box, items.join("") || `<li class="muted empty-hand">${esc(_("No cards in your hand."))}</li>`);
  rove(box, keys.index);
  box.dataset.count = String(hand.length);
  fitHand();
  $("#hand-title").textContent = _("Your hand · {n}", { n: hand.length });
}

/**
 * The hand's cards as list items of buttons.
 * @param {string[]} hand the sorted hand
 * @param {string[]} legal the moves to offer
 * @param {TableState} store
 * @param {boolean} mine whether it is this seat's turn
 * @param {boolean} selecting whether every click selects (a phase of several-card plays)
 * @returns {string[]} HTML, one item a card
 */
function handItems(hand, legal, store, mine, selecting) {
  const { single, multi } = classify(legal);
  const inMulti = new Set(multi.flatMap(([cards]) => cards));
  const ext = store.selected.length ? extensions(store.selected, legal) : null;
  const hintCards = store.hint ? parseMove(store.hint.move).cards : [];
  const selectedLeft = [...store.selected];
  return hand.map((card) => {
    const playable = single.has(card) || inMulti.has(card);
    let selected = false;
    const i = selectedLeft.indexOf(card);
    if (i >= 0) {
      selected = true;
      selectedLeft.splice(i, 1);
    }
    const classes = ["card", "hand-card"];
    if (mine && playable) classes.push("legal");
    if (mine && !playable) classes.push("dim");
    if (selected) classes.push("selected");
    if (ext && !selected && !ext.has(card)) classes.push("off");
    if (hintCards.includes(card)) classes.push("hinted");
    const title = selecting && mine && playable
      ? _("select {card}", { card: cardName(card) })
      : cardTitle(card, single.get(card), playable, mine);
    const pressed = (inMulti.has(card) || (selecting && playable)) && mine ? ` aria-pressed="${selected}"` : "";
    return (
      `<li><button type="button" class="${classes.join(" ")}" data-card="${esc(card)}" aria-label="${esc(
        cardName(card),
      )}" title="${esc(title)}"${pressed}${mine && playable ? "" : ' aria-disabled="true"'}>${cardSVG(card)}</button></li>`
    );
  });
}

/**
 * A hand card's tooltip: what a click on it does now.
 * @param {string} card
 * @param {string | undefined} what the move the card alone makes, if any
 * @param {boolean} playable whether it is in some legal move
 * @param {boolean} mine whether it is this seat's turn
 */
function cardTitle(card, what, playable, mine) {
  const verb = what ? parseMove(what).verb : "play";
  if (!mine) return cardName(card);
  if (verb === "slough") return _("slough {card}", { card: cardName(card) });
  if (verb === "discard") return _("set {card} aside", { card: cardName(card) });
  return playable
    ? _("play {card}", { card: cardName(card) })
    : _("{card} (not playable now)", { card: cardName(card) });
}

/** @type {WeakMap<Element, string>} */
const drawn = new WeakMap();

/**
 * Set an element's HTML unless it is what was set last (elements under a finger stay).
 * @param {Element} el
 * @param {string} html
 */
export function setHtml(el, html) {
  if (drawn.get(el) === html) return;
  drawn.set(el, html);
  el.innerHTML = html;
}

/** The least width of a hand card left showing (px) before the hand fans (MIN_STRIP). */
const MIN_STRIP = 24;

/** The hand's items that hold a card. */
function cardItems() {
  return [...$("#hand").children].filter((li) => li.querySelector(".card"));
}

/** Keep the hand on one row: overlap the cards just enough to fit the hand's width, from
 * the real widths (each card after the first is moved left by the same amount). When less
 * than MIN_STRIP of a card would show, the hand fans: the card under the finger is lifted
 * whole, a tap picks it, and a finger moved along the fan leaves the card it stops on lifted,
 * for a tap. */
export function fitHand() {
  const box = $("#hand");
  const items = cardItems();
  const n = items.length;
  box.style.removeProperty("--hand-m");
  box.classList.remove("fan");
  if (n < 2) return;
  const width = box.clientWidth;
  const w = /** @type {Element} */ (items[0].querySelector(".card")).getBoundingClientRect().width;
  const m = Math.min(6, (width - n * w) / (n - 1));
  box.style.setProperty("--hand-m", `${m.toFixed(2)}px`);
  box.classList.toggle("fan", w + m < MIN_STRIP);
}

// ---------------------------------------------------------------- the fanned hand (touch)

/**
 * The hand card whose showing strip holds the x coordinate, or null.
 * @param {number} x
 * @returns {HTMLElement | null}
 */
function cardAtX(x) {
  const items = cardItems();
  /** @type {HTMLElement | null} */
  let found = null;
  for (const li of items) {
    const r = li.getBoundingClientRect();
    if (x >= r.left) found = li.querySelector(".card");
  }
  if (found) {
    const last = items[items.length - 1].getBoundingClientRect();
    if (x > last.right) found = null;
  }
  return found;
}

/** How far (px) a finger may move and still tap: beyond it the touch is a swipe (a scroll,
 * a look along the fan), and a swipe never plays a card. */
const SLOP = 10;

/**
 * The touch on the hand now: where it landed, whether it has become a swipe, and on the
 * fanned hand the lifted card.
 * @type {{pointer: number | null, x: number, y: number, swiped: boolean, fanned: boolean,
 *   card: HTMLElement | null, picked: boolean, pick: (card: string) => void}}
 */
const fan = { pointer: null, x: 0, y: 0, swiped: false, fanned: false, card: null, picked: false, pick: () => {} };

/**
 * What a tap on a card of the fanned hand does (the page's click on a card).
 * @param {(card: string) => void} pick
 */
export function onFanPick(pick) {
  fan.pick = pick;
}

/** Whether the touch that ends in the current click was already dealt with here: a tap
 * on the fanned hand that picked its card, or a swipe, which plays nothing. */
export const fanPicked = () => fan.picked || fan.swiped;

/** @param {HTMLElement | null} card */
function lift(card) {
  if (fan.card === card) return;
  if (fan.card) fan.card.classList.remove("under-finger");
  fan.card = card;
  if (card) card.classList.add("under-finger");
}

document.addEventListener("pointerdown", (ev) => {
  fan.picked = false;
  fan.swiped = false;
  const at = /** @type {Element} */ (ev.target);
  const hand = at.closest && at.closest("#hand");
  if (!hand || ev.pointerType === "mouse") {
    lift(null);
    return;
  }
  fan.pointer = ev.pointerId;
  fan.x = ev.clientX;
  fan.y = ev.clientY;
  fan.fanned = hand.classList.contains("fan");
  if (!fan.fanned) return;
  // a card left lifted by a look along the fan is whole: a tap on it is on it
  const onLifted = fan.card && fan.card.isConnected && at.closest(".hand-card") === fan.card;
  lift(onLifted ? fan.card : cardAtX(ev.clientX));
});
document.addEventListener("pointermove", (ev) => {
  if (ev.pointerId !== fan.pointer) return;
  const dx = ev.clientX - fan.x;
  const dy = ev.clientY - fan.y;
  if (Math.hypot(dx, dy) > SLOP) fan.swiped = true;
  if (!fan.fanned) return;
  if (fan.swiped && Math.abs(dy) > Math.abs(dx)) {
    // up or down: a scroll, not a look along the fan
    fan.pointer = null;
    lift(null);
  } else if (fan.swiped) lift(cardAtX(ev.clientX));
});
document.addEventListener("pointerup", (ev) => {
  if (ev.pointerId !== fan.pointer) return;
  fan.pointer = null;
  if (!fan.fanned) return;
  const card = fan.card;
  // after a look along the fan the card found stays lifted, whole: a tap on it plays it
  if (fan.swiped) return;
  lift(null);
  if (card && !unavailable(card)) {
    fan.picked = true; // the click that follows this touch is this same pick
    fan.pick(card.dataset.card ?? "");
  }
});
// a key's click (Enter on a card) follows no touch
document.addEventListener(
  "keydown",
  () => {
    fan.picked = false;
    fan.swiped = false;
  },
  true,
);
document.addEventListener("pointercancel", (ev) => {
  if (ev.pointerId !== fan.pointer) return;
  fan.pointer = null;
  fan.swiped = true; // the browser took the touch (a scroll): no click of it plays
  lift(null);
});

/** @type {ReturnType<typeof setTimeout> | undefined} */
let resizeTimer;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(fitHand, 100);
});
