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
    const R = RENDERERS[game];
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
