// The heading above a trick being played: whole names on a wide screen, and a short form
// without the bots' levels that a phone shows instead (so the last name is not cut).
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { YOU } from "../../tikki/web/static/api.js";
import { roundHeadingHtml } from "../../tikki/web/static/render/common.js";

const names = [YOU, "Aino (Easy)", "Eero (Medium)"];

test("a trick heading has a short form without the bots' levels", () => {
  const html = roundHeadingHtml("trick", names, [0, 1, 2]);
  assert.match(html, /<span class="heading-wide">Trick: you, Aino \(Easy\) and Eero \(Medium\)<\/span>/);
  assert.match(html, /<span class="heading-short">Trick: you, Aino and Eero<\/span>/);
});

test("a heading without levels has one form, escaped", () => {
  assert.equal(roundHeadingHtml("duel", [YOU, "Anna <3"], [0, 1]), "Duel: you and Anna &lt;3");
});
