// Mückenstich's scoring choices in words: the row of what each colour would score you
// says what the choice does, not a bare "×0" / "×2".
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { YOU } from "../../tikki/web/static/api.js";
import mueckenstich from "../../tikki/web/static/render/mueckenstich.js";

const names = [YOU, "Aino (Easy)", "Eero (Medium)"];
const ctx = { plainNames: names, names, mySeat: 0, legal: [], outcome: null, memoryAids: false };
const text = (/** @type {string} */ html) => html.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();

/** The scoring phase with seat 0 to choose `verb`. @param {string} verb */
const choosing = (verb) => ({
  game: "mueckenstich", phase: "score", seat: 0, to_act: 0, hand: [], hand_sizes: [0, 0, 0],
  legal_moves: ["R", "B", "G"].map((c) => `${verb} ${c}`), tricks: [1, 5, 4], mosquitoes: [2, 0, 1],
  scores: [0, 0, 0], round: 0, rounds: 3, deals: 1, deal: 0, dealer: 1, trump: null, led: null,
  trick: [], piles: [["5R", "MB", "7G"], [], []], history: [], sheet: [],
  doubled: verb === "drop" ? "K" : null,
  scoring_choice: { seat: 0, verb, scores: verb === "drop" ? { R: 0, B: -5, G: 1 } : { R: 2, B: -5, G: 1, K: 0 } },
});

test("the drop choice's row says the colour scores nothing", () => {
  const shown = text(mueckenstich.centre(choosing("drop"), ctx));
  assert.match(shown, /Your points if this colour scores nothing/);
  assert.doesNotMatch(shown, /If ×0/);
});

test("the double choice's row says the colour is doubled", () => {
  const shown = text(mueckenstich.centre(choosing("double"), ctx));
  assert.match(shown, /Your points if this colour is doubled/);
  assert.doesNotMatch(shown, /If ×2/);
});

test("the score sheet's colour marks say in words what they did", () => {
  const view = { ...choosing("drop"), sheet: [{ round: 0, tricks: [1, 5, 4], mosquitoes: [2, 0, 1], doubled: "K", dropped: "G", scores: [-9, 5, -1] }] };
  const sheet = mueckenstich.sheet(view, ctx);
  assert.match(sheet, /title="[^"]*scores nothing"/);
  assert.match(sheet, /title="[^"]*is doubled"/);
});
