// The lobby's option help in players' words (words.js): the API's values of an option's
// choices, which its help names in parentheses for the command line, are left out there
// (the choice list shows the values in words), in every language.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";

const catalog = globalThis.fetch;
globalThis.fetch = async (url, init) =>
  String(url).startsWith("/api/games") ? { ok: true, json: async () => ({ games: {}, bots: [] }) } : catalog(url, init);
const { playerHelp } = await import("../../tikki/web/static/words.js");

test("a help's API values are left out, other words in parentheses stay", () => {
  const war = "in a war, must-match binds to the highest card of the war round (round) or of the whole trick (trick)";
  assert.equal(playerHelp(war, ["round", "trick"]), "in a war, must-match binds to the highest card of the war round or of the whole trick");
  const take =
    "what a player who does not beat picks up: the last card played (top), the bottom card (bottom, koira) or the whole trick (all)";
  assert.equal(
    playerHelp(take, ["top", "bottom", "all"]),
    "what a player who does not beat picks up: the last card played, the bottom card (koira) or the whole trick",
  );
  const fi = "sodassa lyöntipakko koskee sotakierroksen (round) tai koko tikin (trick) korkeinta korttia";
  assert.equal(playerHelp(fi, ["round", "trick"]), "sodassa lyöntipakko koskee sotakierroksen tai koko tikin korkeinta korttia");
  assert.equal(playerHelp("phase-1 tricks are duels; off: everyone plays (koira)", undefined), "phase-1 tricks are duels; off: everyone plays (koira)");
});
