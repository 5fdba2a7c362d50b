// @ts-check
// A fallback for a game without its own renderer: driven by the view's common keys.
import { esc } from "../api.js";
import { _ } from "../i18n.js";

export default {
  phase: (view) => view.phase,
  seatStats: (view, seat) => (view.hand_sizes ? [[_("Hand"), view.hand_sizes[seat]]] : []),
  seatBadges: () => [],
  seatExtra: () => "",
  centre(view) {
    const trick = JSON.stringify(view.trick ?? null);
    return `<div class="facts"><div class="fact"><span class="fact-label">${esc(_("Trick"))}</span> <code>${esc(trick)}</code></div></div>`;
  },
  prompt: () => esc(_("Your turn: choose a move.")),
  result: (view, ctx) => `<p>${esc(_("Game over."))}</p><pre>${esc(JSON.stringify(ctx.outcome ?? {}, null, 1))}</pre>`,
  sheet: () => "",
};
