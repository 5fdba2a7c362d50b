// A plug-in game that bids (Oh Hell: `bid N` moves titled "a bid of {n}", a bidding phase
// before the tricks) on the generic table: the bid buttons read as buttons (the declared
// title, capitalised), the trick area does not say "You lead." while the seats bid, and the
// log does not say a bidder "leads" a bidding phase.
import "./setup.js";
import assert from "node:assert/strict";
import { test } from "node:test";

const catalog = globalThis.fetch;
const GAMES = {
  ohhell: {
    move_titles: { "bid {n}": "a bid of {n}" },
    phase_titles: { bid: "bidding", play: "playing tricks" },
    seat_facts: { bids: "Bid", tricks: "Tricks" },
  },
};
globalThis.fetch = async (url, init) =>
  String(url).startsWith("/api/games") ? { ok: true, json: async () => ({ games: GAMES, bots: [] }) } : catalog(url, init);
const { buttonLabel, moveChips, describe } = await import("../../tikki/web/static/moves.js");
const { default: generic } = await import("../../tikki/web/static/render/generic.js");
const { eventText } = await import("../../tikki/web/static/events.js");
const { YOU } = await import("../../tikki/web/static/api.js");

const names = [YOU, "Aino", "Eero"];

test("a bid button reads as a button: the declared title, capitalised", () => {
  assert.equal(buttonLabel("bid 2"), "A bid of 2");
  assert.equal(moveChips("bid 2"), "a bid of 2"); // inside a sentence it stays as declared
  assert.equal(describe({ move: "bid 0" }, false, "Aino"), "Aino: a bid of 0");
});

/** @param {object} over */
const biddingView = (over) => ({
  game: "ohhell", players: 3, seat: 0, phase: "bid", to_act: 0, hand: ["AS", "KD"], hand_sizes: [2, 2, 2],
  piles: [[], [], []], stock_size: 17, trump: "H", scores: [0, 0, 0], bids: [null, 1, 0], tricks: [0, 0, 0],
  trick: [], history: [], ...over,
});

test("while the seats bid, the trick area does not say who leads", () => {
  const mine = generic.centre(biddingView({}), { names, legal: ["bid 0", "bid 1", "bid 2"] });
  assert.doesNotMatch(mine, /lead/i);
  const theirs = biddingView({ to_act: 2, history: [{ seat: 1, move: "bid 1", events: [] }] });
  assert.doesNotMatch(generic.centre(theirs, { names, legal: [] }), /lead/i);
  // when the cards are played, it does
  assert.match(mine, /♥ hearts/); // the trump suit in words
  assert.doesNotMatch(mine, /Trick:/); // no empty trick heading while the seats bid
  const lastBid = { seat: 2, move: "bid 0", events: [{ type: "phase", phase: "play", leader: 0 }] };
  const play = biddingView({ phase: "play", history: [{ seat: 1, move: "bid 1" }, lastBid] });
  assert.match(generic.centre(play, { names, legal: ["AS", "KD"] }), /You lead\./);
  assert.match(generic.centre({ ...play, to_act: 1 }, { names, legal: [] }), /Aino leads\./);
});

test("the seat facts in words: the bid, or a dash before it is made", () => {
  const stats = generic.seatStats(biddingView({}), 0);
  assert.deepEqual(stats.slice(-2), [["Bid", "–"], ["Tricks", 0]]);
  assert.deepEqual(generic.seatStats(biddingView({}), 1).slice(-2), [["Bid", 1], ["Tricks", 0]]);
});

test("the log names who bids first, not who leads, when a declared phase begins", () => {
  const bidding = eventText({ type: "phase", phase: "bid", leader: 2 }, names, "ohhell", null);
  assert.equal(bidding, "Bidding; Eero goes first.");
  assert.equal(eventText({ type: "phase", phase: "bid", leader: 0 }, names, "ohhell", null), "Bidding; you go first.");
  const tricks = eventText({ type: "phase", phase: "play", leader: 1 }, names, "ohhell", null);
  assert.equal(tricks, "The tricks begin; Aino leads.");
});
