// @ts-check
// Words the lobby and the table share, in the page's language: lists, bot levels, and the
// names of variants, options and option values (the server sends their identifiers; the
// identifiers themselves never change with the language).
import { _, N_, lang } from "./i18n.js";
import { BOTS, GAMES } from "./games.js";

/** A game's rules page, in the page's language (English, the default, adds nothing).
 * @param {string} game */
export const rulesUrl = (game) =>
  `/rules/${encodeURIComponent(game)}${lang === "en" ? "" : `?lang=${encodeURIComponent(lang)}`}`;

/** `A`, `A and B`, `A, B and C` in the page's language.
 * @param {string[]} items
 * @returns {string} */
export function andList(items) {
  if (items.length <= 1) return items.join("");
  return _("{items} and {last}", { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/** @type {Record<string, string>} */
const LEVELS = {
  random: N_("Easy"),
  heuristic: N_("Medium"),
  ismcts: N_("Hard"),
  expert: N_("Expert"),
  learned: N_("Learned"),
};

/** A bot spec's level in words: `heuristic` → `Medium` (a spec the server runs for a level
 * in some games, its `aliases`, as that level); an unknown one stays as it is.
 * @param {string | null | undefined} spec
 * @returns {string} */
export function levelName(spec) {
  const level = BOTS.find((b) => b.aliases?.includes(String(spec)));
  if (level) return level.label;
  const name = String(spec || "").split(":")[0];
  return name in LEVELS ? _(LEVELS[name]) : name;
}

/** A bot seat's name as stored (`Aino (Medium)`, in English) with its level once, in
 * the page's language (`Aino (Keskitaso)`); the level alone for a seat without a name.
 * @param {string | null | undefined} stored
 * @param {string} spec
 * @returns {string} */
export function botSeatName(stored, spec) {
  const first = (stored ?? "").split(" (")[0];
  return first ? `${first} (${levelName(spec)})` : levelName(spec);
}

/** The page's decimal mark: a comma in Finnish and German (`2,4`), else a point. */
const DECIMAL = lang === "fi" || lang === "de" ? "," : ".";

/** `x` to one decimal with a true minus sign (`−2.4`; `−2,4` in Finnish and German),
 * and a `+` when `plus`.
 * @param {number} x
 * @param {boolean} [plus]
 * @returns {string} */
export function signed(x, plus = false) {
  const fixed = Math.abs(x).toFixed(1);
  const text = fixed.replace(".", DECIMAL);
  if (Number(fixed) === 0) return plus ? `+${text}` : text;
  return x < 0 ? `−${text}` : plus ? `+${text}` : text;
}

/** A number as it is, with a true minus sign (`−3`, `−2.45`) and a `+` before a positive
 * one when `plus` (`+4`): the scores and points the pages show.
 * @param {number} x
 * @param {boolean} [plus]
 * @returns {string} */
export function withMinus(x, plus = false) {
  const text = String(x).replace("-", "−");
  return plus && x > 0 ? `+${text}` : text;
}

/** A day (an ISO date or time from the server) in the page's language: `Dec 6, 2026`,
 * `06.12.2026`, `6.12.2026`; a text that is no date stays as it is.
 * @param {string} iso
 * @param {string} [language] the page's language unless given
 * @returns {string} */
export function dateText(iso, language = lang) {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(iso); // a bare day: that day, not its UTC midnight
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return iso;
  const options = /** @type {Intl.DateTimeFormatOptions} */ ({ dateStyle: "medium", ...(day ? { timeZone: "UTC" } : {}) });
  return new Intl.DateTimeFormat(language === "pseudo" ? "en" : language, options).format(date);
}

/** The lobby's label of a bot level `{spec, label}`: its level in words.
 * @param {import("./games.js").BotLevel} bot */
export const levelLabel = (bot) => (String(bot.spec).split(":")[0] in LEVELS ? levelName(bot.spec) : bot.label);

/** @type {Record<string, string>} */
const VARIANTS = { standard: N_("standard"), mini: N_("mini (research)"), medium: N_("medium (research)") };

/** A variant's name: `standard` → `standard`; a game's own variant as the game names it
 * (`variant_titles`, GET /api/games), else its key.
 * @param {string} v
 * @returns {string} */
export function variantName(v) {
  if (v in VARIANTS) return _(VARIANTS[v]);
  const named = Object.values(GAMES).find((g) => g.variant_titles?.[v]);
  return named?.variant_titles?.[v] ?? String(v);
}

/** @type {Record<string, string>} */
const OPTIONS = {
  take: N_("what is picked up"),
  runs: N_("runs"),
  duel: N_("duels"),
  trump_requires_void: N_("trump only when void"),
  max_moves: N_("most moves"),
  max_sequence: N_("longest sequence"),
  war_match: N_("must-match in a war"),
  ranks: N_("ranks in the deck"),
  suits: N_("suits in the deck"),
  hand: N_("cards dealt each"),
  colours: N_("colours in the deck"),
  values: N_("number values per colour"),
  mosquitoes: N_("mosquitoes per colour"),
  discards: N_("two cards set aside"),
  rounds: N_("rounds"),
};

/** An option's label: its name in words (`max_moves` → `most moves`).
 * @param {string} name */
export const optionName = (name) => (name in OPTIONS ? _(OPTIONS[name]) : String(name).replaceAll("_", " "));

/** @type {Record<string, string>} */
const VALUES = {
  top: N_("top card"),
  bottom: N_("bottom card"),
  all: N_("whole trick"),
  round: N_("war round"),
  trick: N_("whole trick"),
};

/** An option's value in words: `true` → `on`, `bottom` → `bottom card`, numbers as they are.
 * @param {string | number | boolean} value
 * @returns {string} */
export function optionValue(value) {
  if (value === true) return _("on");
  if (value === false) return _("off");
  return value in VALUES ? _(VALUES[value]) : String(value);
}

/** An option's help in players' words: the parentheses that name its choices' API values
 * for the command line (`(round)`, `(top)`) lose those values, in any language
 * (the catalogs keep the values as they are), and an emptied one goes.
 * @param {string} text the help in words (its rulings taken out)
 * @param {any[] | undefined} choices the option's values
 * @returns {string} */
export function playerHelp(text, choices) {
  const values = new Set((choices ?? []).map(String));
  if (!values.size) return text;
  return text
    .replace(/\s*\(([^()]*)\)/g, (whole, inner) => {
      const kept = String(inner)
        .split(",")
        .map((w) => w.trim())
        .filter((w) => w && !values.has(w));
      if (kept.length === String(inner).split(",").length) return whole;
      return kept.length ? ` (${kept.join(", ")})` : "";
    })
    .trim();
}

/** A percentage in the page's language: `12%` in English, `12 %` (a no-break space) in
 * Finnish and German.
 * @param {number} n */
export const percent = (n) => _("{n}%", { n });

/** A place as an ordinal: `2nd` in English, `2.` in Finnish and German.
 * @param {number} n
 * @returns {string} */
export function ordinal(n) {
  if (lang === "fi" || lang === "de") return `${n}.`;
  const teen = n % 100 >= 10 && n % 100 <= 20;
  return `${n}${teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}
