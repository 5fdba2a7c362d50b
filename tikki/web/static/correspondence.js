// @ts-check
// Correspondence tables (games that last days): the allowance choices (hours a move),
// and the deadline in words ("moves by Tue 14:00") in the page's language.
import { _, lang } from "./i18n.js";

/** The allowances a correspondence table may have (hours a move). */
export const HOURS = [12, 24, 48, 72];

/** Whether a turn timer (seconds) is a correspondence allowance. @param {number | null | undefined} seconds */
export const isCorrespondence = (seconds) => !!seconds && seconds >= HOURS[0] * 3600;

/** A moment in words: weekday and time, with the date when it is a week or more away.
 * @param {Date} when */
export function byWhen(when) {
  const far = when.getTime() - Date.now() > 6 * 24 * 3600 * 1000;
  /** @type {Intl.DateTimeFormatOptions} */
  const shape = { weekday: "short", hour: "2-digit", minute: "2-digit", ...(far ? { day: "numeric", month: "short" } : {}) };
  return new Intl.DateTimeFormat(lang === "pseudo" ? "en" : lang, shape).format(when);
}

/** The clock line of a correspondence table: who moves, and by when.
 * @param {{you: boolean, name: string, left: number, timedOut: boolean}} turn */
export function deadlineLine(turn) {
  if (turn.timedOut || turn.left <= 0) {
    return turn.you ? _("Your time for this move is up.") : _("{name}'s time for this move is up.", { name: turn.name });
  }
  const when = byWhen(new Date(Date.now() + turn.left * 1000));
  return turn.you ? _("Your move, by {when}.", { when }) : _("{name} moves by {when}.", { name: turn.name, when });
}

/** An allowance in words ("24 h a move"). @param {number} seconds */
export const allowanceWords = (seconds) => _("{n} h a move", { n: Math.round(seconds / 3600) });
