// Negative numbers on the table pages: every shown score carries the true minus sign
// (U+2212, as the profile's ratings do), never the hyphen-minus.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { YOU } from "../../tikki/web/static/api.js";
import { eventText } from "../../tikki/web/static/events.js";
import generic from "../../tikki/web/static/render/generic.js";
import mueckenstich from "../../tikki/web/static/render/mueckenstich.js";
import { withMinus } from "../../tikki/web/static/words.js";

const names = [YOU, "Aino (Easy)", "Eero (Medium)"];
const ctx = { plainNames: names, names, mySeat: 0, legal: [], outcome: null, memoryAids: false };
const HYPHEN_NUMBER = /-\d/;

/** A Mückenstich view with negative scores, at the end of its match. */
const mueckView = (extra = {}) => ({
  game: "mueckenstich", phase: "over", seat: 0, to_act: null, legal_moves: [], hand: [],
  hand_sizes: [0, 0, 0], tricks: [3, 5, 2], mosquitoes: [1, 0, 2], scores: [-3, 4, -12],
  round: 2, rounds: 3, deals: 1, deal: 0, dealer: 1, trump: null, led: null, trick: [],
  piles: [[], [], []], history: [],
  sheet: [{ round: 0, tricks: [3, 5, 2], mosquitoes: [1, 0, 2], doubled: "R", dropped: "G", scores: [-3, 4, -12] }],
  ...extra,
});

test("withMinus writes the true minus sign, and a plus when asked", () => {
  assert.equal(withMinus(-3), "−3");
  assert.equal(withMinus(3), "3");
  assert.equal(withMinus(3, true), "+3");
  assert.equal(withMinus(0, true), "0");
  assert.equal(withMinus(-2.45), "−2.45");
});

test("Mückenstich's seat tiles, score sheet and result list use the minus sign", () => {
  const view = mueckView();
  const stats = [0, 1, 2].map((s) => mueckenstich.seatStats(view, s).flat().join(" ")).join(" | ");
  assert.match(stats, /−3/);
  assert.match(stats, /−12/);
  assert.doesNotMatch(stats, HYPHEN_NUMBER);
  const sheet = mueckenstich.sheet(view, ctx);
  assert.match(sheet, /−12/);
  assert.doesNotMatch(sheet, HYPHEN_NUMBER);
  const result = mueckenstich.result(view, ctx);
  assert.match(result, /−3/);
  assert.doesNotMatch(result, HYPHEN_NUMBER);
});

test("a winner with a negative score reads with the minus sign", () => {
  const view = mueckView({ scores: [-3, -4, -12] });
  const result = mueckenstich.result(view, ctx);
  assert.match(result, /You win with −3 points\./);
  assert.doesNotMatch(result, HYPHEN_NUMBER);
});

test("Mückenstich's scoring choices show negative figures with the minus sign", () => {
  const view = mueckView({
    phase: "score", to_act: 0, legal_moves: ["drop R", "drop B"],
    piles: [["5R", "MB", "7G"], [], []],
    scoring_choice: { seat: 0, verb: "drop", scores: { R: -4, B: 2, G: -7 } },
  });
  const centre = mueckenstich.centre(view, ctx);
  assert.match(centre, /−4/);
  assert.doesNotMatch(centre, HYPHEN_NUMBER);
});

test("the generic renderer's seat scores and result use the minus sign", () => {
  const view = { game: "any", phase: "over", hand_sizes: [0, 0, 0], scores: [-2, 5, -7] };
  const stats = [0, 1, 2].map((s) => generic.seatStats(view, s).flat().join(" ")).join(" | ");
  assert.match(stats, /−7/);
  assert.doesNotMatch(stats, HYPHEN_NUMBER);
  const result = generic.result(view, ctx);
  assert.match(result, /−2/);
  assert.doesNotMatch(result, HYPHEN_NUMBER);
});

test("the log's round line uses the minus sign", () => {
  const line = eventText({ type: "round", round: 0, scores: [-3, 4, -12] }, names, "mueckenstich", null);
  assert.match(line, /−3/);
  assert.match(line, /\+4/);
  assert.doesNotMatch(line, HYPHEN_NUMBER);
});
