// @ts-check
// Making and finding the page's elements, the page chrome (header, language switch, toasts)
// and the drawings' fitting to the screen.
import { pickLanguage, lang, setLanguage, t } from "./i18n.js";

/** An attribute's value for ``el``: a listener (``on…``), a dataset, a flag or a value.
 * @typedef {string | number | boolean | null | undefined | Function | Record<string, string>} Attr */
/** A child for ``el``: a node, words, or nothing.
 * @typedef {Node | string | number | null | undefined | false | any[]} Child */

/** A new element: ``el("button", {class: "x", onclick: fn}, "text", child)``.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]} */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of /** @type {any[]} */ (children).flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The element with ``id``, which the page's markup holds, as a ``type``.
 * @template {Element} T
 * @param {string} id
 * @param {{new (): T, prototype: T}} type
 * @returns {T} */
export function byId(id, type) {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`#${id} is not on the page`);
  return node;
}

/** The element ``selector`` finds in ``root`` (it is there), as a ``type``.
 * @template {Element} T
 * @param {ParentNode} root
 * @param {string} selector
 * @param {{new (): T, prototype: T}} type
 * @returns {T} */
export function find(root, selector, type) {
  const node = root.querySelector(selector);
  if (!(node instanceof type)) throw new Error(`${selector} is not on the page`);
  return node;
}

/** Parse server-rendered SVG markup into an element; sized by CSS, not its attributes.
 * @param {string} markup
 * @returns {SVGSVGElement} */
export function svgElement(markup) {
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.importNode(doc.documentElement, true)));
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  // The engines write their few words in English and mark them for the page's language.
  for (const node of svg.querySelectorAll("[data-label]")) node.textContent = t(node.getAttribute("data-label") || "");
  return svg;
}

/** The height of a word's box, in ems of its font size, that the drawings leave room for:
 * the slot letters' band, the ring numbers' badges and the like are sized for it (Nanum
 * Gothic's box; DejaVu Sans's is 1.16 em, Noto Sans CJK's 1.45 em). */
const WORD_BOX_EM = 1.15;

/** Each word of ``svg`` whose box is taller than WORD_BOX_EM of its size is drawn smaller, so
 * that it fits the room drawn for it whatever the font (the box is the font's ascent and
 * descent, however little of it a word's ink fills). Measured afresh at each call, as the
 * stylesheet's sizes change with the board's size, and again after each shrinking: on screen
 * the ascent and descent are rounded to whole pixels, so a box does not shrink in proportion.
 * @param {SVGSVGElement} svg */
function fitWordBoxes(svg) {
  const words = [...svg.querySelectorAll("text")].filter((word) => word.textContent);
  for (const word of words) word.style.removeProperty("font-size");
  let tall = words.map((word) => {
    const size = parseFloat(getComputedStyle(word).fontSize);
    return { word, size, room: WORD_BOX_EM * size };
  });
  for (let pass = 0; pass < 4 && tall.length; pass++) {
    tall = tall.filter((w) => w.word.getBBox().height > w.room + 0.01);
    for (const w of tall) {
      w.size *= w.room / w.word.getBBox().height;
      w.word.style.setProperty("font-size", `${w.size}px`);
    }
  }
}

/** Keep the words drawn on ``board`` (the element holding a game's drawing) legible however
 * small the board is shown, on a phone as on a large screen: the stylesheet sizes them from
 * --screen-px, set on the drawing here to the length in its own units of one CSS pixel on
 * screen, now and whenever the board is resized. Returns the function to call when a new
 * drawing replaces the old one.
 * @param {HTMLElement} board
 * @returns {() => void} */
export function keepWordsLegible(board) {
  const fit = () => {
    const svg = board.querySelector(":scope > svg");
    if (!(svg instanceof SVGSVGElement)) return;
    const scale = svg.getScreenCTM()?.a; // screen pixels per unit of the drawing
    if (!scale) return;
    svg.style.setProperty("--screen-px", `${1 / scale}px`);
    fitWordBoxes(svg);
  };
  new ResizeObserver(fit).observe(board);
  return fit;
}

/** Tell the page's layout the shape of the board drawn in ``svg``: on wide screens the board's
 * column is as wide as the board drawn one screen tall (--board-aspect on ``root``, width over
 * height; Color City's board is portrait).
 * @param {HTMLElement} root
 * @param {SVGSVGElement} svg */
export function setBoardAspect(root, svg) {
  const { width, height } = svg.viewBox.baseVal;
  root.style.setProperty("--board-aspect", String(width / height));
}

/** Keep the header's height in --topbar-height: on wide screens a board's column fills the
 * screen below it, however the header wraps (a longer language, a narrower window). */
export function trackTopbar() {
  const header = document.querySelector(".topbar");
  if (!header) return;
  const keep = () => document.documentElement.style.setProperty("--topbar-height", `${header.getBoundingClientRect().height}px`);
  new ResizeObserver(keep).observe(header);
  keep();
}

/** A short message in the corner, gone after a few seconds (an error's a little later).
 * @param {string} message
 * @param {"info" | "error"} [kind] */
export function toast(message, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = el("div", { class: `toast toast-${kind}` }, message);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

/** Ask for a sound (issue 16, contract B): sounds.js plays it if the player wants sounds.
 * @param {string} name */
export function sound(name) {
  document.dispatchEvent(new CustomEvent("gamenight:sound", { detail: name }));
}

/** The page chrome every page shares: a header with the home link and the language switch. */
export async function initPage() {
  const header = document.querySelector("header.topbar");
  if (header && !header.querySelector("#lang-switch")) {
    const button = el("button", { id: "lang-switch", class: "lang-switch", type: "button" });
    button.addEventListener("click", () => setLanguage(lang() === "ko" ? "en" : "ko"));
    header.append(button);
  }
  await setLanguage(pickLanguage());
}
