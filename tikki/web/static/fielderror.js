// @ts-check
// Errors beside the control that caused them, for the lobby and the
// table page: never a notice at the top of the page that hides itself.

/** An error beside the control that caused it: announced, tied to
 * the control (aria-describedby, aria-invalid), and kept until the player acts there again
 * (edits the field or the form, or presses the button again). */
let made = 0;

/**
 * @param {HTMLElement} control the field or button the error is about
 * @param {string} text the whole error, in the page's language
 */
export function fieldError(control, text) {
  clearFieldError(control);
  const line = document.createElement("p");
  line.className = "field-error";
  line.id = `${control.id || `control-${++made}`}-error`;
  line.setAttribute("role", "alert");
  line.textContent = text;
  const anchor = control.closest("p, .invite, li") ?? control;
  if (anchor.tagName === "LI") anchor.appendChild(line);
  else anchor.insertAdjacentElement("afterend", line);
  control.setAttribute("aria-invalid", "true");
  const help = control.getAttribute("aria-describedby");
  if (help) control.dataset.help = help;
  control.setAttribute("aria-describedby", help ? `${line.id} ${help}` : line.id);
  const form = /** @type {any} */ (control).form ?? control.closest("form");
  const clear = () => clearFieldError(control);
  for (const target of [control, form].filter(Boolean)) {
    target.addEventListener("input", clear, { once: true });
    target.addEventListener("change", clear, { once: true });
  }
}

/** Remove a control's error line, if any.
 * @param {HTMLElement} control
 */
export function clearFieldError(control) {
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ");
  if (ids[0].endsWith("-error")) document.getElementById(ids[0])?.remove();
  control.removeAttribute("aria-invalid");
  if (control.dataset.help) control.setAttribute("aria-describedby", control.dataset.help);
  else control.removeAttribute("aria-describedby");
}
