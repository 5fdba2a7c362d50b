// moves.js without a browser: move texts, one-click cards, selections of runs.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { classify, extensions, moveForSelection, parseMove } from "../../tikki/web/static/moves.js";

test("parseMove splits verbs, cards and runs", () => {
  assert.deepEqual(parseMove("7H"), { verb: "play", arg: null, cards: ["7H"] });
  assert.deepEqual(parseMove("5H+6H"), { verb: "play", arg: null, cards: ["5H", "6H"] });
  assert.deepEqual(parseMove("slough 7H"), { verb: "slough", arg: "7H", cards: ["7H"] });
  assert.deepEqual(parseMove("trump G"), { verb: "trump", arg: "G", cards: [] });
  assert.deepEqual(parseMove("stock"), { verb: "stock", arg: null, cards: [] });
});

test("classify sorts the legal moves into cards, runs and buttons", () => {
  const { single, multi, buttons } = classify(["5H", "6H", "5H+6H", "take", "discard 7R"]);
  assert.deepEqual([...single.entries()], [["5H", "5H"], ["6H", "6H"], ["7R", "discard 7R"]]);
  assert.deepEqual(multi, [[["5H", "6H"], "5H+6H"]]);
  assert.deepEqual(buttons, ["take"]);
});

test("a selection matches a run in any order, and says which cards extend it", () => {
  const legal = ["5H", "6H", "7H", "5H+6H", "5H+6H+7H"];
  assert.equal(moveForSelection(["6H", "5H"], legal), "5H+6H");
  assert.equal(moveForSelection([], legal), null);
  assert.equal(moveForSelection(["5H", "7H"], legal), null);
  assert.deepEqual([...extensions(["5H"], legal)].sort(), ["6H", "7H"]);
});
