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
