// The games' renderers (render/*.js) without a browser: every hook table.js calls answers
// text for real views of each game. The views come from the engine: tests/test_web_js.py
// writes them to the file named by TIKKI_VIEWS ([{game, seat, view, outcome}]).
import "./setup.js";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import generic from "../../tikki/web/static/render/generic.js";
import mattis from "../../tikki/web/static/render/mattis.js";
import mueckenstich from "../../tikki/web/static/render/mueckenstich.js";
import myllymatti from "../../tikki/web/static/render/myllymatti.js";

const RENDERERS = { myllymatti, mattis, mueckenstich };
const HOOKS = ["phase", "centre", "prompt", "result", "seatStats", "seatBadges", "seatExtra", "sheet"];
const path = process.env.TIKKI_VIEWS;

test("every renderer has the hooks table.js calls", () => {
  for (const [name, R] of Object.entries({ generic, ...RENDERERS })) {
    for (const hook of HOOKS) assert.equal(typeof R[hook], "function", `${name}.${hook}`);
  }
});

test("the renderers draw the engine's views", { skip: path ? false : "TIKKI_VIEWS is not set (run through tests/test_web_js.py)" }, () => {
  const samples = JSON.parse(readFileSync(path, "utf8"));
  assert.ok(samples.length >= 9, "views of every game");
  for (const { game, seat, view, outcome } of samples) {
    const R = RENDERERS[game] ?? generic; // a plug-in's game: the table draws it so too
    const names = view.hand_sizes ? view.hand_sizes.map((_n, s) => (s === seat ? "You" : `P${s + 1}`)) : ["You", "P2", "P3"];
    const ctx = { plainNames: names, names, mySeat: seat, legal: view.legal_moves, outcome, memoryAids: false };
    const shown = R.tableView ? R.tableView(view, ctx) : view;
    const where = `${game} seat ${seat} phase ${view.phase}`;
    const parts = [R.phase(shown), R.centre(shown, ctx), R.sheet(shown, ctx)];
    if (view.phase === "over") parts.push(R.result(shown, ctx));
    else parts.push(R.prompt(shown, ctx));
    for (let s = 0; s < names.length; s++) {
      parts.push(R.seatStats(shown, s).flat().join(" "), R.seatExtra(shown, s), JSON.stringify(R.seatBadges(shown, s)));
    }
    for (const part of parts) {
      assert.equal(typeof part, "string", where);
      assert.doesNotMatch(part, /undefined|NaN|\[object Object\]/, `${where}: ${part.slice(0, 300)}`);
    }
    assert.ok(parts[1].length > 0, `${where}: an empty centre`);
  }
});

test("the generic renderer draws any game's view", { skip: path ? false : "TIKKI_VIEWS is not set (run through tests/test_web_js.py)" }, () => {
  for (const { game, seat, view, outcome } of JSON.parse(readFileSync(path, "utf8"))) {
    const names = view.hand_sizes.map((_n, s) => (s === seat ? "You" : `P${s + 1}`));
    const ctx = { plainNames: names, names, mySeat: seat, legal: view.legal_moves, outcome, memoryAids: false };
    const parts = [generic.phase(view), generic.centre(view, ctx), generic.prompt(), generic.result(view, ctx)];
    for (let s = 0; s < names.length; s++) parts.push(generic.seatStats(view, s).flat().join(" "));
    for (const part of parts) assert.doesNotMatch(part, /undefined|NaN|\[object Object\]/, `${game}: ${part.slice(0, 300)}`);
  }
});

test("the generic renderer shows the trick, the stock, the last trick, the seats' counts and the scores", () => {
  const view = {
    game: "any", players: 3, seat: 0, phase: "play", to_act: 0, legal_moves: ["QH"], hand: ["QH", "AS"],
    hand_sizes: [2, 1, 1], piles: [[], ["TS", "JS", "KS"], []], stock_size: 8, trump: "H", scores: [0, 1, 0],
    trick: [{ seat: 1, card: "KD" }, { seat: 2, card: "TD" }], last_trick: { winner: 1, cards: [{ seat: 0, card: "TS" }] },
  };
  const names = ["You", "Anna", "Ben"];
  const ctx = { names, legal: ["QH"] };
  const centre = generic.centre(view, ctx);
  assert.match(centre, /Anna/);
  assert.match(centre, /data-card="KD"|aria-label="king of diamonds"/);
  assert.match(centre, /Stock · 8/);
  assert.match(centre, /won by Anna/);
  assert.deepEqual(generic.seatStats(view, 1), [["Hand", 1], ["Pile", 3], ["Score", "1"]]);
  const over = { ...view, phase: "over", scores: [2, 3, 0] };
  assert.match(generic.result(over, ctx), /Anna wins with 3 points\./);
  assert.equal(generic.phase(over), "Game over");
});
