// @ts-check
// "What you want now": one short line per game and phase, shown when a phase begins.
// Every such text lives here (issue #12, rules at hand), in the page's language.
import { _ } from "./i18n.js";

export const GOALS = {
  myllymatti: {
    collect: _("Win few duels and good cards: your pile is your phase-2 hand."),
    shed: _("Get rid of your cards: beat the top card or pick up. The last player holding cards loses."),
  },
  mattis: {
    collect: _("Take few tricks, and good cards: your won cards are your phase-2 hand."),
    shed: _("Shed your cards: follow suit and beat the trick, or take it. The last player holding cards loses."),
  },
  mueckenstich: {
    discard: _("Set aside two cards you do not want: keep a hand that wins number cards."),
    play: _("Win tricks with number cards; avoid tricks with mosquitoes (the first of a colour costs 5)."),
    score: _("The fewest tricks doubles a colour, the most mosquitoes drops one: pick what pays most."),
  },
};

/** The goal line of a game's current phase, or "" (game over, unknown phase). */
export function goal(game, view) {
  return GOALS[game]?.[view?.phase] ?? "";
}
