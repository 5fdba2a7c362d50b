// events.js without a browser: the log's sentences for events.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { YOU } from "../../tikki/web/static/api.js";
import { eventText } from "../../tikki/web/static/events.js";

const text = (/** @type {string} */ html) => html.replace(/<[^>]*>/g, "").replace(/\s+/g, " ").trim();

test("a deal reads as a deal, a draw as a draw", () => {
  const names = [YOU, "Aino (Medium)"];
  const deal = (/** @type {object} */ e) => text(eventText({ type: "draw", deal: true, ...e }, names, "mueckenstich", null));
  assert.equal(deal({ seat: 1, count: 15 }), "Aino (Medium) is dealt 15 cards.");
  assert.equal(deal({ seat: 1, count: 1 }), "Aino (Medium) is dealt a card.");
  assert.equal(deal({ seat: 0, count: 15 }), "You are dealt 15 cards.");
  assert.match(deal({ seat: 0, count: 2, cards: ["7H", "8H"] }), /^You are dealt 7.+8.+\.$/);
  assert.equal(text(eventText({ type: "draw", seat: 1, count: 2 }, names, "mattis", null)), "Aino (Medium) draws 2 cards.");
});
