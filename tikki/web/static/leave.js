// People who leave (issue #12 item 6): the turn timer's countdown, Resign (with a
// confirm step), "Let a bot play for NAME" when someone is away, "Take my seat back",
// and the lines saying which bot played for whom. table_extras.js calls renderLeave()
// after each render; the lobby reads the timer choice with timerChoice().
import { api, esc, seatNames } from "./api.js";

const $ = (sel) => document.querySelector(sel);

const WHY = {
  resigned: "resigned",
  away: "was away",
  timeout: "ran out of time",
  timer: "ran out of time",
};

const view = {
  msg: null, // the message the countdown was started from
  at: 0, // when it arrived (performance.now())
  timer: null, // the setInterval of the countdown
  confirming: false, // Resign asked, not yet confirmed
  busy: false,
  error: "",
  token: null,
};

/** The lobby's turn-timer choice, as create-request fields ({} for no timer). */
export function timerChoice() {
  const seconds = $("#turn-timer")?.value;
  if (!seconds) return {};
  return { turn_timer: Number(seconds), on_timeout: $("#on-timeout")?.value || "wait" };
}

/** Draw the countdown, the leave buttons and the stand-in lines for state message `m`. */
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

const mine = (m) => (m.seat !== null && m.seat !== undefined ? m.table.seats[m.seat] : null);

// ---------------------------------------------------------------- the countdown

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
    const who = timer.seat === m.seat ? "You have" : `${names[timer.seat]} has`;
    const whole = Math.ceil(left);
    const clock = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    const after = m.table.on_timeout === "bot" ? "then a bot plays this turn" : "then the others may let a bot play";
    box.textContent =
      timer.timed_out || whole === 0
        ? `${timer.seat === m.seat ? "Your" : `${names[timer.seat]}'s`} time for this turn is up.`
        : `${who} ${clock} left for this turn (${after}).`;
    box.dataset.left = String(whole);
    box.classList.toggle("low", whole <= 10);
  };
  tick();
  view.timer = setInterval(tick, 250);
}

// ---------------------------------------------------------------- the panel

function renderPanel(m, token) {
  const me = token ? mine(m) : null;
  const playing = m.status === "playing";
  const names = seatNames(m.table, m.seat);
  // beside the board (on a phone: below it): Resign and what the bots did
  const side = [];
  if (me && playing && !me.resigned && !me.stand_in) side.push(resignHtml());
  const lines = m.table.takeovers.map((t) => takeoverLine(t, names)).filter(Boolean);
  if (lines.length) side.push(`<ul class="takeovers">${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>`);
  fill($("#leave-side"), side.join(""), m, token);
  // on the board, only while there is something to do or know now
  const parts = [];
  if (me && playing && (me.resigned || me.stand_in)) parts.push(standInHtml(me));
  if (me && playing && !me.resigned) {
    for (const s of m.table.seats) {
      if (s.seat === m.seat || s.kind !== "human" || s.stand_in) continue;
      if (s.may_hand_over) {
        parts.push(
          `<p class="away-line"><span>${esc(names[s.seat])} is away.</span> ` +
            `<button type="button" class="secondary" data-hand-over="${s.seat}">Let a bot play for ${esc(names[s.seat])}</button></p>`,
        );
      }
    }
  }
  if (view.error) parts.push(`<p class="error-line" role="alert">${esc(view.error)}</p>`);
  fill($("#leave"), parts.join(""), m, token);
}

/** Put `html` into `box` (unless it is there already: focus and the confirm step stay)
 * and wire its buttons. */
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
  for (const button of box.querySelectorAll("[data-hand-over]")) {
    const seat = Number(button.dataset.handOver);
    button.addEventListener("click", () => act(() => api.handOver(m.table.id, seat, token)));
  }
}

function standInHtml(me) {
  if (me.resigned) {
    return `<p class="resigned-line">You resigned: a bot plays your seat to the end. You can still watch.</p>`;
  }
  return (
    `<p class="stand-in-line">A bot is playing for you while you were away. ` +
    `<button type="button" class="primary" id="take-back">Take my seat back</button></p>`
  );
}

function resignHtml() {
  if (view.confirming) {
    return (
      `<p class="resign-confirm" role="group" aria-label="Resign">Resign for good? A bot plays your seat to the end. ` +
      `<button type="button" class="danger" id="resign-yes">Yes, resign</button> ` +
      `<button type="button" class="secondary" id="resign-no">Cancel</button></p>`
    );
  }
  return `<p class="resign-line"><button type="button" class="secondary small" id="resign">Resign</button></p>`;
}

function takeoverLine(t, names) {
  const who = names[t.seat];
  const level = t.bot === "heuristic" ? "Medium" : t.bot;
  if (t.why === "timer") return `${who} ran out of time at move ${t.from + 1}: a bot (${level}) played that turn.`;
  const until = t.to === null ? "" : ` until move ${t.to + 1}, when ${who === "You" ? "you" : who} came back`;
  return `${who} ${WHY[t.why] ?? t.why}: a bot (${level}) played from move ${t.from + 1}${until}.`;
}

async function act(request) {
  if (view.busy) return;
  view.busy = true;
  view.confirming = false;
  try {
    await request(); // the new state arrives over the WebSocket
  } catch (err) {
    view.error = err.message;
    if (view.msg) renderPanel(view.msg, view.token);
  } finally {
    view.busy = false;
  }
}
