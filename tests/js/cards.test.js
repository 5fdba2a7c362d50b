// cards.js without a browser: card texts, names, sorting (RULINGS C-3).
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { cardKey, cardName, cardShort, isCard, parseCard, sortCards } from "../../tikki/web/static/cards.js";

test("parseCard reads French and Mückenstich cards and refuses others", () => {
  assert.deepEqual(parseCard("10h"), { kind: "french", rank: "T", suit: "H", text: "TH" });
  assert.equal(parseCard("MK").mosquito, true);
  assert.equal(parseCard("12R").number, "12");
  for (const bad of ["1H", "13R", "ZZ", "", "stock"]) assert.equal(parseCard(bad), null, bad);
  assert.equal(isCard("7S"), true);
  assert.equal(isCard("take"), false);
});

test("cardName and cardShort speak the card", () => {
  assert.equal(cardName("JS"), "jack of spades");
  assert.equal(cardName("7H"), "7 of hearts");
  assert.equal(cardName("MG"), "green mosquito");
  assert.equal(cardName("nonsense"), "nonsense");
  assert.equal(cardShort("TS"), "10♠");
});

test("sortCards orders by suit, then rank, and returns a new array", () => {
  const hand = ["2C", "AS", "MR", "3S", "12R", "TH"];
  const sorted = sortCards(hand);
  assert.deepEqual(sorted, ["3S", "AS", "TH", "2C", "12R", "MR"]);
  assert.deepEqual(hand[0], "2C");
  assert.deepEqual(cardKey("??"), [9, 0]);
});
