// @ts-check
// Cards as SVG: French-suited cards (the shedding games) and the colour cards' four colours
// with their mosquitoes. Suits and the mosquito are drawn as paths, so no font is needed
// for them; only the rank and number are text. Names are in the page's language; the card
// texts themselves (`7H`, `MK`) never change.
import { _, format } from "./i18n.js";

/** Suit names (plural, as in "♥ hearts"), in the page's language. @type {Record<string, string>} */
export const SUIT_NAMES = { S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs") };
/** One card's suit (singular, as in "a higher heart"). @type {Record<string, string>} */
export const SUIT_SINGULAR = { S: _("spade"), H: _("heart"), D: _("diamond"), C: _("club") };
/** @type {Record<string, string>} */
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
/** The colour cards' colours, in the page's language. @type {Record<string, string>} */
export const COLOUR_NAMES = { R: _("red"), B: _("blue"), G: _("green"), K: _("black") };
/** @type {Record<string, string>} */
const RANK_NAMES = { J: _("jack"), Q: _("queen"), K: _("king"), A: _("ace") };
// A colour card's name, one text per colour (adjectives agree with the card in German).
/** @type {Record<string, string>} */
const COLOUR_CARD = {
  R: _("red {number}"),
  B: _("blue {number}"),
  G: _("green {number}"),
  K: _("black {number}"),
};
/** @type {Record<string, string>} */
const COLOUR_MOSQUITO = {
  R: _("red mosquito"),
  B: _("blue mosquito"),
  G: _("green mosquito"),
  K: _("black mosquito"),
};
/** @type {Record<string, string>} */
const RANK_LABELS = { T: "10" };
const FRENCH_RANKS = "23456789TJQKA";
const FRENCH_SUIT_ORDER = "SHCD"; // alternating black and red in a sorted hand
const COLOUR_ORDER = "RBGK";

// Suits and the colour marks in a 100×100 box.
/** @type {Record<string, string>} */
const SUIT_PATHS = {
  H: '<path d="M50 90C22 67 4 50 8 28 12 8 40 4 50 27 60 4 88 8 92 28 96 50 78 67 50 90Z"/>',
  D: '<path d="M50 4 86 50 50 96 14 50Z"/>',
  S:
    '<path d="M50 6C78 33 96 47 92 68 88 86 64 88 55 74 57 84 62 91 70 96H30C38 91 43 84 45 74 36 88 12 86 8 68 4 47 22 33 50 6Z"/>',
  C:
    '<circle cx="50" cy="28" r="20"/><circle cx="27" cy="60" r="20"/><circle cx="73" cy="60" r="20"/>' +
    '<circle cx="50" cy="52" r="12"/><path d="M46 58C46 76 40 88 31 96H69C60 88 54 76 54 58Z"/>',
};
/** @type {Record<string, string>} */
const COLOUR_MARKS = {
  R: '<circle cx="50" cy="50" r="40"/>',
  B: '<rect x="12" y="12" width="76" height="76" rx="6"/>',
  G: '<path d="M50 8 94 88H6Z"/>',
  K: '<path d="M50 4 92 50 50 96 8 50Z"/>',
};
/** @type {Record<string, string>} */
const FRENCH_INK = { S: "#1d1d1f", C: "#1d1d1f", H: "#c8102e", D: "#c8102e" };
/** @type {Record<string, string>} */
export const COLOUR_INK = { R: "#c62828", B: "#1f5fbf", G: "#2e7d32", K: "#222222" };
/** @type {Record<string, string>} */
const COLOUR_TINT = { R: "#fdecea", B: "#e8f0fc", G: "#e9f5ea", K: "#ececec" };

const MOSQUITO =
  // wings, body (abdomen, thorax, head), proboscis and legs; drawn in a 100×100 box
  '<g opacity="0.35"><ellipse cx="50" cy="26" rx="20" ry="8" transform="rotate(-35 50 26)"/>' +
  '<ellipse cx="60" cy="30" rx="18" ry="7" transform="rotate(-10 60 30)"/></g>' +
  '<ellipse cx="66" cy="58" rx="24" ry="7.5" transform="rotate(28 66 58)"/>' +
  '<circle cx="40" cy="44" r="9"/><circle cx="28" cy="36" r="6"/>' +
  '<g fill="none" stroke-width="2.6" stroke-linecap="round">' +
  '<path d="M24 33 6 18"/><path d="M36 50 26 66 16 74"/><path d="M41 52 38 70 32 84"/>' +
  '<path d="M45 51 52 68 54 84"/><path d="M34 46 18 56 8 56"/></g>';

/**
 * @typedef {object} FrenchCard A French-suited card (RULINGS C-3).
 * @property {"french"} kind
 * @property {string} rank `2`…`9`, `T`, `J`, `Q`, `K`, `A`
 * @property {string} suit `S`, `H`, `D` or `C`
 * @property {string} text the card's canonical text (`TH`)
 */

/**
 * @typedef {object} ColourCard A colour card (RULINGS C-3, MS-1).
 * @property {"colour"} kind
 * @property {string} number `1`…`12`, or `M` for a mosquito
 * @property {string} colour `R`, `B`, `G` or `K`
 * @property {boolean} mosquito
 * @property {string} text the card's canonical text (`12R`, `MK`)
 */

/**
 * Parse a card text (`7H`, `TH`, `10R`, `MK`) into its parts.
 * @param {string} text
 * @returns {FrenchCard | ColourCard | null}
 */
export function parseCard(text) {
  const t = String(text).toUpperCase();
  const last = t.slice(-1);
  const head = t.slice(0, -1);
  if (last in SUIT_NAMES && (FRENCH_RANKS.includes(head) || head === "10")) {
    const rank = head === "10" ? "T" : head;
    return { kind: "french", rank, suit: last, text: rank + last };
  }
  if (last in COLOUR_NAMES && (head === "M" || /^(1[0-2]|[1-9])$/.test(head))) {
    return { kind: "colour", number: head, colour: last, mosquito: head === "M", text: t };
  }
  return null;
}

/** Whether a word of a move text is a card (`7H`, `12R`, `MK`).
 * @param {string} word */
export function isCard(word) {
  return parseCard(word) !== null;
}

/** The spoken name of a card: `7 of hearts`, `jack of spades`, `red 10`, `green mosquito`
 * (in Finnish `hertta 7`, `patasotamies`; in German `Herz 7`, `Pik-Bube`, `grüne Mücke`).
 * @param {string} text
 * @returns {string} */
export function cardName(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (c.kind === "french") {
    const suit = SUIT_NAMES[c.suit];
    return c.rank in RANK_NAMES
      ? format(_("{rank} of {suit}"), { rank: RANK_NAMES[c.rank], suit })
      : format(_("{number} of {suit}"), { number: RANK_LABELS[c.rank] ?? c.rank, suit });
  }
  return c.mosquito ? COLOUR_MOSQUITO[c.colour] : format(COLOUR_CARD[c.colour], { number: c.number });
}

/** A short label: `7♥`, `10♠`; a colour card by its name (`red 12`, `red mosquito`).
 * @param {string} text
 * @returns {string} */
export function cardShort(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (c.kind === "french") return (RANK_LABELS[c.rank] ?? c.rank) + SUIT_SYMBOLS[c.suit];
  return cardName(text);
}

/** @param {unknown} s */
const escape = (s) =>
  String(s).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A card as inline, coloured text (for the log and small lists): a `<span>`.
 * @param {string} text
 * @returns {string} */
export function cardChip(text) {
  const c = parseCard(text);
  if (!c) return `<span class="chip">${escape(text)}</span>`;
  if (c.kind === "french") {
    const red = c.suit === "H" || c.suit === "D";
    return `<span class="chip ${red ? "red" : "black"}" title="${escape(cardName(text))}">${escape(
      RANK_LABELS[c.rank] ?? c.rank,
    )}${SUIT_SYMBOLS[c.suit]}</span>`;
  }
  const mark = `<svg class="mark" viewBox="0 0 100 100" aria-hidden="true" fill="${COLOUR_INK[c.colour]}">${COLOUR_MARKS[c.colour]}</svg>`;
  const label = c.mosquito
    ? `<svg class="mosquito" viewBox="0 0 100 100" aria-hidden="true" fill="${COLOUR_INK[c.colour]}" stroke="${COLOUR_INK[c.colour]}">${MOSQUITO}</svg>M`
    : escape(c.number);
  return `<span class="chip colour-${c.colour}" title="${escape(cardName(text))}">${mark}${label}</span>`;
}

/** A colour (of the colour cards) or suit as a small swatch and its name.
 * @param {string | null | undefined} letter
 * @returns {string} */
export function colourChip(letter) {
  const key = /** @type {string} */ (letter); // null or undefined: in neither table
  if (key in COLOUR_NAMES) {
    return `<span class="chip colour-${letter}"><svg class="mark" viewBox="0 0 100 100" aria-hidden="true" fill="${COLOUR_INK[key]}">${COLOUR_MARKS[key]}</svg>${escape(COLOUR_NAMES[key])}</span>`;
  }
  if (key in SUIT_NAMES) {
    const red = key === "H" || key === "D";
    return `<span class="chip ${red ? "red" : "black"}">${SUIT_SYMBOLS[key]} ${escape(SUIT_NAMES[key])}</span>`;
  }
  return escape(letter ?? "—");
}

/**
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {boolean} [rotate]
 */
function suitGlyph(suit, x, y, size, rotate = false) {
  const s = size / 100;
  const rot = rotate ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${x} ${y}) scale(${s})${rot}">${SUIT_PATHS[suit]}</g>`;
}

/**
 * @param {string} colour
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function markGlyph(colour, x, y, size) {
  return `<g transform="translate(${x} ${y}) scale(${size / 100})">${COLOUR_MARKS[colour]}</g>`;
}

/** @param {FrenchCard} c */
function frenchFace(c) {
  const ink = FRENCH_INK[c.suit];
  const label = RANK_LABELS[c.rank] ?? c.rank;
  const corner =
    `<text x="${label.length > 1 ? 3.5 : 5.5}" y="15" font-size="13" font-weight="700"${
      label.length > 1 ? ' textLength="15" lengthAdjust="spacingAndGlyphs"' : ""
    }>${label}</text>` + suitGlyph(c.suit, 4.5, 18, 10);
  let centre;
  if ("JQK".includes(c.rank)) {
    centre =
      `<rect x="16" y="19" width="28" height="46" rx="3" fill="${ink}" fill-opacity="0.07" stroke="${ink}" stroke-width="1"/>` +
      `<text x="30" y="45" font-size="21" font-weight="700" text-anchor="middle">${c.rank}</text>` +
      suitGlyph(c.suit, 25, 48, 10);
  } else if (c.rank === "A") {
    centre = suitGlyph(c.suit, 15, 27, 30);
  } else {
    centre = suitGlyph(c.suit, 19, 31, 22);
  }
  return (
    `<g fill="${ink}" font-family="system-ui, 'DejaVu Sans', 'Liberation Sans', sans-serif">` +
    corner +
    centre +
    `<g transform="rotate(180 30 42)">${corner}</g></g>`
  );
}

/** @param {ColourCard} c */
function colourFace(c) {
  const ink = COLOUR_INK[c.colour];
  const corner = c.mosquito
    ? `<g fill="${ink}" stroke="${ink}" transform="translate(3 4) scale(0.13)">${MOSQUITO}</g>`
    : `<text x="${c.number.length > 1 ? 3.5 : 5.5}" y="15" font-size="13" font-weight="700"${
        c.number.length > 1 ? ' textLength="14" lengthAdjust="spacingAndGlyphs"' : ""
      }>${c.number}</text>`;
  const mark = markGlyph(c.colour, 5, 18, 8);
  const centre = c.mosquito
    ? `<g fill="${ink}" stroke="${ink}" transform="translate(8 20) scale(0.44)">${MOSQUITO}</g>`
    : `<text x="30" y="53" font-size="${c.number.length > 1 ? 26 : 30}" font-weight="800" text-anchor="middle">${c.number}</text>`;
  return (
    `<rect x="2.5" y="2.5" width="55" height="79" rx="4" fill="${COLOUR_TINT[c.colour]}"/>` +
    `<rect x="6" y="6" width="48" height="72" rx="3" fill="none" stroke="${ink}" stroke-width="1.6" stroke-opacity="0.5"/>` +
    `<g fill="${ink}" font-family="system-ui, 'DejaVu Sans', 'Liberation Sans', sans-serif">` +
    `<g>${corner}${mark}</g>${centre}` +
    `<g transform="rotate(180 30 42)">${corner}${mark}</g></g>`
  );
}

/** An SVG card face (60×84 units), decorative: the button around it carries the label.
 * @param {string} text
 * @returns {string} */
export function cardSVG(text) {
  const c = parseCard(text);
  const face = !c ? "" : c.kind === "french" ? frenchFace(c) : colourFace(c);
  return (
    `<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
    `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fff" stroke="#9aa3ad"/>` +
    face +
    `</svg>`
  );
}

/** The back of a card. */
export function backSVG() {
  return (
    `<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
    `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fff" stroke="#9aa3ad"/>` +
    `<rect x="4" y="4" width="52" height="76" rx="3" fill="#2b4c7e"/>` +
    `<rect x="8" y="8" width="44" height="68" rx="2" fill="none" stroke="#fff" stroke-opacity="0.35"/>` +
    `<path d="M30 22 44 42 30 62 16 42Z" fill="#fff" fill-opacity="0.2"/>` +
    `<path d="M30 32 37 42 30 52 23 42Z" fill="#fff" fill-opacity="0.35"/></svg>`
  );
}

/** Sort key of a card: French by suit (♠♥♣♦) then rank; colour cards by colour then number.
 * @param {string} text
 * @returns {[number, number]} */
export function cardKey(text) {
  const c = parseCard(text);
  if (!c) return [9, 0];
  if (c.kind === "french") return [FRENCH_SUIT_ORDER.indexOf(c.suit), FRENCH_RANKS.indexOf(c.rank)];
  return [4 + COLOUR_ORDER.indexOf(c.colour), c.mosquito ? 13 : Number(c.number)];
}

/** A hand sorted by suit or colour, then rank or number (a new array).
 * @param {Iterable<string>} cards
 * @returns {string[]} */
export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const ka = cardKey(a);
    const kb = cardKey(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}
