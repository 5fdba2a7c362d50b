// @ts-check
// The seat's move buttons at the table ("Play" for the selected cards, "Clear", a button
// for each move that is not a card's, "Hint") and the line under them (the hint, or how
// to select a run).
import { esc } from "../api.js";
import { $ } from "../dom.js";
import { _ } from "../i18n.js";
import { buttonLabel, classify, moveChips, moveForSelection } from "../moves.js";
import { myTurn, selectsCards } from "../store.js";
import { levelName } from "../words.js";
import { setHtml } from "./hand.js";
import { keys, rove } from "./keys.js";

/** @typedef {import("../store.js").StateMessage} StateMessage */
/** @typedef {import("../store.js").TableState} TableState */

/** Why a rated table has no hints, in the page's language. */
const NO_HINTS = () => _("No hints at a rated table while it is played: the analysis is there after the end.");
/** @typedef {import("../renderers.js").Ctx} Ctx */

/**
 * Draw the move buttons and the hint line (nothing for a watcher).
 * @param {StateMessage} m the full state message
 * @param {Ctx} ctx
 * @param {TableState} store the selection and the hint
 */
export function renderActions(m, ctx, store) {
  const box = $("#actions");
  if (m.seat === null || m.seat === undefined) {
    box.replaceChildren();
    return;
  }
  const mine = myTurn(m);
  const { buttons, multi } = classify(ctx.legal);
  // where a play may be several cards, every card is selected first and Play plays it
  const selecting = multi.length > 0 || (mine && selectsCards(m));
  const parts = selecting ? selectionButtons(store, ctx.legal) : [];
  const hinted = store.hint ? store.hint.move : null;
  for (const move of buttons) {
    parts.push(
      `<button type="button" class="move-btn${move === hinted ? " hinted" : ""}" data-move="${esc(move)}">${buttonLabel(
        move,
      )}</button>`,
    );
  }
  const rated = Boolean(m.table?.rated);
  if (m.status === "playing") {
    const off = mine && !rated ? "" : " disabled";
    const why = rated ? ` title="${esc(NO_HINTS())}"` : "";
    parts.push(
      `<button type="button" id="hint-btn" class="secondary"${off}${why} aria-describedby="hint-text">${esc(_("Hint"))}</button>`,
    );
  }
  setHtml(box, parts.join(""));
  rove(box, keys.action);
  let hintText = "";
  if (store.hint && mine) {
    hintText = _("Suggestion ({level} bot): {move}", { level: esc(levelName(store.hint.bot)), move: moveChips(store.hint.move) });
  } else if (mine && rated) {
    hintText = `<span class="muted">${esc(NO_HINTS())}</span>`;
  } else if (mine && selecting) {
    hintText = `<span class="muted">${esc(
      _("Click a card to select it; a run or sequence is several cards in a row, then press Play."),
    )}</span>`;
  }
  $("#hint-text").innerHTML = hintText;
}

/**
 * "Play" for the selected cards (disabled until they make a move) and "Clear".
 * @param {TableState} store
 * @param {string[]} legal
 * @returns {string[]} HTML, one item a button
 */
function selectionButtons(store, legal) {
  const chosen = moveForSelection(store.selected, legal);
  const parts = [
    `<button type="button" id="play-selected" class="primary"${chosen ? ` data-move="${esc(chosen)}"` : " disabled"}>` +
      (chosen
        ? _("Play {cards}", { cards: moveChips(chosen) })
        : esc(store.selected.length ? _("Select more cards") : _("Play selected"))) +
      `</button>`,
  ];
  if (store.selected.length) {
    parts.push(`<button type="button" id="clear-selection" class="secondary">${esc(_("Clear"))}</button>`);
  }
  return parts;
}

/** Say that a bot is asked for a hint, on the hint line. */
export function askingHint() {
  const line = document.createElement("span");
  line.className = "muted";
  line.textContent = _("Asking a bot…");
  $("#hint-text").replaceChildren(line);
}
