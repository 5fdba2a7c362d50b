// @ts-check
// The table page's state, without the DOM: a server message in, the new state out
// (docs/protocol.md). table.js draws the state and connection.js carries the messages;
// everything here runs under `node --test` (tests/js/) as it runs in the browser.
import { eventLines } from "./events.js";
import { classify, extensions, parseMove } from "./moves.js";
import { _ } from "./i18n.js";

/**
 * @typedef {object} Seat One seat of a table (docs/protocol.md: the table object).
 * @property {number} seat
 * @property {"human" | "bot" | "open"} kind
 * @property {string} [name]
 * @property {boolean} [connected]
 * @property {"account" | "guest" | "bot" | null} [holder] who holds the seat (null: open)
 * @property {boolean} [anyone]
 * @property {string | null} [stand_in] the bot that plays this person's seat (resigned or away)
 * @property {boolean} [resigned] the person resigned (a bot plays their seat to the end)
 * @property {boolean} [may_hand_over] the others may let a bot play this person's seat now
 */

/**
 * @typedef {object} Table The table object of a state message.
 * @property {string} id
 * @property {string} game
 * @property {string} title
 * @property {string} [variant]
 * @property {Record<string, unknown>} [options] the game's options
 * @property {number} players
 * @property {Seat[]} seats
 * @property {object | null} [outcome]
 * @property {boolean} [memory_aids]
 * @property {boolean} [forced_moves] a seat's only legal move plays by itself
 * @property {string[]} [selecting_phases] phases where a click on a card selects it (plays of
 * several cards: runs, sequences)
 * @property {boolean} [rated]
 * @property {boolean} [rematch] the others asked to play again
 * @property {string | null} [expires] when a waiting table closes
 * @property {Takeover[]} [takeovers] the history entries a stand-in bot played for a seat
 * @property {TurnTimer | null} [timer] the turn timer of the seat to act (none: no timer)
 * @property {string} [on_timeout] what happens when a turn's time is up: `wait` or `bot`
 * @property {boolean} [correspondence] a game that lasts days: the timer is hours a move
 */

/**
 * @typedef {object} Takeover A stand-in bot playing a person's seat, from history entry
 * `from` to `to` (null: it plays on).
 * @property {number} seat
 * @property {number} from
 * @property {number | null} to
 * @property {string} bot
 * @property {string} why `resigned`, `away`, `timeout` or `timer`
 */

/**
 * @typedef {object} TurnTimer The turn timer (`table.timer`).
 * @property {number} seat the seat whose turn it times
 * @property {number} seconds
 * @property {number} left seconds left when the message was sent
 * @property {boolean} timed_out
 */

/**
 * @typedef {object} GameEvent One engine event of a history entry (docs/events.md).
 * @property {string} type
 * @property {number} [winner]
 * @property {{seat: number, card: string}[]} [cards]
 */

/**
 * @typedef {object} HistoryEntry One move of the history, as the seat's view shows it.
 * @property {number | null} seat
 * @property {string} move
 * @property {GameEvent[]} [events]
 */

/**
 * @typedef {object} LastTrick The trick that last left the table (`view.last_trick`).
 * @property {string} [kind] `trick`, `falls` or `void_tie`
 * @property {number} [winner]
 * @property {{seat: number, card: string}[]} [cards]
 */

/**
 * @typedef {object} View The seat's view of the game (the engine's `view(seat)`; each game
 * adds its own keys, which the renderers read).
 * @property {string} phase
 * @property {number | null} to_act
 * @property {string[]} legal_moves
 * @property {string[]} [hand]
 * @property {HistoryEntry[]} [history]
 * @property {[number, number]} [memory_hidden] history entries whose won cards are face down
 * @property {LastTrick | null} [last_trick]
 */

/**
 * @typedef {object} StateMessage `{"type": "state"}`: the table as one seat sees it.
 * @property {"state"} type
 * @property {number} seq
 * @property {number | null} seat
 * @property {"waiting" | "playing" | "finished"} status
 * @property {Table} table
 * @property {View} view
 * @property {number[]} [forced] the history entries of this seat played by themselves
 * @property {number} [devices] how many devices hold this seat
 * @property {number} [history_from] a history delta (the hello asked for them): the index
 * of the view's first history entry in the whole history (see `wholeHistory`)
 */

/**
 * @typedef {object} ErrorMessage `{"type": "error"}`: a refused message.
 * @property {"error"} type
 * @property {string} code
 * @property {string} [message]
 */

/**
 * @typedef {object} HintMessage `{"type": "hint"}`: a bot's suggestion for this seat.
 * @property {"hint"} type
 * @property {string} move
 * @property {string} bot
 */

/** @typedef {StateMessage | ErrorMessage | HintMessage | {type: string}} ServerMessage */

/**
 * @typedef {object} TableState What the page knows: the latest state message, the cards
 * selected for a run or sequence, and the hint shown.
 * @property {StateMessage | null} msg
 * @property {string[]} selected
 * @property {HintMessage | null} hint
 */

/**
 * @typedef {object} Notice A message for the notice bar.
 * @property {string} text
 * @property {"error" | "info"} kind
 */

/**
 * @typedef {object} Received The outcome of one server message.
 * @property {TableState} state the new state (the old one when nothing changed)
 * @property {boolean} render whether the page must be drawn again
 * @property {boolean} answered whether a move waiting for an answer got one
 * @property {Notice | null} notice what to tell the player
 * @property {boolean} sync whether to ask the server for the state again
 */

/**
 * @typedef {object} FinishedTrick A trick that left the table (its event, where it was).
 * @property {number} index its entry in the history
 * @property {string} key table id and index
 * @property {string} type `trick`, `falls` or `void_tie`
 * @property {number} [winner]
 * @property {{seat: number, card: string}[]} [cards]
 */

/** How long a finished trick stays on the table at least, in ms (it also stays until the
 * next move). A page may set `globalThis.TIKKI_TRICK_HOLD_MS` before this module loads
 * (the browser tests shorten it: they watch whole games, not the pause). */
export const TRICK_HOLD_MS = holdMs(/** @type {any} */ (globalThis).TIKKI_TRICK_HOLD_MS);

/**
 * @param {unknown} asked a hold in ms, or anything else for the default
 * @returns {number} `asked` if it is a whole number from 0 to 10,000, else 1600
 */
export function holdMs(asked) {
  return Number.isInteger(asked) && /** @type {number} */ (asked) >= 0 &&
    /** @type {number} */ (asked) <= 10_000 ? /** @type {number} */ (asked) : 1600;
}

/** The events that take a trick off the table. */
export const TRICK_EVENTS = ["trick", "falls", "void_tie"];

/** @returns {TableState} the state of a page that has heard nothing yet */
export function initialState() {
  return { msg: null, selected: [], hint: null };
}

/**
 * @param {TableState} state
 * @param {Partial<Received>} [changes]
 * @returns {Received}
 */
function outcome(state, changes = {}) {
  return { state, render: false, answered: false, notice: null, sync: false, ...changes };
}

/**
 * A state message with its whole history (docs/protocol.md, history deltas): a message
 * with `history_from` carries only the entries this socket was not sent yet, so they go
 * after the first `history_from` entries of `kept`, the whole history of the socket's
 * last state; the message comes back without `history_from`. One without it (an older
 * server) is whole already and comes back as it is.
 * @param {HistoryEntry[]} kept the whole history of the socket's previous state message
 * @param {StateMessage} m
 * @returns {StateMessage}
 */
export function wholeHistory(kept, m) {
  const start = m.history_from;
  if (typeof start !== "number" || !m.view) return m;
  const { history_from: _from, ...rest } = m;
  const history = kept.slice(0, start).concat(m.view.history || []);
  return { ...rest, view: { ...m.view, history } };
}

/**
 * A server message in, the new state out (nothing else is changed).
 * @param {TableState} state
 * @param {ServerMessage} m
 * @returns {Received}
 */
export function receive(state, m) {
  if (m.type === "state") return receiveState(state, /** @type {StateMessage} */ (m));
  if (m.type === "error") return receiveError(state, /** @type {ErrorMessage} */ (m));
  if (m.type === "hint") {
    const hint = /** @type {HintMessage} */ (m);
    const parsed = parseMove(hint.move);
    const selected = parsed.verb === "play" && parsed.cards.length > 1 ? [...parsed.cards] : state.selected;
    return outcome({ ...state, hint, selected }, { render: true });
  }
  return outcome(state);
}

/**
 * @param {TableState} state
 * @param {StateMessage} m
 * @returns {Received}
 */
function receiveState(state, m) {
  const old = state.msg;
  if (old && m.seq < old.seq && m.table && m.table.id === old.table.id) return outcome(state);
  const fresh = !old || m.seq !== old.seq;
  const next = fresh ? { msg: m, selected: [], hint: null } : { ...state, msg: m };
  return outcome(next, { render: true, answered: true });
}

/**
 * @param {TableState} state
 * @param {ErrorMessage} m
 * @returns {Received}
 */
function receiveError(state, m) {
  if (m.code === "stale") {
    const text = _("The table moved on before your move arrived; here is the current state.");
    return outcome(state, { answered: true, notice: { text, kind: "info" }, sync: true });
  }
  if (m.code === "not_started") {
    const text = _("The game starts when every seat is taken.");
    return outcome(state, { answered: true, notice: { text, kind: "info" } });
  }
  if (m.code === "bad_token" || m.code === "unknown_table") {
    return outcome(state, { answered: true }); // the close code that follows decides what to do
  }
  const text = m.message || _("That did not work.");
  return outcome(state, { answered: true, notice: { text, kind: "error" } });
}

/**
 * Whether the seat of this page is to play now (a bot plays the seat of a person who
 * resigned or left).
 * @param {StateMessage} m
 * @returns {boolean}
 */
export function myTurn(m) {
  return (
    m.seat !== null &&
    m.seat !== undefined &&
    m.status === "playing" &&
    m.view.to_act === m.seat &&
    !m.table.seats[m.seat]?.stand_in
  );
}

/**
 * @typedef {object} Picked What a click on a hand card does.
 * @property {TableState} state the new selection
 * @property {string | null} play the move to play at once (a card that is a move by itself)
 */

/**
 * Whether the phase lets a play be several cards (sequences, runs: the table's
 * `selecting_phases`, as the game declares them for its options): there every click on a
 * card selects it and *Play* plays the selection, whether or not the card starts a
 * sequence this turn (one behaviour a player can learn; docs/players.md).
 * @param {StateMessage | null} m
 */
export function selectsCards(m) {
  return Boolean(m && m.table.selecting_phases?.includes(m.view.phase));
}

/**
 * A hand card clicked: play it when it is a move by itself, nothing is selected and the
 * phase has no several-card plays (:func:`selectsCards`), else select or unselect it
 * (runs and sequences are several cards).
 * @param {TableState} state
 * @param {string} card
 * @returns {Picked}
 */
export function pickCard(state, card) {
  const legal = state.msg ? state.msg.view.legal_moves : [];
  const { single, multi } = classify(legal);
  const inMulti = multi.some(([cards]) => cards.includes(card));
  if (!state.selected.length && !inMulti && single.has(card) && !selectsCards(state.msg)) {
    return { state, play: single.get(card) ?? null };
  }
  const selected = [...state.selected];
  const i = selected.indexOf(card);
  if (i >= 0) return { state: { ...state, selected: selected.filter((_c, k) => k !== i) }, play: null };
  if (selected.length && extensions(selected, legal).has(card)) {
    return { state: { ...state, selected: [...selected, card] }, play: null };
  }
  if (single.has(card) || inMulti) return { state: { ...state, selected: [card] }, play: null };
  return { state, play: null };
}

/**
 * @param {TableState} state
 * @returns {TableState} the state with nothing selected
 */
export function clearSelection(state) {
  return { ...state, selected: [] };
}

/**
 * Whether history entry `i` lies in the range of won tricks shown face down (table memory).
 * @param {View} view
 * @param {number} i
 */
export function faceDownAt(view, i) {
  const [from, to] = view.memory_hidden || [0, 0];
  return i >= from && i < to;
}

/**
 * What the latest moves did (the newest entry, among the last round of moves, whose events
 * say more than a draw): shown on the table under the trick.
 * @param {StateMessage} m
 * @param {string[]} names
 * @returns {string[]}
 */
export function recentEvents(m, names) {
  const history = m.view.history || [];
  const stop = Math.max(0, history.length - m.table.players);
  for (let i = history.length - 1; i >= stop; i--) {
    const faceDown = faceDownAt(m.view, i); // table memory: a won trick's cards stay hidden
    const events = (history[i].events || [])
      .filter((e) => e.type !== "draw")
      .map((e) => (faceDown && e.type === "trick" ? { ...e, cards: [] } : e));
    if (events.length) return eventLines({ ...history[i], events }, names, m.table.game);
  }
  return [];
}

/**
 * The tricks that left the table during the last rounds of moves, oldest first.
 * @param {StateMessage} m
 * @returns {FinishedTrick[]}
 */
export function finishedTricks(m) {
  const history = m.view.history || [];
  /** @type {FinishedTrick[]} */
  const out = [];
  for (let i = Math.max(0, history.length - 3 * m.table.players - 3); i < history.length; i++) {
    const event = (history[i].events || []).find((e) => TRICK_EVENTS.includes(e.type));
    if (event) out.push({ index: i, key: `${m.table.id}:${i}`, ...event });
  }
  return out;
}

/**
 * Which finished trick to show now: each stays TRICK_HOLD_MS at least, one after the
 * other, and the newest also until the next move, or while it is this seat's turn (so the
 * hand never moves under a finger about to play); a move of this seat's own after a trick
 * means it was seen. `seen` (trick key -> when first drawn) is updated.
 * @param {StateMessage} m
 * @param {Map<string, number>} seen
 * @param {number} now the time in ms
 * @returns {[FinishedTrick, number] | null} the trick and the ms left (0: until the next move)
 */
export function dueTrick(m, seen, now) {
  const history = m.view.history || [];
  const tricks = finishedTricks(m);
  if (!tricks.length) return null;
  const newest = tricks[tricks.length - 1];
  if (!seen.size) seen.set(newest.key, now); // a fresh page: the newest only
  for (const t of tricks) {
    const later = history.slice(t.index + 1);
    if (t === newest && !later.length) {
      if (!seen.has(t.key)) seen.set(t.key, now);
      return [t, 0];
    }
    if (later.some((e) => e.seat === m.seat)) continue;
    if (!seen.has(t.key)) {
      if (tricks.some((u) => u.index > t.index && seen.has(u.key))) continue;
      seen.set(t.key, now);
    }
    const left = TRICK_HOLD_MS - (now - (seen.get(t.key) ?? now));
    if (left > 0) return [t, left];
    if (t === newest && myTurn(m)) return [t, 0];
  }
  return null;
}

/**
 * Consecutive cards of one seat as one slot.
 * @param {{seat: number, card: string}[]} cards
 * @returns {[number, string[]][]}
 */
export function bySeat(cards) {
  /** @type {[number, string[]][]} */
  const out = [];
  for (const c of cards) {
    const last = out[out.length - 1];
    if (last && last[0] === c.seat) last[1].push(c.card);
    else out.push([c.seat, [c.card]]);
  }
  return out;
}
