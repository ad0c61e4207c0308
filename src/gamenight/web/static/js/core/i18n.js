// @ts-check
// The page's words: the language chosen, the strings of each language, and the lookup that
// fills in {name} placeholders. The lookup itself (``lookup``) is pure: Node's tests call it.

const LANG_KEY = "gamenight.lang";
/** @type {Record<string, Record<string, string>>} the strings of each language loaded */
const strings = {};
let current = "en";
/** @type {((code: string) => void)[]} */
const listeners = [];

/** ``key``'s text in ``table``, else in ``fallback``, else the key itself, with each
 * {name} of ``vars`` filled in.
 * @param {Record<string, string> | undefined} table
 * @param {Record<string, string> | undefined} fallback
 * @param {string} key
 * @param {Record<string, unknown>} [vars]
 * @returns {string} */
export function lookup(table, fallback, key, vars = {}) {
  let text = (table || {})[key] ?? (fallback || {})[key] ?? key;
  for (const [name, value] of Object.entries(vars)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

/** The language the page speaks now: "en" or "ko". */
export function lang() {
  return current;
}

/** The text for ``key`` in the page's language, with {name} placeholders filled in.
 * @param {string} key
 * @param {Record<string, unknown>} [vars]
 * @returns {string} */
export function t(key, vars = {}) {
  return lookup(strings[current], strings.en, key, vars);
}

/** Whether ``key`` has words of its own (in English, the language every key has). */
export function known(key) {
  return (strings.en || {})[key] !== undefined;
}

/** Give the strings of language ``code`` (the page loads them; tests give them).
 * @param {string} code
 * @param {Record<string, string>} table */
export function useStrings(code, table) {
  strings[code] = table;
}

/** @param {string} code */
async function loadStrings(code) {
  if (!strings[code]) {
    const response = await fetch(`/static/i18n/${code}.json`);
    strings[code] = await response.json();
  }
  return strings[code];
}

/** The language this browser asked for last, else the one it prefers (Korean or English). */
export function pickLanguage() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === "en" || saved === "ko") return saved;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("ko") ? "ko" : "en";
}

/** Fill every element marked with data-i18n (its text) or data-i18n-aria (its aria-label).
 * @param {ParentNode} root */
export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (node instanceof HTMLElement) node.textContent = t(node.dataset.i18n || "");
  }
  for (const node of root.querySelectorAll("[data-i18n-aria]")) {
    if (node instanceof HTMLElement) node.setAttribute("aria-label", t(node.dataset.i18nAria || ""));
  }
}

/** Call ``fn`` whenever the language changes (pages re-render their dynamic parts).
 * @param {(code: string) => void} fn */
export function onLanguageChange(fn) {
  listeners.push(fn);
}

/** Speak ``code`` from now on: its strings loaded, the page's words translated, the language
 * switch relabelled and every listener told.
 * @param {string} code */
export async function setLanguage(code) {
  await loadStrings("en");
  await loadStrings(code);
  current = code;
  localStorage.setItem(LANG_KEY, code);
  document.documentElement.lang = code;
  translate();
  const button = document.getElementById("lang-switch");
  if (button) {
    button.textContent = code === "ko" ? "English" : "한국어";
    button.setAttribute("aria-label", t("switch_language"));
  }
  for (const fn of listeners) fn(code);
}

/** A refusal's fields, as an ``error`` message or a failed ``api`` call carries them.
 * @typedef {{code?: string, message?: string, params?: Record<string, any>}} Refusal */

/** A refusal from the server — an ``error`` message, or the error a failed ``api`` call
 * throws — in the page's language: its code's text with the params filled in (seat numbers
 * become ``names`` when the page knows them), else the server's own English words.
 * @param {Refusal | any} refusal
 * @param {string[] | null} [names]
 * @returns {string} */
export function refusalText(refusal, names = null) {
  const key = `error_${refusal.code}`;
  if (!refusal.code || !known(key)) return refusal.message;
  /** @type {Record<string, any>} */
  const vars = { ...(refusal.params || {}) };
  // An engine's refusal names its rule in each language it is said in ("why not?").
  if (vars.words && typeof vars.words[lang()] === "string") vars.detail = vars.words[lang()];
  for (const name of ["seat", "actor"]) {
    if (typeof vars[name] === "number") vars[name] = names?.[vars[name]] ?? t("seat_n", { n: vars[name] + 1 });
  }
  if (vars.game) vars.game = t(vars.game);
  return t(key, vars);
}

/** A place in words: 1st, 2nd … in English, 1등, 2등 … in Korean.
 * @param {number} n */
export function ordinal(n) {
  if (lang() === "ko") return `${n}등`;
  const suffix = /** @type {Record<number, string>} */ ({ 1: "st", 2: "nd", 3: "rd" })[n] || "th";
  return `${n}${suffix}`;
}
