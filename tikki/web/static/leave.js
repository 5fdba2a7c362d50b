// @ts-check
// People who leave: the turn timer's countdown, Resign (with a
// confirm step), "Let a bot play for NAME" when someone is away, "Take my seat back",
// and the lines saying which bot played for whom. table_extras.js calls renderLeave()
// after each render; the lobby reads the timer choice with timerChoice().
import { api, esc, seatNames } from "./api.js";
import { _ } from "./i18n.js";
import { levelName } from "./words.js";
import { deadlineLine } from "./correspondence.js";

/** @typedef {import("./store.js").StateMessage} StateMessage */
/** @typedef {import("./store.js").Seat} Seat */
/** @typedef {import("./store.js").Takeover} Takeover */

/** @param {string} sel */
const $ = (sel) => /** @type {HTMLElement | null} */ (document.querySelector(sel));


const view = {
  /** @type {any} */
  msg: null, // the message the countdown was started from
  at: 0, // when it arrived (performance.now())
  /** @type {ReturnType<typeof setInterval> | undefined} */
  timer: undefined, // the setInterval of the countdown
  confirming: false, // Resign asked, not yet confirmed
  busy: false,
  error: "",
  /** @type {string | null} */
  token: null,
};

/** The lobby's turn-timer choice, as create-request fields ({} for no timer); "24h" and
 * the like are a correspondence table's hours a move.
 * @returns {{turn_timer?: number | string, on_timeout?: string}} */
export function timerChoice() {
  const seconds = /** @type {HTMLSelectElement | null} */ ($("#turn-timer"))?.value;
  if (!seconds) return {};
  return { turn_timer: seconds.endsWith("h") ? seconds : Number(seconds), on_timeout: /** @type {HTMLSelectElement | null} */ ($("#on-timeout"))?.value || "wait" };
}

/** Draw the countdown, the leave buttons and the stand-in lines for state message `m`.
 * @param {StateMessage} m
 * @param {string | null} token this page's seat token */
export function renderLeave(m, token) {
  view.token = token;
  if (m !== view.msg) {
    view.msg = m;
    view.at = performance.now();
    view.error = "";
  }
  renderCountdown();
  renderPanel(m, token);
}

/**
 * @param {StateMessage} m
 * @returns {Seat | null}
 */
const mine = (m) => (m.seat !== null && m.seat !== undefined ? m.table.seats[m.seat] : null);

// ---------------------------------------------------------------- the countdown

/** @returns {number | null} */
function secondsLeft() {
  const timer = view.msg?.table?.timer;
  if (!timer) return null;
  return Math.max(0, timer.left - (performance.now() - view.at) / 1000);
}

function renderCountdown() {
  const box = $("#turn-timer");
  if (!box) return;
  const m = view.msg;
  const timer = m && m.status === "playing" ? m.table.timer : null;
  box.hidden = !timer;
  clearInterval(view.timer);
  if (!timer) return;
  const tick = () => {
    const left = secondsLeft();
    if (left === null) return;
    const names = seatNames(m.table, m.seat);
    const you = timer.seat === m.seat;
    const name = names[timer.seat];
    const whole = Math.ceil(left);
    if (m.table.correspondence) {
      box.textContent = deadlineLine({ you, name, left, timedOut: timer.timed_out });
      box.dataset.left = String(whole);
      return;
    }
    const clock = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    const bot = m.table.on_timeout === "bot";
    let text;
    if (timer.timed_out || whole === 0) {
      text = you ? _("Your time for this turn is up.") : _("{name}'s time for this turn is up.", { name });
    } else if (you) {
      text = bot
        ? _("You have {clock} left for this turn (then a bot plays this turn).", { clock })
        : _("You have {clock} left for this turn (then the others may let a bot play).", { clock });
    } else {
      text = bot
        ? _("{name} has {clock} left for this turn (then a bot plays this turn).", { name, clock })
        : _("{name} has {clock} left for this turn (then the others may let a bot play).", { name, clock });
    }
    box.textContent = text;
    box.dataset.left = String(whole);
    box.classList.toggle("low", whole <= 10);
  };
  tick();
  view.timer = setInterval(tick, 250);
}

// ---------------------------------------------------------------- the panel

/**
 * @param {StateMessage} m
 * @param {string | null} token
 */
function renderPanel(m, token) {
  const me = token ? mine(m) : null;
  const playing = m.status === "playing";
  const names = seatNames(m.table, m.seat);
  // beside the board (on a phone: below it): Resign and what the bots did
  const side = [];
  if (me && playing && !me.resigned && !me.stand_in) side.push(resignHtml());
  const lines = /** @type {Takeover[]} */ (m.table.takeovers).map((t) => takeoverLine(t, names, m.seat)).filter(Boolean);
  if (lines.length) side.push(`<ul class="takeovers">${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>`);
  fill($("#leave-side"), side.join(""), m, token);
  // on the board, only while there is something to do or know now
  const parts = [];
  if (me && playing && (me.resigned || me.stand_in)) parts.push(standInHtml(me, /** @type {Takeover[]} */ (m.table.takeovers)));
  // Anyone seated may hand over a seat, a player who resigned and still watches too (the
  // server does it by itself when nobody who still plays is here: docs/players.md).
  if (me && playing) {
    for (const s of m.table.seats) {
      if (s.seat === m.seat || s.kind !== "human" || s.stand_in) continue;
      if (s.may_hand_over) parts.push(handOverHtml(s, esc(names[s.seat])));
    }
  }
  if (view.error) parts.push(`<p class="error-line" role="alert">${esc(view.error)}</p>`);
  fill($("#leave"), parts.join(""), m, token);
}

/** Put `html` into `box` (unless it is there already: focus and the confirm step stay)
 * and wire its buttons.
 * @param {HTMLElement | null} box
 * @param {string} html
 * @param {StateMessage} m
 * @param {string | null} token */
function fill(box, html, m, token) {
  if (!box) return;
  box.hidden = !html;
  if (box.dataset.html === html) return; // keep focus and the confirm step as they are
  box.dataset.html = html;
  box.innerHTML = html;
  box.querySelector("#resign")?.addEventListener("click", () => {
    view.confirming = true;
    renderPanel(view.msg, view.token);
    $("#resign-yes")?.focus();
  });
  box.querySelector("#resign-no")?.addEventListener("click", () => {
    view.confirming = false;
    renderPanel(view.msg, view.token);
  });
  box.querySelector("#resign-yes")?.addEventListener("click", () => act(() => api.resign(m.table.id, token)));
  box.querySelector("#take-back")?.addEventListener("click", () => act(() => api.back(m.table.id, token)));
  for (const button of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll("[data-hand-over]"))) {
    const seat = Number(button.dataset.handOver);
    button.addEventListener("click", () => act(() => api.handOver(m.table.id, seat, token)));
  }
}

/** The line and button for a seat the others may hand to a bot: a person who is here but
 * whose turn timer ran out (a bot plays that one turn), or a person who is away (a bot
 * plays until they come back). `name` is escaped.
 * @param {Seat} s
 * @param {string} name
 * @returns {string} */
function handOverHtml(s, name) {
  // the countdown above already says that the time is up
  const [line, button] = s.connected
    ? ["", _("Let a bot play this turn for {name}", { name })]
    : [_("{name} is away.", { name }), _("Let a bot play for {name}", { name })];
  return (
    `<p class="away-line">${line ? `<span>${line}</span> ` : ""}` +
    `<button type="button" class="secondary" data-hand-over="${s.seat}">${button}</button></p>`
  );
}

/**
 * @param {Seat} me
 * @param {Takeover[]} takeovers
 * @returns {string}
 */
function standInHtml(me, takeovers) {
  if (me.resigned) {
    const resigned = _("You resigned: a bot plays your seat to the end. You can still watch.");
    return `<p class="resigned-line">${esc(resigned)}</p>`;
  }
  const now = takeovers.filter((t) => t.seat === me.seat && t.to === null).pop();
  if (now && now.why === "timeout") {
    const turn = _("Your time for this turn ran out: a bot plays this one turn for you.");
    return `<p class="stand-in-line">${esc(turn)}</p>`;
  }
  const playing = _("You were away, so a bot plays your seat until you take it back.");
  const back = _("Take my seat back");
  return (
    `<p class="stand-in-line">${esc(playing)} ` +
    `<button type="button" class="primary" id="take-back">${esc(back)}</button></p>`
  );
}

/** @returns {string} */
function resignHtml() {
  const resign = esc(_("Resign"));
  if (view.confirming) {
    const ask = _("Resign for good? A bot plays your seat to the end.");
    const yes = _("Yes, resign");
    const cancel = _("Cancel");
    return (
      `<p class="resign-confirm" role="group" aria-label="${resign}">${esc(ask)} ` +
      `<button type="button" class="danger" id="resign-yes">${esc(yes)}</button> ` +
      `<button type="button" class="secondary" id="resign-no">${esc(cancel)}</button></p>`
    );
  }
  return `<p class="resign-line"><button type="button" class="secondary small" id="resign">${resign}</button></p>`;
}

/** What a bot did for a person: whole sentences, a "you" form and an "other" form.
 * @param {Takeover} t
 * @param {string[]} names
 * @param {number | null} mySeat
 * @returns {string} */
function takeoverLine(t, names, mySeat) {
  const p = { name: names[t.seat], level: levelName(t.bot), from: t.from + 1, to: t.to === null ? 0 : t.to + 1 };
  const you = t.seat === mySeat;
  const back = t.to !== null;
  if (t.why === "timer" || (t.why === "timeout" && (!back || t.to === t.from + 1))) {
    return you
      ? _("You ran out of time at move {from}: a bot ({level}) played that turn.", p)
      : _("{name} ran out of time at move {from}: a bot ({level}) played that turn.", p);
  }
  if (t.why === "resigned") {
    return you
      ? _("You resigned: a bot ({level}) played from move {from}.", p)
      : _("{name} resigned: a bot ({level}) played from move {from}.", p);
  }
  if (t.why === "away") {
    if (back) {
      return you
        ? _("You were away: a bot ({level}) played from move {from} until move {to}, when you came back.", p)
        : _("{name} was away: a bot ({level}) played from move {from} until move {to}, when {name} came back.", p);
    }
    return you
      ? _("You were away: a bot ({level}) played from move {from}.", p)
      : _("{name} was away: a bot ({level}) played from move {from}.", p);
  }
  if (back) {
    return you
      ? _("You ran out of time: a bot ({level}) played from move {from} until move {to}, when you came back.", p)
      : _("{name} ran out of time: a bot ({level}) played from move {from} until move {to}, when {name} came back.", p);
  }
  return you
    ? _("You ran out of time: a bot ({level}) played from move {from}.", p)
    : _("{name} ran out of time: a bot ({level}) played from move {from}.", p);
}

/** @param {() => Promise<unknown>} request */
async function act(request) {
  if (view.busy) return;
  view.busy = true;
  view.confirming = false;
  try {
    await request(); // the new state arrives over the WebSocket
  } catch (err) {
    view.error = /** @type {Error} */ (err).message;
    if (view.msg) renderPanel(view.msg, view.token);
  } finally {
    view.busy = false;
  }
}
