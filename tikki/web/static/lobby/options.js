// @ts-check
// The lobby's game options: a field for each option the chosen game declares (with its
// help in players' words and the rulings it follows), at the chosen variant's values, and
// the options read back where they differ from those.  Research options (a short deck,
// short hands) are left out: they make another game than the rules' (the API takes them).
import { esc } from "../api.js";
import { $ } from "../dom.js";
import { _ } from "../i18n.js";
import { optionName, optionValue, playerHelp } from "../words.js";

/**
 * @typedef {object} GameOption One option a game declares (GET /api/games).
 * @property {string} name
 * @property {string} type `bool`, `int` or another (text)
 * @property {any} default
 * @property {any[]} [choices]
 * @property {number} [minimum]
 * @property {number} [maximum]
 * @property {string} [text] its help in words
 * @property {string} [help]
 * @property {string[]} [rulings] the rulings it follows
 * @property {boolean} [research] a research set-up (a short deck, short hands)
 */

/**
 * @typedef {object} LobbyGame What the lobby reads of a game (GET /api/games).
 * @property {string} title
 * @property {string} [summary]
 * @property {boolean} [featured]
 * @property {{min: number, max: number, default: number}} players
 * @property {Record<string, Record<string, any>>} variants each variant's option values
 * @property {GameOption[]} options
 * @property {boolean} [memory_aids] the table option the game declares
 */

/**
 * The options' values at a variant: its own, else the options' defaults.
 * @param {LobbyGame} g
 * @param {string} variant
 * @returns {Record<string, any>}
 */
export function effectiveDefaults(g, variant) {
  const preset = g.variants[variant] || {};
  /** @type {Record<string, any>} */
  const out = {};
  for (const o of g.options) out[o.name] = o.name in preset ? preset[o.name] : o.default;
  return out;
}

/**
 * An option's help in words, the rulings it follows as small references.
 * @param {GameOption} o
 * @returns {string} HTML
 */
function optionHelp(o) {
  const refs = (o.rulings || []).map(
    (r) => `<small class="ruling-ref" title="${esc(_("ruling {id}", { id: r }))}">${esc(r)}</small>`,
  );
  return esc(playerHelp(o.text ?? o.help ?? "", o.choices)) + refs.join("");
}

/**
 * Draw the option fields of a game at a variant (and what the variant sets).
 * @param {LobbyGame} g
 * @param {string} variant
 */
export function renderOptions(g, variant) {
  const preset = g.variants[variant] || {};
  const presetText = Object.entries(preset)
    .map(([k, v]) => `${optionName(k)} = ${optionValue(v)}`)
    .join(", ");
  $("#variant-help").textContent = presetText ? _("This variant sets {options}.", { options: presetText }) : "";
  const defaults = effectiveDefaults(g, variant);
  const shown = g.options.filter((o) => !o.research);
  $("#options-box").hidden = shown.length === 0;
  $("#options").innerHTML = shown.map((o) => optionField(o, defaults[o.name])).join("");
}

/**
 * One option's field with its label and help.
 * @param {GameOption} o
 * @param {any} value its value at the variant
 * @returns {string} HTML
 */
function optionField(o, value) {
  const id = `opt-${o.name}`;
  const help = `<small id="${id}-help" class="help">${optionHelp(o)}</small>`;
  let input;
  if (o.type === "bool") {
    input =
      `<label class="check"><input type="checkbox" id="${id}" data-option="${esc(o.name)}" data-type="bool"` +
      `${value ? " checked" : ""} aria-describedby="${id}-help"> ${esc(optionName(o.name))}</label>`;
    return `<div class="option">${input}${help}</div>`;
  }
  if (o.choices) {
    input =
      `<select id="${id}" data-option="${esc(o.name)}" data-type="${esc(o.type)}" aria-describedby="${id}-help">` +
      o.choices
        .map((c) => `<option value="${esc(c)}"${c === value ? " selected" : ""}>${esc(optionValue(c))}</option>`)
        .join("") +
      `</select>`;
  } else {
    const min = o.minimum !== undefined ? ` min="${o.minimum}"` : "";
    const max = o.maximum !== undefined ? ` max="${o.maximum}"` : "";
    const type = o.type === "int" ? "number" : "text";
    input = `<input id="${id}" type="${type}"${min}${max} data-option="${esc(o.name)}" data-type="${esc(
      o.type,
    )}" value="${esc(value)}" aria-describedby="${id}-help">`;
  }
  return `<div class="option"><label for="${id}">${esc(optionName(o.name))}</label>${input}${help}</div>`;
}

/**
 * The options set in the fields that differ from the variant's values.
 * @param {LobbyGame} g
 * @param {string} variant
 * @returns {Record<string, any>}
 */
export function readOptions(g, variant) {
  const defaults = effectiveDefaults(g, variant);
  /** @type {Record<string, any>} */
  const out = {};
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#options [data-option]"))) {
    const name = el.dataset.option ?? "";
    let value;
    if (el.dataset.type === "bool") value = el.checked;
    else if (el.dataset.type === "int") value = Number(el.value);
    else value = el.value;
    if (value !== defaults[name]) out[name] = value;
  }
  return out;
}
