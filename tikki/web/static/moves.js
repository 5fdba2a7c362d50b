// @ts-check
// Pure logic about move texts (RULINGS C-3): which hand card plays which legal move,
// matching a selection of cards to a legal run or sequence, and the log's sentences.
import { cardChip, colourChip, isCard } from "./cards.js";
import { GAMES } from "./games.js";
import { _, format } from "./i18n.js";

/** @param {unknown} text */
const esc = (text) => String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A move that is no card in words: the name its game declares (`move_titles`, in the
 * page's language), else the move text itself, escaped.
 * @param {string} move */
const moveWord = (move) => esc(moveTitle(move) ?? move);

/** The title a game declares for a move that is no card (`move_titles`, in the page's
 * language): by its text, or for a `<word> <number>` move (`bid 3`) by `<word> {n}`
 * with the number filled in; `null` where none does.
 * @param {string} move
 * @returns {string | null} */
export function moveTitle(move) {
  const games = Object.values(GAMES);
  const exact = games.find((g) => g.move_titles?.[move])?.move_titles?.[move];
  if (exact) return exact;
  const numbered = /^(\S+) (-?\d+)$/.exec(String(move));
  if (!numbered) return null;
  const key = `${numbered[1]} {n}`;
  const title = games.find((g) => g.move_titles?.[key])?.move_titles?.[key];
  return title ? format(title, { n: numbered[2] }) : null;
}

const CARD_VERBS = ["slough", "discard"];

/**
 * @typedef {object} ParsedMove A move text taken apart.
 * @property {string} verb `play` for cards and runs, else the move's first word
 * @property {string | null} arg the word after the verb (`slough 7H`: `7H`), if any
 * @property {string[]} cards the cards the move puts down
 */

/**
 * @typedef {object} Classified The legal moves by what a click does (see classify).
 * @property {Map<string, string>} single a card to the one-card move it makes
 * @property {[string[], string][]} multi the runs and sequences: their cards and move
 * @property {string[]} buttons the moves that are no card
 */

/**
 * Split a move text: `{verb, cards, arg}`; verb is "play" for cards and runs.
 * @param {string} move
 * @returns {ParsedMove}
 */
export function parseMove(move) {
  const [head, arg] = String(move).split(" ", 2);
  if (arg !== undefined) {
    return { verb: head, arg, cards: CARD_VERBS.includes(head) && isCard(arg) ? [arg] : [] };
  }
  const parts = head.split("+");
  if (parts.every(isCard)) return { verb: "play", arg: null, cards: parts };
  return { verb: head, arg: null, cards: [] };
}

/**
 * What each card of the hand can do with one click, from the legal moves.
 * Returns `{single: Map(card -> move), multi: [[cards], move][], buttons: [move]}`:
 * `single` maps a card to the one-card move it makes (`7H`, `slough 7H`, `discard 7R`),
 * `multi` lists the runs and sequences, `buttons` every move that is no card (`stock`,
 * `take`, `pass`, `trump G`, `double R`, `drop B`).
 * @param {string[]} legal
 * @returns {Classified}
 */
export function classify(legal) {
  /** @type {Map<string, string>} */
  const single = new Map();
  /** @type {[string[], string][]} */
  const multi = [];
  /** @type {string[]} */
  const buttons = [];
  for (const move of legal) {
    const m = parseMove(move);
    if (m.cards.length === 1) single.set(m.cards[0], move);
    else if (m.cards.length > 1) multi.push([m.cards, move]);
    else buttons.push(move);
  }
  return { single, multi, buttons };
}

/** @param {string[]} a @param {string[]} b */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

/** @param {string[]} big @param {string[]} small */
function contains(big, small) {
  const rest = [...big];
  for (const c of small) {
    const i = rest.indexOf(c);
    if (i < 0) return false;
    rest.splice(i, 1);
  }
  return true;
}

/** The legal move made of exactly the selected cards (any order), or null.
 * @param {string[]} selected
 * @param {string[]} legal
 * @returns {string | null | undefined} */
export function moveForSelection(selected, legal) {
  if (selected.length === 0) return null;
  const { single, multi } = classify(legal);
  if (selected.length === 1 && single.has(selected[0])) return single.get(selected[0]);
  for (const [cards, move] of multi) if (sameCards(cards, selected)) return move;
  return null;
}

/** Cards that, added to the selection, still lead to some legal run or sequence.
 * @param {string[]} selected
 * @param {string[]} legal
 * @returns {Set<string>} */
export function extensions(selected, legal) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const [cards] of classify(legal).multi) {
    if (!contains(cards, selected)) continue;
    const rest = [...cards];
    for (const c of selected) rest.splice(rest.indexOf(c), 1);
    for (const c of rest) out.add(c);
  }
  return out;
}

/** Whether a card starts or belongs to a legal run or sequence.
 * @param {string} card
 * @param {string[]} legal */
export function inMulti(card, legal) {
  return classify(legal).multi.some(([cards]) => cards.includes(card));
}

/** The label of a move button: `Turn the top stock card`, `Take`, `Trump ■ green`.
 * @param {string} move
 * @returns {string} */
export function buttonLabel(move) {
  const m = parseMove(move);
  switch (m.verb) {
    case "stock":
      return esc(_("Turn the top stock card"));
    case "take":
      return esc(_("Take"));
    case "pass":
      return esc(_("Pass"));
    case "trump":
      return _("Trump {colour}", { colour: colourChip(m.arg) });
    case "double":
      return _("Double {colour}", { colour: colourChip(m.arg) });
    case "drop":
      return _("Drop {colour}", { colour: colourChip(m.arg) });
    default: {
      const title = moveTitle(move); // a button starts with a capital: "A bid of 2"
      return title ? esc(title.charAt(0).toUpperCase() + title.slice(1)) : esc(move);
    }
  }
}

/** Several cards as one unbreakable group of chips.
 * @param {string[]} cards
 * @returns {string} */
export function run(cards) {
  return cards.length > 1
    ? `<span class="run">${cards.map(cardChip).join("")}</span>`
    : cards.map(cardChip).join("");
}

/** A move's cards as chips: `5♥+6♥+7♥`; other moves in words (`slough 7♥`, `trump ■ green`).
 * @param {string} move
 * @returns {string} */
export function moveChips(move) {
  const m = parseMove(move);
  if (m.verb === "play") return run(m.cards);
  const card = m.cards.length ? m.cards.map(cardChip).join("") : "";
  switch (m.verb) {
    case "slough":
      return _("slough {card}", { card });
    case "discard":
      return _("set {card} aside", { card });
    case "trump":
      return _("trump {colour}", { colour: colourChip(m.arg) });
    case "double":
      return _("double {colour}", { colour: colourChip(m.arg) });
    case "drop":
      return _("drop {colour}", { colour: colourChip(m.arg) });
    case "stock":
      return esc(_("turn the top stock card"));
    case "take":
      return esc(_("take"));
    case "pass":
      return esc(_("pass"));
    default:
      return moveWord(move);
  }
}

/**
 * One history entry as an HTML sentence with its player's name (HTML) first:
 * `Anna plays 7♥`, `Anna turns K♠ from the stock`, `Anna sets a card aside` for another
 * seat's hidden discard; with `you`, the sentence speaks to the player (`You play 7♥`).
 * @param {{move: string, card?: string | null}} entry
 * @param {boolean} you
 * @param {string} [name] HTML
 * @returns {string}
 */
export function describe(entry, you, name = "") {
  const m = parseMove(entry.move);
  /** @param {string} own @param {string} other @param {Record<string, unknown>} [params] */
  const say = (own, other, params = {}) => format(you ? own : other, { name, ...params });
  switch (m.verb) {
    case "play":
      return say(_("{name} play {cards}"), _("{name} plays {cards}"), { cards: run(m.cards) });
    case "stock":
      return entry.card
        ? say(_("{name} turn {card} from the stock"), _("{name} turns {card} from the stock"), {
            card: cardChip(entry.card),
          })
        : say(_("{name} turn a card from the stock"), _("{name} turns a card from the stock"));
    case "take":
      return say(_("{name} take from the trick"), _("{name} takes from the trick"));
    case "pass":
      return say(_("{name} pass"), _("{name} passes"));
    case "slough":
      return m.cards.length
        ? say(_("{name} slough {card}"), _("{name} sloughs {card}"), { card: cardChip(/** @type {string} */ (m.arg)) })
        : say(_("{name} slough a card"), _("{name} sloughs a card"));
    case "discard":
      return m.cards.length
        ? say(_("{name} set {card} aside"), _("{name} sets {card} aside"), { card: cardChip(/** @type {string} */ (m.arg)) })
        : say(_("{name} set a card aside"), _("{name} sets a card aside"));
    case "trump":
      return say(_("{name} name {colour} trump"), _("{name} names {colour} trump"), { colour: colourChip(m.arg) });
    case "double":
      return say(_("{name} double {colour}"), _("{name} doubles {colour}"), { colour: colourChip(m.arg) });
    case "drop":
      return say(_("{name} drop {colour}"), _("{name} drops {colour}"), { colour: colourChip(m.arg) });
    case "?":
      return say(_("{name} make a hidden move"), _("{name} makes a hidden move"));
    default: {
      const title = moveTitle(entry.move); // a declared title reads "Anna: a bid of 2"
      if (title) return `${name}: ${esc(title)}`;
      return say(_("{name} play {move}"), _("{name} plays {move}"), { move: entry.move.replace(/[&<>"']/g, "") });
    }
  }
}
