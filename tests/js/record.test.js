// The replay page's packing of an uploaded record (replay/record.js): whitespace goes,
// every token stays as written (a 128-bit seed is no float), and pack/unpack round-trip.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";

const { compactJson, pack, unpack } = await import("../../tikki/web/static/replay/record.js");

const SEED = "170141183460469231731687303715884105727";

test("a record compacts without touching its numbers or strings", () => {
  const text = `{\n  "seed": ${SEED},\n  "names": ["A \\" b", "tab\\there"],\n  "x": 1.50\n}\n`;
  const out = compactJson(text);
  assert.equal(out, `{"seed":${SEED},"names":["A \\" b","tab\\there"],"x":1.50}`);
  assert.deepEqual(JSON.parse(out), JSON.parse(text));
});

test("a packed record unpacks to the same text", async () => {
  const text = compactJson(`{"seed": ${SEED}, "moves": ["7H", "take"]}`);
  assert.equal(await unpack(await pack(text)), text);
});
