// Words of the profile page (words.js): a bot seat's stored name with its level once, in
// the page's language, and a rating change's signed numbers with one minus sign.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";

const catalog = globalThis.fetch;
const BOTS = [
  { spec: "random", label: "Easy", aliases: [] },
  { spec: "heuristic", label: "Medium", aliases: [] },
];
globalThis.fetch = async (url, init) =>
  String(url).startsWith("/api/games") ? { ok: true, json: async () => ({ games: {}, bots: BOTS }) } : catalog(url, init);
const { botSeatName, dateText, signed } = await import("../../tikki/web/static/words.js");

test("a bot seat's stored name shows its level once", () => {
  assert.equal(botSeatName("Aino (Medium)", "heuristic"), "Aino (Medium)");
  assert.equal(botSeatName("Eino (Easy)", "random"), "Eino (Easy)");
  assert.equal(botSeatName("Aino", "heuristic"), "Aino (Medium)");
  assert.equal(botSeatName(null, "random"), "Easy");
});

test("signed numbers use one minus sign throughout", () => {
  assert.equal(signed(-2.44), "−2.4");
  assert.equal(signed(2.44), "2.4");
  assert.equal(signed(2.44, true), "+2.4");
  assert.equal(signed(0, true), "+0.0");
  assert.equal(signed(-0.04), "0.0");
});

test("dates read in the page's language", () => {
  assert.equal(dateText("2026-12-06T12:00:00+00:00", "de"), "06.12.2026");
  assert.equal(dateText("2026-12-06T12:00:00+00:00", "fi"), "6.12.2026");
  assert.equal(dateText("2026-12-06T12:00:00+00:00", "en"), "Dec 6, 2026");
  assert.equal(dateText("2026-12-06", "de"), "06.12.2026");
  assert.equal(dateText("2026-12-06"), "Dec 6, 2026"); // the page's language (English here)
  assert.equal(dateText("not a date", "de"), "not a date");
  assert.equal(dateText("", "de"), "");
});
