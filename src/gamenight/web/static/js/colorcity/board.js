// @ts-check
// The city drawn from the view's data (the server sends no picture): the board seen from
// above, north up, one unit a millimetre. (The Python drawing, gamenight.colorcity.svg, is
// the same board for Jupyter.)
import { t } from "../core/i18n.js";
import { FILES, isLost, lastMarked, lastPitch, squareName } from "./model.js";

const SVG_NS = "http://www.w3.org/2000/svg";
/** @type {Record<string, string>} */
export const GANG_COLOUR = { green: "#1f7a3a", purple: "#5e2b80" };
/** @type {Record<string, string>} a square: empty, Green's, Purple's */
const FILL = { "-1": "#f4efe4", 0: "#2e9d4f", 1: "#7b3fa0" };
const GANG_INDEX = { green: 0, purple: 1 };
const MARGIN = 10; // mm of paper around the board
const LABEL_GAP = 2.5; // mm between the city's edge and its files' and ranks' labels
// On a phone the drawing is cut to the pitcher's end of the board, so that the city fills
// its width: this much room beside the city for the ranks' labels (drawn 12 px tall there),
// and this much beyond the city's far edge for a cube that overshoots it.
const SIDE_ROOM = 16;
const FAR_ROOM = 50;

/** A drawing of the board, its world (a <g>, which the table turns round for Purple) named.
 * @typedef {SVGSVGElement & {world: SVGGElement}} CitySvg */

/** A new SVG element with ``attrs``.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElementTagNameMap[K]} */
export function svgNode(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The part of the board drawn, as a viewBox: all of it, or (``cut``, on a phone) the city's
 * width and the pitcher's end, from just beyond the city to the near HQ (at the bottom of the
 * drawing whichever gang's it is: the world is turned round for Purple).
 * @param {Record<string, any>} tb the view's table @param {boolean} cut @returns {number[]} */
export function drawnBox(tb, cut) {
  const [bw, bl] = [tb.board_width, tb.board_length];
  if (!cut) return [-bw / 2 - MARGIN, -bl / 2 - MARGIN, bw + 2 * MARGIN, bl + 2 * MARGIN];
  const half = tb.city_mm / 2 + SIDE_ROOM;
  const top = -(tb.city_mm / 2 + FAR_ROOM);
  return [-half, top, 2 * half, bl / 2 + MARGIN - top];
}

/** The board as an SVG element: the city's squares in their gangs' colours, both HQs with
 * their cubes, the last cube's path and where it stopped. Everything is drawn inside
 * ``svg.world``; ``cut``: only the pitcher's end of it is shown (drawnBox).
 * @param {Record<string, any>} view @param {boolean} [cut] @returns {CitySvg} */
export function boardSvg(view, cut = false) {
  const tb = view.table;
  const [bw, bl] = [tb.board_width, tb.board_length];
  const svg = /** @type {CitySvg} */ (svgNode("svg", {
    viewBox: drawnBox(tb, cut).join(" "),
    "font-family": "sans-serif", role: "img", "aria-label": t("city_aria"),
  }));
  const world = svgNode("g", { class: "world" });
  svg.append(world);
  svg.world = world;
  world.append(svgNode("rect", { x: -bw / 2, y: -bl / 2, width: bw, height: bl, fill: "#d9b98c", stroke: "#8a6a3c", "stroke-width": 2 }));
  for (const gang of ["green", "purple"]) drawHq(world, view, gang);
  drawCity(world, view);
  world.append(lastPitchMarks(view, world, tb.square_mm));
  if (view.trail?.length) {
    world.append(svgNode("polyline", {
      class: "trajectory", points: view.trail.map(([x, y]) => `${x},${-y}`).join(" "),
      fill: "none", stroke: "#c0392b", "stroke-width": 1.2, "stroke-dasharray": "3 2",
    }));
  }
  drawStop(world, view);
  return svg;
}

/** ``gang``'s HQ, its launch line and its cubes (those lost, an outline).
 * @param {SVGGElement} world @param {Record<string, any>} view @param {string} gang */
function drawHq(world, view, gang) {
  const tb = view.table;
  const half = tb.city_mm / 2;
  const cubes = tb.cubes_per_gang ?? 4;
  const sign = gang === "green" ? 1 : -1; // SVG y grows southward; Green's HQ is south
  const near = sign * (tb.launch_y - tb.cube_mm / 2);
  const far = (sign * tb.board_length) / 2;
  world.append(svgNode("rect", {
    class: `hq-${gang}`, x: -half, y: Math.min(near, far), width: tb.city_mm, height: Math.abs(far - near),
    fill: FILL[GANG_INDEX[gang]], "fill-opacity": 0.18,
  }));
  world.append(svgNode("line", { x1: -half, y1: sign * tb.launch_y, x2: half, y2: sign * tb.launch_y, stroke: GANG_COLOUR[gang], "stroke-dasharray": "4 3" }));
  for (let i = 0; i < cubes; i += 1) {
    const cx = (i - (cubes - 1) / 2) * tb.cube_mm * 1.6;
    const cy = sign * (tb.launch_y + tb.cube_mm * 1.2);
    const box = { x: cx - tb.cube_mm / 2, y: cy - tb.cube_mm / 2, width: tb.cube_mm, height: tb.cube_mm };
    world.append(i < view.cubes[gang]
      ? svgNode("rect", { class: `cube-${gang}`, ...box, fill: GANG_COLOUR[gang] })
      : svgNode("rect", { class: `lost-${gang}`, ...box, fill: "none", stroke: GANG_COLOUR[gang], "stroke-dasharray": "2 2" }));
  }
}

/** The city's squares, and the labels that hang off its edge (files below it, ranks left of
 * it): drawn larger on a small screen, they grow away from the squares.
 * @param {SVGGElement} world @param {Record<string, any>} view */
function drawCity(world, view) {
  const tb = view.table;
  const half = tb.city_mm / 2;
  const n = tb.city_size;
  const sq = tb.square_mm;
  view.cells.forEach((/** @type {number} */ cell, /** @type {number} */ square) => {
    const [row, col] = [Math.floor(square / n), square % n];
    world.append(svgNode("rect", {
      class: "square", "data-square": squareName(square, n), x: -half + col * sq, y: -(-half + (row + 1) * sq),
      width: sq, height: sq, fill: FILL[cell], stroke: "#555", "stroke-width": 0.6,
    }));
  });
  for (let c = 0; c < n; c += 1) {
    const label = svgNode("text", { class: "file", x: -half + (c + 0.5) * sq, y: half + LABEL_GAP, "font-size": 7, "text-anchor": "middle", "dominant-baseline": "text-before-edge", fill: "#333" });
    label.textContent = FILES[c] ?? `c${c}`;
    world.append(label);
  }
  for (let r = 0; r < n; r += 1) {
    const label = svgNode("text", { class: "rank", x: -half - LABEL_GAP, y: -(-half + (r + 0.5) * sq), "font-size": 7, "text-anchor": "end", "dominant-baseline": "central", fill: "#333" });
    label.textContent = String(r + 1);
    world.append(label);
  }
}

/** Where the cube stopped; a cube judged off the city is destroyed: only its outline stays.
 * @param {SVGGElement} world @param {Record<string, any>} view */
function drawStop(world, view) {
  const tb = view.table;
  const stop = view.stop;
  if (!(stop && stop[2] > 0)) return;
  const [x, y, , yawDeg] = stop;
  const pitch = lastPitch(view);
  const lost = Boolean(pitch) && isLost(pitch);
  world.append(svgNode("rect", {
    class: lost ? "footprint lost" : "footprint", x: x - tb.cube_mm / 2, y: -y - tb.cube_mm / 2, width: tb.cube_mm, height: tb.cube_mm,
    transform: `rotate(${-yawDeg} ${x} ${-y})`, stroke: "#c0392b", "stroke-width": 1,
    ...(lost ? { fill: "none", "stroke-dasharray": "2 1.5", "stroke-opacity": 0.6 } : { fill: "#c0392b", "fill-opacity": 0.35 }),
  }));
}

/** The last pitch, marked until the next one (as lichess marks the last move): the squares
 * its cube covered (``mark-covered``), those among them it took from the other gang also
 * ``mark-lost``. A pitch Lucky Day voided covered nothing; its cube still shows where it was.
 * @param {Record<string, any>} view @param {SVGGElement} world @param {number} sq */
function lastPitchMarks(view, world, sq) {
  const marks = svgNode("g", { class: "last-move" });
  const pitch = lastMarked(view);
  if (!pitch || !("covered" in pitch)) return marks;
  for (const name of pitch.covered) {
    const square = world.querySelector(`rect.square[data-square="${name}"]`);
    if (!square) continue;
    const lost = pitch.lost.includes(name);
    const [x, y] = ["x", "y"].map((k) => Number(square.getAttribute(k)) + 1);
    const box = { x, y, width: sq - 2, height: sq - 2, fill: "none" };
    marks.append(svgNode("rect", {
      class: `mark-covered${lost ? " mark-lost" : ""}`, "data-square": name, ...box,
      stroke: lost ? "#ff6b6b" : "#ffe066", "stroke-width": 1.8,
    }));
  }
  return marks;
}

/** ``view``'s city as the table shows it: ``gang``'s HQ at the bottom, the threats when
 * ``threats`` (the squares each gang could take next, outlined), and the aim arrow's head;
 * ``cut``, on a phone: the pitcher's end of the board only.
 * @param {Record<string, any>} view @param {string} gang @param {boolean} threats @param {boolean} cut @returns {CitySvg} */
export function citySvg(view, gang, threats, cut) {
  const drawing = boardSvg(view, cut);
  const defs = svgNode("defs");
  const marker = svgNode("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
  marker.append(svgNode("path", { d: "M0,0 L10,5 L0,10 z", fill: "#c0392b" }));
  defs.append(marker);
  drawing.prepend(defs);
  // Purple's HQ at the bottom: turn the board half a turn (the stylesheet keeps its words upright).
  if (gang === "purple") drawing.world.setAttribute("transform", "rotate(180)");
  drawing.classList.add(`view-${gang}`);
  const layer = svgNode("g", { class: "threats" });
  if (threats) {
    const sq = view.table.square_mm;
    for (const [threat, squares] of Object.entries(view.threats)) {
      for (const name of /** @type {string[]} */ (squares)) {
        const rect = drawing.world.querySelector(`rect.square[data-square="${name}"]`);
        if (!rect) continue;
        layer.append(svgNode("rect", {
          class: `threat threat-${threat}`, "data-square": name, "data-gang": threat,
          x: Number(rect.getAttribute("x")) + 1.5, y: Number(rect.getAttribute("y")) + 1.5,
          width: sq - 3, height: sq - 3, fill: "none", stroke: GANG_COLOUR[threat],
          "stroke-width": 1.6, "stroke-dasharray": threat === "green" ? "3 1.5" : "1.2 1.2",
        }));
      }
    }
  }
  drawing.world.append(layer);
  return drawing;
}
