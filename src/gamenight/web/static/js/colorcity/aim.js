// @ts-check
// The aim drawn over the city: the launch line's reach, the arrow, the rubber band and the
// speed while pulling, the predicted path, and the launch cube with its touch target.
import { t } from "../core/i18n.js";
import { GANG_COLOUR, svgNode } from "./board.js";
import { canShoot, clamp, fmt, frame, launchPoint, shotText } from "./model.js";
import { shown } from "./page.js";

export const HANDLE_PX = 48; // the launch cube's touch target, CSS px a side (at least 44)

/** @typedef {import("./page.js").CityPage} CityPage */

/** The board point (mm, y northward) under a pointer event.
 * @param {CityPage} c @param {PointerEvent} event @returns {[number, number]} */
export function boardPoint(c, event) {
  const svg = /** @type {SVGSVGElement} */ (c.svg);
  const world = /** @type {SVGGElement} */ (c.world);
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const local = point.matrixTransform(/** @type {DOMMatrix} */ (world.getScreenCTM()).inverse());
  return [local.x, -local.y];
}

/** Draw the aim as it is now (nothing while the board shows the past, or when this page may
 * not shoot). @param {CityPage} c */
export function drawAim(c) {
  const { board } = c.parts;
  const { aimLayer, world, aim } = c;
  if (!aimLayer || !world || board.dataset.showing === "then") return;
  board.dataset.aim = shotText(aim);
  aimLayer.replaceChildren();
  for (const node of world.querySelectorAll("rect.square.predicted")) node.classList.remove("predicted");
  for (const node of world.querySelectorAll("rect.in-hand")) node.classList.remove("in-hand");
  if (c.handle) c.handle.hidden = true;
  if (!canShoot(c.msg, c.sentShot)) return;
  const view = shown(c).view;
  const gang = view.to_move;
  // The cube on the launch line is one of the gang's: its place in the HQ shows empty.
  [...world.querySelectorAll(`rect.cube-${gang}`)].at(-1)?.classList.add("in-hand");
  const tb = view.table;
  const [x, y] = launchPoint(gang, aim.position, tb);
  const travel = frame(gang, tb).heading + (aim.direction * Math.PI) / 180;
  // The launch line's reach: where the cube may be placed.
  const [ax, ay] = launchPoint(gang, -tb.launch_half_width, tb);
  const [bx, by] = launchPoint(gang, tb.launch_half_width, tb);
  aimLayer.append(svgNode("line", { class: "launch-reach", x1: ax, y1: -ay, x2: bx, y2: -by }));
  drawPrediction(c, travel);
  // The arrow: direction, its length the speed.
  const length = 20 + aim.speed * 30;
  const ex = x + Math.cos(travel) * length;
  const ey = y + Math.sin(travel) * length;
  aimLayer.append(svgNode("line", { class: "aim-arrow", x1: x, y1: -y, x2: ex, y2: -ey, "marker-end": "url(#arrowhead)" }));
  if (c.drag && c.drag.mode === "aim" && c.drag.pointer) {
    const [px, py] = c.drag.pointer;
    aimLayer.append(svgNode("line", { class: "rubber", x1: x, y1: -y, x2: px, y2: -py }));
    // The power in numbers beside the arrow's tip, where the eye already is.
    const label = svgNode("text", { class: "speed-label", "text-anchor": "middle", "dominant-baseline": "central" });
    label.textContent = `${fmt(aim.speed, 2)} m/s`;
    aimLayer.append(label);
    placeSpeedLabel(c, label, [ex, -ey], travel, gang);
  }
  drawLaunchCube(c, x, y, travel, gang);
}

/** Where the prediction says the aimed shot goes: its path, where it stops, the squares it
 * covers. @param {CityPage} c @param {number} travel the shot's heading, radians */
function drawPrediction(c, travel) {
  const { prediction, aimLayer, world } = c;
  if (!prediction || !prediction.shot || !aimLayer || !world) return;
  const tb = shown(c).view.table;
  const points = prediction.path.map(([px, py]) => `${px},${-py}`).join(" ");
  aimLayer.append(svgNode("polyline", { class: "predicted-path", points }));
  if (prediction.on_table) {
    const [sx, sy] = prediction.stop;
    const deg = -(travel * 180) / Math.PI;
    aimLayer.append(svgNode("rect", {
      class: "predicted-stop", x: sx - tb.cube_mm / 2, y: -sy - tb.cube_mm / 2, width: tb.cube_mm, height: tb.cube_mm,
      transform: `rotate(${deg} ${sx} ${-sy})`,
    }));
  }
  for (const name of prediction.covered) {
    world.querySelector(`rect.square[data-square="${name}"]`)?.classList.add("predicted");
  }
}

/** The cube to grab, drawn as large as its touch target however small the board is shown
 * (a 16 mm cube is 14 px on a phone); where it lands is drawn at its true size.
 * @param {CityPage} c @param {number} x @param {number} y @param {number} travel @param {string} gang */
function drawLaunchCube(c, x, y, travel, gang) {
  const world = /** @type {SVGGElement} */ (c.world);
  const tb = shown(c).view.table;
  const matrix = world.getScreenCTM();
  const pxPerMm = matrix ? Math.hypot(matrix.a, matrix.b) : 0;
  const side = Math.max(tb.cube_mm, pxPerMm ? HANDLE_PX / pxPerMm : 0);
  const cube = svgNode("rect", {
    class: "launch-cube", id: "launch-cube", x: x - side / 2, y: -y - side / 2,
    width: side, height: side, rx: side / 10, fill: GANG_COLOUR[gang],
    transform: `rotate(${-(travel * 180) / Math.PI + 90} ${x} ${-y})`,
    role: "img", "aria-label": t("cube_aria"),
  });
  c.aimLayer?.append(cube);
  placeHandle(c, x, y);
}

/** Put the launch cube's touch target over the cube at board point (x, y).
 * @param {CityPage} c @param {number} x @param {number} y */
function placeHandle(c, x, y) {
  const { handle, svg, world } = c;
  const matrix = world?.getScreenCTM();
  if (!handle || !matrix || !svg) return;
  const at = svg.createSVGPoint();
  at.x = x;
  at.y = -y;
  const screen = at.matrixTransform(matrix);
  const box = c.parts.board.getBoundingClientRect();
  handle.hidden = false;
  handle.style.left = `${screen.x - box.left - HANDLE_PX / 2}px`;
  handle.style.top = `${screen.y - box.top - HANDLE_PX / 2}px`;
}

/** Put the speed label just beyond the arrow's tip (``tip`` in SVG units), clear of it
 * whichever way the arrow points, but never over the city or its labels, nor off the board:
 * the words are larger on a small screen.
 * @param {CityPage} c @param {SVGTextElement} label @param {[number, number]} tip @param {number} travel @param {string} gang */
function placeSpeedLabel(c, label, tip, travel, gang) {
  const { width, height } = label.getBBox();
  const [dx, dy] = [Math.cos(travel), -Math.sin(travel)];
  // From the tip to the label's centre: the label's half-size that way, and a little air.
  const ahead = Math.min(width / 2 / Math.abs(dx), height / 2 / Math.abs(dy)) + 3;
  // (The board's edge; on a phone, the edge of the part drawn.)
  const drawn = /** @type {SVGSVGElement} */ (c.svg).viewBox.baseVal.width;
  const side = Math.min(shown(c).view.table.board_width, drawn) / 2 - width / 2;
  const x = clamp(tip[0] + dx * ahead, -side, side);
  const [north, south] = cityExtent(c);
  const y = tip[1] + dy * ahead;
  // Green pitches from the south (the bottom of the drawing), Purple from the north.
  label.setAttribute("x", String(x));
  label.setAttribute("y", String(gang === "green" ? Math.max(y, south + height / 2 + 1) : Math.min(y, north - height / 2 - 1)));
}

/** The SVG y the city reaches north and south, with the files' labels under it.
 * @param {CityPage} c @returns {[number, number]} */
function cityExtent(c) {
  const half = shown(c).view.table.city_mm / 2;
  const label = c.world?.querySelector("text.file");
  const files = label instanceof SVGTextElement ? label.getBBox() : null;
  return files ? [Math.min(-half, files.y), Math.max(half, files.y + files.height)] : [-half, half];
}
