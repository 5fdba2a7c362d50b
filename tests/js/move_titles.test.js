// A plug-in game's moves that are no cards read as the game names them (its declared
// `move_titles`, served by GET /api/games in the page's language) on the move buttons
// and in the move lists (moves.js); a move without a title shows its text.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";

const catalog = globalThis.fetch;
const GAMES = { knocker: { move_titles: { knock: "Klopfen" } } };
globalThis.fetch = async (url, init) =>
  String(url).startsWith("/api/games") ? { ok: true, json: async () => ({ games: GAMES, bots: [] }) } : catalog(url, init);
const { buttonLabel, moveChips } = await import("../../tikki/web/static/moves.js");

test("a declared move title on the button and in the lists; others as they are", () => {
  assert.equal(buttonLabel("knock"), "Klopfen");
  assert.equal(moveChips("knock"), "Klopfen");
  assert.equal(buttonLabel("shout <b>"), "shout &#60;b&#62;");
  assert.equal(buttonLabel("take"), "Take");
});
