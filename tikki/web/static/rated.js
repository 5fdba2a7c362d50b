// @ts-check
// The mark of a rated table in the lobby, on the join screen and at the table:
// the result moves the people's ratings, and only signed-in people take its seats.
import { esc } from "./api.js";
import { _ } from "./i18n.js";

/** What the mark means, as its tooltip. */
export function ratedHelp() {
  return _("Rated: the result changes the players' ratings; only signed-in people take its seats.");
}

/** The mark as HTML ("" for a table that is not rated).
 * @param {{rated?: boolean} | null | undefined} table */
export function ratedHtml(table) {
  if (!table?.rated) return "";
  return ` <span class="badge badge-rated" data-rated title="${esc(ratedHelp())}">${esc(_("Rated"))}</span>`;
}

/** Put the mark after `host`'s text (once), or take it away.
 * @param {Element | null} host
 * @param {{rated?: boolean} | null | undefined} table */
export function markRated(host, table) {
  if (!host) return;
  host.querySelector(".badge-rated")?.remove();
  if (!table?.rated) return;
  const mark = document.createElement("span");
  mark.className = "badge badge-rated";
  mark.dataset.rated = "";
  mark.title = ratedHelp();
  mark.textContent = _("Rated");
  host.append(" ", mark);
}
