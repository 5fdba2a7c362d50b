// store.js without a browser: a server message in, the table state out (docs/protocol.md).
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  TRICK_HOLD_MS,
  bySeat,
  clearSelection,
  dueTrick,
  finishedTricks,
  holdMs,
  initialState,
  myTurn,
  pickCard,
  receive,
  recentEvents,
  wholeHistory,
} from "../../tikki/web/static/store.js";
import { doneTrickHtml, reviewHtml } from "../../tikki/web/static/render/trick.js";

/** A state message of a 3-player Mattis table, seat 0 to play. */
function stateMessage({ seq = 5, seat = 0, legal = ["5H", "6H", "7H", "5H+6H", "take"], history = [] } = {}) {
  return {
    type: "state",
    seq,
    seat,
    status: "playing",
    table: {
      id: "t1",
      game: "mattis",
      title: "Mattis",
      players: 3,
      selecting_phases: ["shed"],
      seats: [0, 1, 2].map((s) => ({ seat: s, kind: s ? "bot" : "human", name: `P${s}` })),
    },
    view: { phase: "shed", to_act: 0, legal_moves: legal, hand: ["5H", "6H", "7H"], history },
  };
}

const TRICK = { seat: 2, move: "9S", events: [{ type: "trick", winner: 1, cards: [{ seat: 0, card: "2S" }, { seat: 1, card: "KS" }, { seat: 2, card: "9S" }] }] };

test("a newer state replaces the old one and clears the selection and the hint", () => {
  const first = receive(initialState(), stateMessage({ seq: 5 }));
  assert.equal(first.render, true);
  assert.equal(first.answered, true);
  const selected = { ...first.state, selected: ["5H"], hint: { type: "hint", move: "5H", bot: "easy" } };
  const next = receive(selected, stateMessage({ seq: 6 }));
  assert.equal(next.state.msg.seq, 6);
  assert.deepEqual(next.state.selected, []);
  assert.equal(next.state.hint, null);
  const same = receive(selected, stateMessage({ seq: 5 }));
  assert.deepEqual(same.state.selected, ["5H"], "the same seq keeps the selection");
});

test("wholeHistory: a delta goes after the kept entries it starts from", () => {
  const a = { seat: 0, move: "5H" };
  const b = { seat: 1, move: "6H" };
  const c = { seat: 2, move: "7H" };
  const first = wholeHistory([], { ...stateMessage({ history: [a, b] }), history_from: 0 });
  assert.deepEqual(first.view.history, [a, b]);
  assert.equal("history_from" in first, false, "the message comes back whole");
  const next = wholeHistory(first.view.history, { ...stateMessage({ history: [c] }), history_from: 2 });
  assert.deepEqual(next, stateMessage({ history: [a, b, c] }));
  const changed = { ...b, events: [TRICK.events[0]] };
  const again = wholeHistory(next.view.history, { ...stateMessage({ history: [changed] }), history_from: 1 });
  assert.deepEqual(again.view.history, [a, changed], "an entry that changed comes again, the rest cut");
  const older = stateMessage({ history: [c] });
  assert.equal(wholeHistory([a, b], older), older, "without history_from it is whole already");
});

test("an older state of the same table changes nothing", () => {
  const state = receive(initialState(), stateMessage({ seq: 7 })).state;
  const old = receive(state, stateMessage({ seq: 6 }));
  assert.equal(old.state, state);
  assert.equal(old.render, false);
  assert.equal(old.answered, false);
});

test("errors answer the pending move; stale asks for the state again", () => {
  const state = initialState();
  const stale = receive(state, { type: "error", code: "stale" });
  assert.equal(stale.sync, true);
  assert.equal(stale.notice.kind, "info");
  assert.equal(stale.state, state);
  const bad = receive(state, { type: "error", code: "illegal_move", message: "7H is not legal" });
  assert.deepEqual(bad.notice, { text: "7H is not legal", kind: "error" });
  const closing = receive(state, { type: "error", code: "bad_token" });
  assert.equal(closing.notice, null);
  assert.equal(closing.answered, true);
  assert.equal(receive(state, { type: "pong" }).render, false);
});

test("a hint of a run selects its cards", () => {
  const state = receive(initialState(), stateMessage()).state;
  const got = receive(state, { type: "hint", move: "5H+6H", bot: "hard" });
  assert.deepEqual(got.state.selected, ["5H", "6H"]);
  assert.equal(got.state.hint.bot, "hard");
  assert.deepEqual(receive(state, { type: "hint", move: "take", bot: "hard" }).state.selected, []);
});

test("myTurn: the seat to act, playing, no stand-in bot", () => {
  const m = stateMessage();
  assert.equal(myTurn(m), true);
  assert.equal(myTurn({ ...m, seat: null }), false);
  assert.equal(myTurn({ ...m, status: "finished" }), false);
  const seats = m.table.seats.map((s) => (s.seat === 0 ? { ...s, stand_in: true } : s));
  assert.equal(myTurn({ ...m, table: { ...m.table, seats } }), false);
});

test("pickCard plays a lone card, selects the start of a run, and unselects", () => {
  const phase1 = stateMessage({ legal: ["7H", "stock"] });
  const lone = receive(initialState(), { ...phase1, view: { ...phase1.view, phase: "collect" } }).state;
  assert.equal(pickCard(lone, "7H").play, "7H");
  const runs = receive(initialState(), stateMessage()).state;
  const first = pickCard(runs, "5H");
  assert.equal(first.play, null);
  assert.deepEqual(first.state.selected, ["5H"]);
  assert.deepEqual(runs.selected, [], "the old state is not changed");
  const second = pickCard(first.state, "6H");
  assert.deepEqual(second.state.selected, ["5H", "6H"]);
  assert.deepEqual(pickCard(second.state, "5H").state.selected, ["6H"]);
  assert.deepEqual(clearSelection(second.state).selected, []);
});

test("finished tricks are found in the recent history, held TRICK_HOLD_MS, then gone", () => {
  const m = stateMessage({ history: [TRICK] });
  assert.deepEqual(
    finishedTricks(m).map((t) => [t.index, t.key, t.winner]),
    [[0, "t1:0", 1]],
  );
  const seen = new Map();
  assert.deepEqual(dueTrick(m, seen, 1000)?.[1], 0, "the newest stays until the next move");
  const later = stateMessage({ seat: 2, history: [TRICK, { seat: 1, move: "3D", events: [] }] });
  assert.equal(dueTrick(later, seen, 1000 + TRICK_HOLD_MS / 2)?.[1], TRICK_HOLD_MS / 2);
  assert.equal(dueTrick(later, seen, 1000 + TRICK_HOLD_MS), null, "held, then gone");
  const myTurnNow = stateMessage({ history: [TRICK, { seat: 1, move: "3D", events: [] }] });
  assert.deepEqual(
    dueTrick(myTurnNow, seen, 1000 + 10 * TRICK_HOLD_MS)?.[1],
    0,
    "on our turn the newest trick stays until we move: the hand does not jump under a finger",
  );
  const mine = stateMessage({ history: [TRICK, { seat: 0, move: "3D", events: [] }] });
  assert.equal(dueTrick(mine, new Map([["t1:0", 1000]]), 1001), null, "a move of one's own: seen");
});

test("the trick hold is 1600 ms unless a page asks for a whole number of ms up to 10 s", () => {
  assert.equal(TRICK_HOLD_MS, 1600, "nothing set: the players' hold");
  assert.equal(holdMs(150), 150);
  assert.equal(holdMs(0), 0);
  for (const bad of [undefined, null, -1, 1.5, "150", 10_001, NaN]) {
    assert.equal(holdMs(bad), 1600, `${String(bad)} is not a hold`);
  }
});

test("bySeat groups a seat's consecutive cards; the trick renderers name the winner", () => {
  assert.deepEqual(bySeat(TRICK.events[0].cards.concat([{ seat: 2, card: "TS" }])), [
    [0, ["2S"]],
    [1, ["KS"]],
    [2, ["9S", "TS"]],
  ]);
  const names = ["You", "Bea", "Cid"];
  const html = doneTrickHtml({ index: 0, key: "t1:0", ...TRICK.events[0] }, false, names);
  assert.match(html, /Trick won by Bea/);
  assert.match(html, /winner/);
  const hidden = doneTrickHtml({ index: 0, key: "t1:0", ...TRICK.events[0] }, true, names);
  assert.doesNotMatch(hidden, /KS|king/i, "face down: no card shows");
  const last = { kind: "trick", winner: 1, cards: TRICK.events[0].cards };
  assert.match(reviewHtml({ phase: "shed", to_act: 0, legal_moves: [], last_trick: last }, names, true), /<details[^>]* open/);
  assert.equal(reviewHtml({ phase: "shed", to_act: 0, legal_moves: [] }, names, false), "");
});

test("recentEvents describes the newest entry with events", () => {
  const lines = recentEvents(stateMessage({ history: [TRICK] }), ["You", "Bea", "Cid"]);
  assert.ok(lines.length > 0);
  assert.match(lines.join(" "), /Bea/);
  assert.deepEqual(recentEvents(stateMessage(), ["You", "Bea", "Cid"]), []);
});

test("in a phase of sequences every click selects: a card that starts none is selected too", () => {
  // Mattis phase 2: 7H starts no sequence, 5H does; both are selected, Play plays them
  const shed = receive(initialState(), stateMessage()).state;
  for (const card of ["7H", "5H"]) {
    const picked = pickCard(shed, card);
    assert.equal(picked.play, null, card);
    assert.deepEqual(picked.state.selected, [card]);
  }
  const alone = receive(initialState(), stateMessage({ legal: ["7H", "take"] })).state;
  assert.deepEqual(pickCard(alone, "7H").state.selected, ["7H"], "even with no sequence this turn");
  // a table whose options allow no several-card plays (Myllymatti without runs): the server
  // names no selecting phase, and a card is a whole move, played at once
  const plain = stateMessage({ legal: ["7H", "take"] });
  const mylly = { ...plain, table: { ...plain.table, game: "myllymatti", selecting_phases: [] } };
  assert.equal(pickCard(receive(initialState(), mylly).state, "7H").play, "7H");
  const runs = { ...mylly, table: { ...mylly.table, selecting_phases: ["shed"] } };
  assert.deepEqual(pickCard(receive(initialState(), runs).state, "7H").state.selected, ["7H"]);
});
