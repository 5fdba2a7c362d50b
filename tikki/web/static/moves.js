// Pure logic about move texts (RULINGS C-3): which hand card plays which legal move,
// matching a selection of cards to a legal run or sequence, and the log's sentences.
import { cardChip, colourChip, isCard } from "./cards.js";

const CARD_VERBS = ["slough", "discard"];
const COLOUR_VERBS = ["trump", "double", "drop"];

/** Split a move text: `{verb, cards, arg}`; verb is "play" for cards and runs. */
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
 */
export function classify(legal) {
  const single = new Map();
  const multi = [];
  const buttons = [];
  for (const move of legal) {
    const m = parseMove(move);
    if (m.cards.length === 1) single.set(m.cards[0], move);
    else if (m.cards.length > 1) multi.push([m.cards, move]);
    else buttons.push(move);
  }
  return { single, multi, buttons };
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

function contains(big, small) {
  const rest = [...big];
  for (const c of small) {
    const i = rest.indexOf(c);
    if (i < 0) return false;
    rest.splice(i, 1);
  }
  return true;
}

/** The legal move made of exactly the selected cards (any order), or null. */
export function moveForSelection(selected, legal) {
  if (selected.length === 0) return null;
  const { single, multi } = classify(legal);
  if (selected.length === 1 && single.has(selected[0])) return single.get(selected[0]);
  for (const [cards, move] of multi) if (sameCards(cards, selected)) return move;
  return null;
}

/** Cards that, added to the selection, still lead to some legal run or sequence. */
export function extensions(selected, legal) {
  const out = new Set();
  for (const [cards] of classify(legal).multi) {
    if (!contains(cards, selected)) continue;
    const rest = [...cards];
    for (const c of selected) rest.splice(rest.indexOf(c), 1);
    for (const c of rest) out.add(c);
  }
  return out;
}

/** Whether a card starts or belongs to a legal run or sequence. */
export function inMulti(card, legal) {
  return classify(legal).multi.some(([cards]) => cards.includes(card));
}

/** The label of a move button: `Turn a stock card`, `Take`, `Trump: green`. */
export function buttonLabel(move) {
  const m = parseMove(move);
  switch (m.verb) {
    case "stock":
      return "Turn the top stock card";
    case "take":
      return "Take";
    case "pass":
      return "Pass";
    case "trump":
      return `Trump ${colourChip(m.arg)}`;
    case "double":
      return `Double ${colourChip(m.arg)}`;
    case "drop":
      return `Drop ${colourChip(m.arg)}`;
    default:
      return move;
  }
}

/** Several cards as one unbreakable group of chips. */
export function run(cards) {
  return cards.length > 1
    ? `<span class="run">${cards.map(cardChip).join("")}</span>`
    : cards.map(cardChip).join("");
}

/** A move's cards as chips: `5♥+6♥+7♥`. */
export function moveChips(move) {
  const m = parseMove(move);
  if (m.verb === "play") return run(m.cards);
  if (m.cards.length) return `${m.verb} ${m.cards.map(cardChip).join("")}`;
  if (COLOUR_VERBS.includes(m.verb)) return `${m.verb} ${colourChip(m.arg)}`;
  return m.verb;
}

/**
 * One history entry as an HTML sentence (without the name): `plays 7♥`,
 * `turns K♠ from the stock`, `sets a card aside` for another seat's hidden discard.
 */
export function describe(entry, you) {
  const m = parseMove(entry.move);
  const s = (verb, own) => (you ? own ?? verb : verb + "s");
  switch (m.verb) {
    case "play":
      return `${s("play")} ${run(m.cards)}`;
    case "stock":
      return entry.card
        ? `${s("turn")} ${cardChip(entry.card)} from the stock`
        : `${s("turn")} a card from the stock`;
    case "take":
      return `${s("take")} from the trick`;
    case "pass":
      return you ? "pass" : "passes";
    case "slough":
      return `${s("slough")} ${m.cards.length ? cardChip(m.arg) : "a card"}`;
    case "discard":
      return m.cards.length
        ? `${you ? "set" : "sets"} ${cardChip(m.arg)} aside`
        : `${you ? "set" : "sets"} a card aside`;
    case "trump":
      return `${you ? "name" : "names"} ${colourChip(m.arg)} trump`;
    case "double":
      return `${you ? "double" : "doubles"} ${colourChip(m.arg)}`;
    case "drop":
      return `${you ? "drop" : "drops"} ${colourChip(m.arg)}`;
    case "?":
      return `${s("make")} a hidden move`;
    default:
      return `${s("play")} ${entry.move.replace(/[&<>"']/g, "")}`;
  }
}
