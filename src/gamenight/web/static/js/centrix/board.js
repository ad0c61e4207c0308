// @ts-check
// The board on the page: the drawing shown (the state, a turned ring's preview, or the board
// as it was after an earlier play), the marks of the play being chosen over it, the last
// play's mark, and clicks on its squares.
import { keepWordsLegible, svgElement, t } from "../common.js";
import { SVG_NS, boardMarkup, lastMoveMarkup } from "./drawing.js";
import { centre } from "./geometry.js";
import { oneGesturePlays, pawnsOf, targetsOf } from "./selection.js";

/** @typedef {import("./model.js").Scene} Scene */
/** @typedef {import("./model.js").LastPlay} LastPlay */
/** @typedef {"state" | "preview" | "then"} Showing */

/**
 * A circle for the overlay.
 * @param {string} cls @param {[number, number]} at @param {number} r
 */
function circle(cls, [x, y], r) {
  const c = document.createElementNS(SVG_NS, "circle");
  c.setAttribute("class", cls);
  c.setAttribute("cx", String(x));
  c.setAttribute("cy", String(y));
  c.setAttribute("r", String(r));
  return c;
}

/**
 * The board on the page: the element that holds the drawing, the drawing shown, the words'
 * fitting, and what to tell when a drawing replaces the last.
 * @typedef {object} BoardPage
 * @property {HTMLElement} node
 * @property {SVGSVGElement | null} svg
 * @property {() => void} fitWords
 * @property {(showing: Showing) => void} onDrawn
 */

/**
 * The board's view, in ``node``: ``onSquare`` hears a click on a square (and on whose pawn,
 * if on one), ``onDrawn`` each drawing that replaces the last.
 * @param {HTMLElement} node
 * @param {{ onSquare: (square: string, pawnOf: number | null) => void, onDrawn: (showing: Showing) => void }} hooks
 * @returns {BoardPage}
 */
export function boardView(node, { onSquare, onDrawn }) {
  node.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target).closest("[data-square]");
    if (!(target instanceof SVGElement) || !target.dataset.square) return;
    const pawn = /** @type {SVGElement | null} */ (target.closest(".pawn"));
    onSquare(target.dataset.square, pawn ? Number(pawn.dataset.seat) : null);
  });
  return { node, svg: null, fitWords: keepWordsLegible(node), onDrawn };
}

/** The drawing's units in one CSS pixel on screen (the board is drawn 1000 units across).
 * @param {BoardPage} b */
function unitsPerPixel(b) {
  const scale = b.svg?.getScreenCTM()?.a;
  return scale ? 1 / scale : 1;
}

/**
 * Show ``markup``, with a layer for the last play's mark and one for the choice's marks.
 * @param {BoardPage} b @param {string} markup @param {Showing} [showing]
 * @param {LastPlay | null} [last] @param {number} [version]
 */
export function drawBoard(b, markup, showing = "state", last = null, version = 0) {
  b.onDrawn(showing);
  b.node.dataset.showing = showing;
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (svgElement(markup)));
  svg.setAttribute("aria-label", t("board_aria"));
  const marks = document.createElementNS(SVG_NS, "g");
  marks.setAttribute("class", "last-move");
  const overlay = document.createElementNS(SVG_NS, "g");
  overlay.setAttribute("class", "ui-overlay");
  svg.append(marks, overlay);
  b.node.replaceChildren(svg);
  b.fitWords();
  b.svg = svg;
  markLast(b, last, version); // (on the board as it is only)
  return svg;
}

/**
 * Mark the last play on the board until the next one. The board's data-marked-play is the
 * notation of the play marked: always the log's latest line while the board shows the state.
 * @param {BoardPage} b @param {LastPlay | null | undefined} last @param {number} version
 */
export function markLast(b, last, version) {
  const layer = b.svg?.querySelector(".last-move");
  if (!layer) return;
  layer.replaceChildren();
  delete b.node.dataset.markedPlay;
  if (!last || last.undo || !last.moves || b.node.dataset.showing !== "state") return;
  b.node.dataset.markedPlay = last.notation;
  layer.innerHTML = lastMoveMarkup(last);
  b.node.dataset.marked = String(version);
}

/** Clear the marks of an earlier choice. @param {BoardPage} b @param {SVGSVGElement} svg */
function unmark(b, svg) {
  svg.querySelector(".ui-overlay")?.replaceChildren();
  for (const node of svg.querySelectorAll(".pawn-hit")) node.remove();
  for (const node of svg.querySelectorAll(".movable, .target, .chosen, .one-gesture")) {
    node.classList.remove("movable", "target", "chosen", "one-gesture");
  }
  delete b.node.dataset.oneGesture;
}

/** @param {SVGSVGElement} svg @param {string} name */
function squareNode(svg, name) {
  return svg.querySelector(name === "top" ? "g.top" : `path.square[data-square="${name}"]`);
}

/** The pawns that may move, each ringed and as easy to touch as a button.
 * @param {BoardPage} b @param {SVGSVGElement} svg @param {Scene} scene */
function markMovable(b, svg, { legal, sel, me }) {
  const overlay = /** @type {Element} */ (svg.querySelector(".ui-overlay"));
  for (const from of pawnsOf(legal, sel).froms.filter((f) => f !== "off")) {
    const pawn = svg.querySelector(`.pawn[data-square="${from}"][data-seat="${me}"]`) || svg.querySelector(`.pawn[data-square="${from}"]`);
    pawn?.classList.add("movable");
    // A pawn to pick is as easy to touch as a button: 44 CSS px across at least.
    if (pawn && !pawn.querySelector(".pawn-hit")) pawn.prepend(circle("pawn-hit", centre(from), Math.max(25, 22 * unitsPerPixel(b))));
    overlay.append(circle("ring-movable", centre(from), 25));
  }
}

/** The chosen pawn and its targets. @param {BoardPage} b @param {SVGSVGElement} svg @param {Scene} scene */
function markTargets(b, svg, { legal, sel }) {
  const overlay = /** @type {Element} */ (svg.querySelector(".ui-overlay"));
  if (sel.from !== "off" && sel.from !== null) {
    svg.querySelector(`.pawn[data-square="${sel.from}"]`)?.classList.add("chosen");
    overlay.append(circle("ring-chosen", centre(sel.from), 25));
  }
  for (const p of targetsOf(legal, sel)) {
    const to = /** @type {string} */ (p.to);
    squareNode(svg, to)?.classList.add("target");
    const r = to === "top" ? 30 : 14;
    // The dot is drawn small, on a disc that takes the touch: at least 44 CSS px across.
    const hit = circle("target-dot", centre(to), Math.max(r, 22 * unitsPerPixel(b)));
    hit.dataset.square = to;
    overlay.append(hit, circle("target-mark", centre(to), r));
  }
}

/**
 * Mark what may be chosen: with nothing chosen, the squares one click plays to; then the
 * pawns that may move, or the chosen pawn and its targets. ``turning``: the board is still
 * turning to the chosen rotation (nothing is marked on it yet).
 * @param {BoardPage} b @param {Scene} scene @param {boolean} turning
 */
export function highlight(b, scene, turning) {
  const svg = b.svg;
  if (!svg) return;
  unmark(b, svg);
  const { myTurn, sel, inFlight, legal } = scene;
  if (myTurn && !sel.card && !inFlight) {
    // Nothing chosen: a click on a square only one play reaches makes that play.
    const squares = [...oneGesturePlays(legal).keys()];
    for (const name of squares) squareNode(svg, name)?.classList.add("one-gesture");
    b.node.dataset.oneGesture = squares.join(" ");
  }
  if (!myTurn || !sel.card || sel.rotation === undefined || turning) return;
  if (sel.from === null) markMovable(b, svg, scene);
  else markTargets(b, svg, scene);
}

/**
 * The board as an SVG element drawn from a view's data (the replay page's drawing of a step).
 * @param {import("./model.js").BoardData} view @returns {Element}
 */
export function boardSvg(view) {
  const svg = svgElement(boardMarkup(view));
  svg.setAttribute("aria-label", t("board_aria"));
  return svg;
}
