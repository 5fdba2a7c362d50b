// @ts-check
// The page's language: English (the source texts), Finnish and German, and the
// test locale `pseudo` (every text in ⟦…⟧). The catalogs are /static/i18n/LANG.json,
// generated from tikki/locale/*/LC_MESSAGES/web.po by `make catalogs-web`; a text missing
// from a catalog stays English.
//
// The language is the one chosen in the switcher (localStorage `tikki.lang`; `?lang=` in
// the address chooses too), else the first of the browser's languages we have, else English.
// Every module that imports this one waits for the catalog (top-level await), so `_()`
// answers in the page's language from the first render on.

/** The languages of the switcher, each named in itself. @type {Record<string, string>} */
export const LANGUAGES = { en: "English", fi: "suomi", de: "Deutsch" };
const TEST_LANGUAGES = ["pseudo"];
const KEY = "tikki.lang";

// Plural rules by their gettext expression (no eval under the page's CSP); the catalog
// generator accepts only these.
/** @type {Record<string, (n: number) => number>} */
const PLURAL_RULES = {
  "(n != 1)": (n) => (n !== 1 ? 1 : 0),
  "0": () => 0,
};

function stored() {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** @param {string} lang */
function store(lang) {
  try {
    window.localStorage.setItem(KEY, lang);
  } catch {
    // no storage (private mode): the choice holds for this page only
  }
}

/** @param {string} lang */
const known = (lang) => lang in LANGUAGES || TEST_LANGUAGES.includes(lang);

/** The language to show: `?lang=`, the stored choice, the browser's, else English. */
export function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && known(asked)) {
    store(asked);
    return asked;
  }
  const chosen = stored();
  if (chosen && known(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

/**
 * @param {string} lang
 * @returns {Promise<{lang: string, plural: string, messages: Record<string, string | string[]>}>}
 */
async function loadCatalog(lang) {
  try {
    const response = await fetch(`/static/i18n/${lang}.json`);
    if (response.ok) return await response.json();
  } catch {
    // fall through: English texts
  }
  console.warn(`tikki: no catalog for ${lang}; the texts stay English`);
  return { lang: "en", plural: "(n != 1)", messages: {} };
}

/** The page's language code (`en`, `fi`, `de` or `pseudo`). */
export const lang = chooseLanguage();
const catalog = await loadCatalog(lang);
const messages = catalog.messages || {};
const pluralIndex = PLURAL_RULES[catalog.plural] ?? PLURAL_RULES["(n != 1)"];

/** Put `{name}` parameters into a text; a missing one stays as it is.
 * @param {string} text
 * @param {Record<string, unknown>} [params]
 * @returns {string} */
export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ all, /** @type {string} */ name) => (name in params ? String(params[name]) : all));
}

/** A text in the page's language, with its `{name}` parameters filled in (as given: the
 * caller escapes what goes into HTML).
 * @param {string} msgid
 * @param {Record<string, unknown>} [params]
 * @returns {string} */
export function _(msgid, params) {
  const found = messages[msgid];
  return format(typeof found === "string" && found ? found : msgid, params);
}

/** A text with a count: the catalog's plural form for `n`; `{n}` is the count.
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Record<string, unknown>} [params]
 * @returns {string} */
export function ngettext(singular, plural, n, params) {
  const forms = messages[singular];
  const english = n === 1 ? singular : plural;
  let text = english;
  if (Array.isArray(forms)) text = forms[pluralIndex(n)] || english;
  return format(text, { n, ...params });
}

/** Marks a text for the catalog without translating it (for tables of texts).
 * @param {string} msgid */
export const N_ = (msgid) => msgid;

/** The value of `Accept-Language` for the server (its messages, summaries and help). */
export const acceptLanguage = () => (lang === "en" ? "en" : `${lang}, en;q=0.5`);

/** Translate the page's static HTML: elements with `data-i18n` (their text is the msgid)
 * and `data-i18n-attr="title aria-label placeholder"` (those attributes' values are). */
export function translatePage(root = document) {
  document.documentElement.lang = lang === "pseudo" ? "en" : lang;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) {
    if (el.dataset.i18nSource === undefined) el.dataset.i18nSource = el.textContent.trim().replace(/\s+/g, " ");
    el.textContent = _(el.dataset.i18nSource);
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-attr]"))) {
    for (const name of (el.dataset.i18nAttr ?? "").split(/\s+/).filter(Boolean)) {
      const key = `i18nSrc${name.replace(/-./g, (x) => x[1].toUpperCase()).replace(/^./, (x) => x.toUpperCase())}`;
      if (el.dataset[key] === undefined) el.dataset[key] = el.getAttribute(name) ?? "";
      el.setAttribute(name, _(el.dataset[key]));
    }
  }
}

/** The language switcher: a labelled `<select>` put into `host`; a choice is remembered
 * and the page reloads in it.
 * @param {Element | null} host */
export function languageSwitcher(host) {
  if (!host) return;
  const label = document.createElement("label");
  label.className = "lang-switch";
  const text = document.createElement("span");
  text.className = "visually-hidden";
  text.textContent = _("Language");
  const select = document.createElement("select");
  select.id = "lang-select";
  select.title = _("Language");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    select.append(new Option(name, code, code === lang, code === lang));
  }
  if (!(lang in LANGUAGES)) select.selectedIndex = -1;
  select.addEventListener("change", () => {
    store(select.value);
    const url = new URL(location.href);
    if (!url.searchParams.has("lang")) return location.reload();
    url.searchParams.delete("lang");
    location.replace(url.href);
  });
  label.append(text, select);
  host.append(label);
}
