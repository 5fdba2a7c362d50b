// @ts-check
// Keyboard play at the table: the hand and the move buttons are each one tab stop (a
// roving tabindex); the arrow keys, Home and End move within them, Enter or Space plays.
// A card that cannot be played now stays focusable (aria-disabled), so the focus stays in
// the hand after a move, at the same place, until the player moves it away.
import { $ } from "../dom.js";

/** Where the keyboard is: in the hand or the move buttons, and the focused index of each. */
export const keys = { inPlay: false, index: 0, action: 0 };

/**
 * Whether a button is shown but not usable now (disabled or aria-disabled).
 * @param {HTMLElement} el
 */
export const unavailable = (el) =>
  /** @type {HTMLButtonElement} */ (el).disabled || el.getAttribute("aria-disabled") === "true";

/**
 * The buttons of a roving group that take the focus (every card; usable move buttons).
 * @param {Element} box `#hand` or `#actions`
 * @returns {HTMLButtonElement[]}
 */
function groupItems(box) {
  const buttons = [...box.querySelectorAll("button")];
  return box.id === "hand" ? buttons : buttons.filter((b) => !b.disabled);
}

/**
 * Give the `index`-th item of a group (clamped) tabindex 0, the others -1.
 * @param {Element} box `#hand` or `#actions`
 * @param {number} index
 * @returns {HTMLButtonElement | null} the item with tabindex 0
 */
export function rove(box, index) {
  const items = groupItems(box);
  const at = Math.max(0, Math.min(items.length - 1, index));
  items.forEach((b, i) => (b.tabIndex = i === at ? 0 : -1));
  return items[at] ?? null;
}

/**
 * The hand or move-button group an event's target is in, or null.
 * @param {Event} ev
 * @returns {[HTMLElement, Element | null]} the target and its group
 */
function groupOf(ev) {
  const target = /** @type {HTMLElement} */ (ev.target);
  return [target, target.closest ? target.closest("#hand, #actions") : null];
}

document.addEventListener("focusin", (ev) => {
  const [target, group] = groupOf(ev);
  keys.inPlay = Boolean(group);
  if (!group) return;
  const i = groupItems(group).indexOf(/** @type {HTMLButtonElement} */ (target.closest("button")));
  if (i < 0) return;
  if (group.id === "hand") keys.index = i;
  else keys.action = i;
  rove(group, i);
});

/** @type {Record<string, number>} */
const STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

document.addEventListener("keydown", (ev) => {
  const [target, group] = groupOf(ev);
  if (!group || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const items = groupItems(group);
  const i = items.indexOf(/** @type {HTMLButtonElement} */ (target.closest("button")));
  const step = STEPS[ev.key];
  const to = ev.key === "Home" ? 0 : ev.key === "End" ? items.length - 1 : step === undefined ? null : i + step;
  if (i < 0 || to === null) return;
  ev.preventDefault();
  const next = rove(group, to);
  if (next) next.focus();
});

/**
 * A selector for the focused element, to find it again after a render (or null).
 * @returns {string | null}
 */
export function focusKey() {
  const el = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!el || el === document.body) return null;
  if (el.dataset && el.dataset.card) return `[data-card="${el.dataset.card}"]`;
  if (el.id) return `#${el.id}`;
  if (el.dataset && el.dataset.move) return `button[data-move="${el.dataset.move}"]`;
  return null;
}

/**
 * Put the focus back where it was before a render (`key`: focusKey()'s answer then). With
 * nothing to take it (the hand empty after its last card, no usable button while others
 * play), the focus stays on the hand itself, never the page's body, and goes to a card
 * again as soon as there is one.
 * @param {string | null} key
 */
export function restoreFocus(key) {
  const hand = $("#hand");
  const active = document.activeElement;
  const waiting = active === hand; // kept on the hand while it had nothing to focus
  if (active && active !== document.body && !waiting) return;
  const el = /** @type {HTMLButtonElement | null} */ (key && !waiting ? document.querySelector(key) : null);
  if (key && el && !el.disabled && !(key.startsWith("[data-card") && !el.closest("#hand"))) {
    el.focus();
    return;
  }
  if (!keys.inPlay && !waiting) return;
  // the focused card or button is gone (played): stay in the hand, at the same place;
  // with no card left in it, on the move buttons; with neither, on the hand
  const next = rove(hand, keys.index) ?? rove($("#actions"), 0);
  if (next) next.focus();
  else if (!waiting) hand.focus();
}

/** Give the hand's current card the focus (after a move made with a button; "Skip to your
 * hand").
 * @returns {boolean} whether there was a card to focus */
export function focusHand() {
  const card = rove($("#hand"), keys.index);
  if (card) card.focus();
  return Boolean(card);
}
