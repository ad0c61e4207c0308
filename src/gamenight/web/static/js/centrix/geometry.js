// @ts-check
// Where everything on the board is drawn: the engine's one layout (gamenight.centrix.geometry,
// which svg.py draws from too), read from the JSON file it writes. 1000 units across.

/** @typedef {[number, number]} Spot */
/** @typedef {[number, number, number]} Disc  a centre and a radius */

/**
 * @typedef {object} SquareShape
 * @property {number} ring
 * @property {number} slot
 * @property {number} level
 * @property {string} path     the square's outline
 * @property {string} outline  the same, inset: a mark drawn on the square
 * @property {Disc} pawn       where a pawn stands on it
 * @property {Disc} symbol     where its colour's symbol is drawn (centre, half its size)
 */

/**
 * @typedef {object} BoardGeometry
 * @property {number} size
 * @property {Spot} centre
 * @property {number} plate
 * @property {number} slot_angle
 * @property {string} slots
 * @property {Spot[]} slot_labels
 * @property {{ ring: number, level: number, inner: number, outer: number, label: Spot }[]} rings
 * @property {Record<string, SquareShape>} squares
 * @property {{ level: number, radius: number, crowds: { pawn: number, orbits: [number, number][] }[] }} top
 * @property {{ level: number, spots: Spot[] }} off
 */

// Fetched once, before any module that draws the board runs. (A JSON module would do the
// same, but its import attributes are a syntax error to browsers before 2024-2025: Safari
// before 17.2, Firefox before 138, and the page would not load at all there.)
const response = await fetch(new URL("../../centrix-geometry.json", import.meta.url));
/** @type {BoardGeometry} */
export const GEOMETRY = await response.json();
export const [CX, CY] = GEOMETRY.centre;

/**
 * The point at ``radius`` from the centre, ``degrees`` clockwise from twelve o'clock.
 * @param {number} radius @param {number} degrees @returns {Spot}
 */
export function polar(radius, degrees) {
  const a = (degrees * Math.PI) / 180;
  return [CX + radius * Math.sin(a), CY - radius * Math.cos(a)];
}

/** A ring's inner and outer edges. @param {number} ring @returns {[number, number]} */
export function ringEdges(ring) {
  const { inner, outer } = GEOMETRY.rings[ring - 1];
  return [inner, outer];
}

/** @param {string} name a ring square (``c3``) @returns {SquareShape} */
export function squareShape(name) {
  return GEOMETRY.squares[name];
}

/**
 * Where a pawn stands on ``name``; ``off`` is just outside the board at ``slotHint``.
 * @param {string} name @param {number} [slotHint] @returns {Spot}
 */
export function centre(name, slotHint = 0) {
  if (name === "top") return [CX, CY];
  if (name === "off") return GEOMETRY.off.spots[slotHint];
  const [x, y] = GEOMETRY.squares[name].pawn;
  return [x, y];
}

/**
 * Where each of ``count`` pawns on the top stands: circles of them round the centre, the
 * first of each at twelve o'clock.
 * @param {number} count @returns {Disc[]}
 */
export function topSpots(count) {
  const { pawn, orbits } = GEOMETRY.top.crowds[count];
  return orbits.flatMap(([k, radius]) => Array.from({ length: k }, (_, i) => /** @type {Disc} */ ([...polar(radius, (i * 360) / k), pawn])));
}
