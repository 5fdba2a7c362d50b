// @ts-check
// The table page's notice bar, its connection badge and its fatal panel.
import { $ } from "../dom.js";
import { _ } from "../i18n.js";

/** @type {ReturnType<typeof setTimeout> | undefined} */
let noticeTimer;

/**
 * Show a message in the notice bar: an error stays until the player acts (a move, or ×);
 * news ("info") goes by itself.
 * @param {string} text
 * @param {"error" | "info"} [kind]
 */
export function notice(text, kind = "error") {
  const box = $("#notice");
  box.className = `notice ${kind}`;
  const span = document.createElement("span");
  span.textContent = text;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "link";
  close.dataset.closeNotice = "";
  close.setAttribute("aria-label", _("Dismiss"));
  close.textContent = "×";
  box.replaceChildren(span, " ", close);
  box.hidden = false;
  clearTimeout(noticeTimer);
  if (kind === "info") noticeTimer = setTimeout(() => (box.hidden = true), 8000);
}

/**
 * The connection badge in the top bar.
 * @param {string} state `connecting`, `online`, `offline`…
 * @param {string} text what it says
 */
export function conn(state, text) {
  const el = $("#conn");
  el.dataset.state = state;
  el.textContent = text;
}

/**
 * Hide the board and say why the page cannot go on, with a link back to the lobby.
 * @param {string} text
 */
export function fatal(text) {
  $("#board").hidden = true;
  $("#join").hidden = true;
  const box = $("#fatal");
  box.hidden = false;
  const title = document.createElement("h2");
  title.textContent = text;
  const link = document.createElement("a");
  link.href = "/";
  link.textContent = _("Back to the lobby");
  const back = document.createElement("p");
  back.append(link);
  box.replaceChildren(title, back);
}
