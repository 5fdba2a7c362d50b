// @ts-check
// The DOM helper the pages share: their elements by selector.

/**
 * The page's element for a selector. The pages ask for the elements their HTML (or their
 * own drawing) holds; where one may be missing, the caller checks the answer.
 * @param {string} sel a CSS selector
 * @returns {HTMLElement} the first element that matches (null at run time when none does)
 */
export function $(sel) {
  return /** @type {HTMLElement} */ (document.querySelector(sel));
}

/**
 * The page's input (or other form control with a value) for a selector.
 * @param {string} sel
 * @returns {HTMLInputElement}
 */
export const $input = (sel) => /** @type {HTMLInputElement} */ ($(sel));

/**
 * The page's button for a selector.
 * @param {string} sel
 * @returns {HTMLButtonElement}
 */
export const $button = (sel) => /** @type {HTMLButtonElement} */ ($(sel));

/**
 * The page's select menu for a selector.
 * @param {string} sel
 * @returns {HTMLSelectElement}
 */
export const $select = (sel) => /** @type {HTMLSelectElement} */ ($(sel));

/**
 * Show an error in the page's `#notice` box (the puzzles', replay's and tournaments'
 * pages); an empty text hides the box.
 * @param {string} text
 */
export function showError(text) {
  const box = $("#notice");
  box.className = "notice error";
  box.textContent = text;
  box.hidden = !text;
}
