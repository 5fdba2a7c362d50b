// A bot spec's level in words (words.js levelName): a spec the server runs for a level in
// some games (its `aliases` in GET /api/games, e.g. Medium's search in a game without a
// heuristic of its own) reads as that level, not as the level of its bot's name.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";

const catalog = globalThis.fetch;
const BOTS = [
  { spec: "random", label: "Easy", aliases: [] },
  { spec: "heuristic", label: "Medium", aliases: ["ismcts:iterations=200"] },
  { spec: "ismcts:iterations=1000", label: "Hard", aliases: [] },
];
globalThis.fetch = async (url, init) =>
  String(url).startsWith("/api/games") ? { ok: true, json: async () => ({ games: {}, bots: BOTS }) } : catalog(url, init);
const { levelName } = await import("../../tikki/web/static/words.js");

test("a level's alias reads as that level; other specs by their bot's name", () => {
  assert.equal(levelName("ismcts:iterations=200"), "Medium");
  assert.equal(levelName("heuristic"), "Medium");
  assert.equal(levelName("ismcts:iterations=1000"), "Hard");
  assert.equal(levelName("ismcts:iterations=300"), "Hard");
  assert.equal(levelName("cmd:./mybot"), "cmd");
});
