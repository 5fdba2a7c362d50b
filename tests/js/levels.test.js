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
  {
    spec: "learned",
    label: "Learned",
    aliases: [],
    games: { mattis: { players: [3], variants: ["standard"] }, mueckenstich: { players: [4], variants: ["standard"] } },
  },
];
globalThis.fetch = async (url, init) =>
  String(url).startsWith("/api/games") ? { ok: true, json: async () => ({ games: {}, bots: BOTS }) } : catalog(url, init);
const { levelName } = await import("../../tikki/web/static/words.js");
const { levelPlays } = await import("../../tikki/web/static/games.js");

test("a level's alias reads as that level; other specs by their bot's name", () => {
  assert.equal(levelName("ismcts:iterations=200"), "Medium");
  assert.equal(levelName("heuristic"), "Medium");
  assert.equal(levelName("ismcts:iterations=1000"), "Hard");
  assert.equal(levelName("ismcts:iterations=300"), "Hard");
  assert.equal(levelName("cmd:./mybot"), "cmd");
  assert.equal(levelName("learned"), "Learned");
});

test("Learned plays only the games and player counts of its models; the others every one", () => {
  const [easy, , , learned] = BOTS;
  assert.ok(levelPlays(learned, "mattis", 3) && levelPlays(learned, "mueckenstich", "4", "standard"));
  assert.ok(!levelPlays(learned, "mattis", 4) && !levelPlays(learned, "tricklet", 3));
  assert.ok(!levelPlays(learned, "mattis", 3, "mini"));
  assert.ok(levelPlays(easy, "tricklet", 5, "mini"));
});
