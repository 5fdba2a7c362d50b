// @ts-check
// Your turn, told: a short chime made with WebAudio (no sound file),
// off by default and switched on by the table page's settings switch (remembered in
// localStorage), and a polite aria-live line that says "Your turn" once per turn.
import { storage } from "./api.js";
import { _ } from "./i18n.js";

const KEY = "tikki.sound";
const $ = (/** @type {string} */ sel) => /** @type {HTMLElement | null} */ (document.querySelector(sel));
const sound = {
  /** @type {AudioContext | null} */
  audio: null,
  /** whether this turn was told already, so that a re-render says nothing new */
  told: false,
  played: 0,
};

/** Whether the turn sound is on (off unless the player switched it on). */
export function soundOn() {
  return storage()?.getItem(KEY) === "on";
}

function context() {
  const Audio = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Audio) return null;
  if (!sound.audio) sound.audio = new Audio();
  if (sound.audio.state === "suspended") sound.audio.resume().catch(() => {});
  return sound.audio;
}

/** Two soft rising tones, about a quarter of a second. */
export function chime() {
  const ctx = context();
  sound.played += 1;
  const toggle = $("#sound-toggle");
  if (toggle) toggle.dataset.played = String(sound.played);
  if (!ctx) return;
  const start = ctx.currentTime + 0.01;
  [660, 880].forEach((freq, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const t = start + i * 0.13;
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.18, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.12);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.13);
  });
}

function drawToggle() {
  const toggle = /** @type {HTMLInputElement | null} */ ($("#sound-toggle"));
  if (toggle) toggle.checked = soundOn();
}

/** Wire the page's sound switch (the browser lets a page play sound after a click). */
export function initTurnSound() {
  const toggle = /** @type {HTMLInputElement | null} */ ($("#sound-toggle"));
  drawToggle();
  toggle?.addEventListener("change", () => {
    storage()?.setItem(KEY, toggle.checked ? "on" : "off");
    if (toggle.checked) chime(); // a sample, and the click unlocks the audio
  });
  // a remembered "on" needs one gesture on this page before the browser plays anything
  const unlock = () => soundOn() && context();
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
}

/** Tell the player once when their turn begins (not again while it goes on: a move of
 * their own that leaves them to act, a re-render); `mine`: it is their turn now. */
export function turnAlert(/** @type {boolean} */ mine) {
  const live = $("#turn-announce");
  if (!mine) {
    if (live && sound.told) live.textContent = "";
    sound.told = false;
    return;
  }
  if (sound.told) return;
  sound.told = true;
  if (live) live.textContent = _("Your turn.");
  if (soundOn()) chime();
}
