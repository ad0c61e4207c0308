// @ts-check
// The board drawn from data, as SVG markup: its squares, symbols, pawns and the top, in the
// same groups, classes and data attributes as gamenight/centrix/svg.py (which draws from the
// same layout for notebooks and the command line), so that the page finds squares and pawns
// alike. Pure: markup strings only, no page.
import { CARD_COLOUR } from "./model.js";
import { CX, CY, GEOMETRY, ringEdges, squareShape, topSpots } from "./geometry.js";

/** @typedef {import("./model.js").Colour} Colour */
/** @typedef {import("./model.js").BoardData} BoardData */
/** @typedef {import("./model.js").LastPlay} LastPlay */

/** @type {Record<Colour, string>} */
export const PALETTE = {
  red: "#d7263d", orange: "#f7862a", yellow: "#f6d32d", green: "#2e9e4f", blue: "#2366c9", white: "#f4f1ea",
};
/** @type {Record<Colour, string>} the ink that reads on each colour */
export const INK = { red: "#fff", orange: "#1b1b1b", yellow: "#1b1b1b", green: "#fff", blue: "#fff", white: "#1b1b1b" };
/** @type {Record<Colour, string>} */
export const LETTER = { red: "R", orange: "O", yellow: "Y", green: "G", blue: "B", white: "W" };
/** @type {Record<Colour, string>} the colour-blind symbol of each colour */
const SYMBOL = { red: "triangle", orange: "square", yellow: "star", green: "cross", blue: "circle", white: "diamond" };
const DARK = "#1b1b1b";
export const SVG_NS = "http://www.w3.org/2000/svg";

/** A coordinate, short. @param {number} x */
function n(x) {
  const text = x.toFixed(1).replace(/\.?0+$/, "");
  return text === "-0" ? "0" : text;
}

/** @param {number} sq a ring square's number @returns {string} its name */
function squareName(sq) {
  return `${GEOMETRY.slots[sq % 12]}${Math.floor(sq / 12) + 1}`;
}

/** @param {string} shape @returns {[number, number][]} the symbol's points, one unit across */
function symbolPoints(shape) {
  if (shape === "triangle") return [[0, -1.05], [0.95, 0.7], [-0.95, 0.7]];
  if (shape === "diamond") return [[0, -1.1], [0.8, 0], [0, 1.1], [-0.8, 0]];
  if (shape === "star") {
    return Array.from({ length: 10 }, (_, i) => {
      const r = i % 2 === 0 ? 1.1 : 0.46;
      const a = (i * 36 * Math.PI) / 180;
      return [r * Math.sin(a), -r * Math.cos(a) + 0.08];
    });
  }
  const [u, e] = [0.32, 0.95];
  return [[-u, -e], [u, -e], [u, -u], [e, -u], [e, u], [u, u], [u, e], [-u, e], [-u, u], [-e, u], [-e, -u], [-u, -u]];
}

/**
 * A colour's symbol centred on (x, y), about ``2 * size`` across.
 * @param {Colour} colour @param {number} x @param {number} y @param {number} size
 * @param {string} fill @param {string} extra more attributes
 */
export function symbolMarkup(colour, x, y, size, fill, extra) {
  const shape = SYMBOL[colour];
  const attrs = `class="symbol" data-colour="${colour}" data-symbol="${shape}"${extra}`;
  if (shape === "circle") return `<circle ${attrs} cx="${n(x)}" cy="${n(y)}" r="${n(size * 0.82)}" fill="${fill}"/>`;
  if (shape === "square") {
    const a = size * 0.75;
    return `<rect ${attrs} x="${n(x - a)}" y="${n(y - a)}" width="${n(2 * a)}" height="${n(2 * a)}" fill="${fill}"/>`;
  }
  const points = symbolPoints(shape).map(([px, py]) => `${n(x + px * size)},${n(y + py * size)}`);
  return `<polygon ${attrs} points="${points.join(" ")}" fill="${fill}"/>`;
}

/**
 * A pawn: a disc in its colour with a dark rim and, around it, a white one, so that it stands
 * out on a square of any colour (its own too), with its shadow, shine and letter.
 * @param {Colour} colour @param {number} x @param {number} y @param {number} r
 * @param {string} attrs the group's attributes
 */
export function pawnMarkup(colour, x, y, r, attrs) {
  const rim = Math.max(2, r * 0.18);
  return `<g ${attrs}>`
    + `<circle cx="${n(x + r * 0.12)}" cy="${n(y + r * 0.2)}" r="${n(r + 2)}" fill="#000" fill-opacity="0.35"/>`
    + `<circle class="pawn-outline" cx="${n(x)}" cy="${n(y)}" r="${n(r + rim / 2 + 1.6)}" fill="none" stroke="#fff" stroke-width="3.2"/>`
    + `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${PALETTE[colour]}" stroke="${DARK}" stroke-width="${n(rim)}"/>`
    + `<ellipse cx="${n(x - r * 0.3)}" cy="${n(y - r * 0.38)}" rx="${n(r * 0.38)}" ry="${n(r * 0.22)}" fill="#fff" fill-opacity="0.35"/>`
    + `<text x="${n(x)}" y="${n(y + r * 0.36)}" font-size="${n(r * 1.05)}" font-weight="bold" text-anchor="middle" fill="${INK[colour]}">${LETTER[colour]}</text>`
    + "</g>";
}

/**
 * One ring in a group of its own: everything that turns with it, so that a rotation is
 * animated by rotating the group (``data-offset``: how far it has turned).
 * @param {BoardData} board @param {number} ringNo @returns {string[]}
 */
function ringMarkup(board, ringNo) {
  const [rIn] = ringEdges(ringNo);
  const letters = board.colours[ringNo - 1];
  const names = Array.from({ length: 12 }, (_, slot) => `${GEOMETRY.slots[slot]}${ringNo}`);
  const out = [`<g class="ring" data-ring="${ringNo}" data-offset="${board.offsets[ringNo - 1]}">`, '<g stroke="#222" stroke-width="2" stroke-linejoin="round">'];
  names.forEach((name, slot) => {
    const colour = CARD_COLOUR[letters[slot]];
    out.push(`<path class="square" data-square="${name}" data-ring="${ringNo}" data-slot="${slot}" data-colour="${colour}" fill="${PALETTE[colour]}" d="${squareShape(name).path}"/>`);
  });
  out.push("</g>");
  // The ring above (inside) casts a shadow on this one, so the board reads as a stack.
  if (ringNo < 6) out.push(`<circle cx="${n(CX)}" cy="${n(CY)}" r="${n(rIn + 3)}" fill="none" stroke="#000" stroke-opacity="0.22" stroke-width="6"/>`);
  names.forEach((name, slot) => {
    const colour = CARD_COLOUR[letters[slot]];
    const [x, y, size] = squareShape(name).symbol;
    const opacity = INK[colour] === DARK ? 0.55 : 0.85;
    out.push(symbolMarkup(colour, x, y, size, INK[colour], ` data-square="${name}" fill-opacity="${opacity}"`));
  });
  for (let sq = (ringNo - 1) * 12; sq < ringNo * 12; sq++) {
    const seat = board.cells[sq];
    if (seat < 0) continue;
    const colour = board.players[seat].colour;
    const [x, y, r] = squareShape(squareName(sq)).pawn;
    out.push(pawnMarkup(colour, x, y, r, `class="pawn" data-square="${squareName(sq)}" data-seat="${seat}" data-colour="${colour}"`));
  }
  out.push("</g>");
  return out;
}

/** The slot letters round the plate and the rings' numbers on the spoke between l and a.
 * @returns {string[]} */
function labelsMarkup() {
  const out = ['<g class="slot-labels" font-size="30" font-weight="bold" fill="#5b554c" font-family="sans-serif">'];
  GEOMETRY.slot_labels.forEach(([x, y], slot) => {
    out.push(`<text x="${n(x)}" y="${n(y)}" text-anchor="middle" dominant-baseline="central" data-slot="${slot}">${GEOMETRY.slots[slot]}</text>`);
  });
  out.push("</g>", '<g class="ring-labels" font-size="15" font-weight="bold" text-anchor="middle">');
  for (const { ring, label: [x, y] } of GEOMETRY.rings) {
    out.push(`<g data-ring="${ring}"><circle cx="${n(x)}" cy="${n(y)}" r="11" fill="${DARK}" fill-opacity="0.8" stroke="#fff" stroke-width="1.5"/>`
      + `<text x="${n(x)}" y="${n(y)}" dominant-baseline="central" fill="#fff">${ring}</text></g>`);
  }
  out.push("</g>");
  return out;
}

/** The stationary top with the pawns on it. @param {BoardData} board @returns {string[]} */
function topMarkup(board) {
  const onTop = board.players.flatMap((p, seat) => Array.from({ length: p.top }, () => seat));
  const r = GEOMETRY.top.radius;
  const out = [`<g class="top" data-square="top" data-pawns="${onTop.length}">`,
    `<circle cx="${n(CX + 3)}" cy="${n(CY + 5)}" r="${n(r)}" fill="#000" fill-opacity="0.3"/>`,
    `<circle cx="${n(CX)}" cy="${n(CY)}" r="${n(r - 1)}" fill="#141414" stroke="#000" stroke-width="3"/>`,
    `<circle cx="${n(CX)}" cy="${n(CY)}" r="${n(r - 12)}" fill="none" stroke="#3b3b3b" stroke-width="2"/>`];
  if (!onTop.length) {
    out.push(`<text x="${n(CX)}" y="${n(CY)}" font-size="26" font-weight="bold" fill="#6d6d6d" text-anchor="middle" dominant-baseline="central" letter-spacing="3" data-label="board_top">TOP</text>`);
  }
  topSpots(onTop.length).forEach(([x, y, pawnR], i) => {
    const colour = board.players[onTop[i]].colour;
    out.push(pawnMarkup(colour, x, y, pawnR, `class="pawn" data-square="top" data-seat="${onTop[i]}" data-colour="${colour}"`));
  });
  out.push("</g>");
  return out;
}

/**
 * The board's SVG markup from a view's data: ``cells`` (each square's seat, -1 for none),
 * ``offsets``, ``colours`` (each ring's squares as colour letters) and ``players``.
 * @param {BoardData} board @returns {string}
 */
export function boardMarkup(board) {
  const size = n(GEOMETRY.size);
  const out = [
    `<svg xmlns="${SVG_NS}" viewBox="0 0 ${size} ${size}" font-family="sans-serif" class="centrix-board" role="img">`,
    `<rect width="${size}" height="${size}" rx="24" fill="#f7f4ec"/>`,
    `<circle cx="${n(CX)}" cy="${n(CY)}" r="${n(GEOMETRY.plate)}" fill="#3a3631"/>`,
  ];
  for (let ringNo = 1; ringNo <= 6; ringNo++) out.push(...ringMarkup(board, ringNo));
  out.push(...labelsMarkup(), ...topMarkup(board), "</svg>");
  return out.join("\n");
}

/**
 * The mark of the last play (as lichess marks it): where its pawn came from and went, the
 * ring it turned (its two edges, dashed in white over dark), the pawns it bumped.
 * @param {LastPlay} last @returns {string}
 */
export function lastMoveMarkup(last) {
  const parts = [];
  if (last.rotation) {
    const edges = ringEdges(last.rotation.ring).map((r) => `<circle cx="${n(CX)}" cy="${n(CY)}" r="${n(r)}" stroke="${DARK}" stroke-width="7"/>`
      + `<circle cx="${n(CX)}" cy="${n(CY)}" r="${n(r)}" stroke="#fff" stroke-width="3.5" stroke-dasharray="14 8"/>`);
    parts.push(`<g class="mark-ring" data-ring="${last.rotation.ring}" fill="none">${edges.join("")}</g>`);
  }
  last.moves.forEach((move, i) => {
    const cls = i === 0 ? "mark-move" : "mark-bumped";
    for (const [end, square] of i === 0 ? [["from", move.from], ["to", move.to]] : [["to", move.to]]) {
      if (square === "off") continue;
      const shape = square === "top"
        ? `<circle cx="${n(CX)}" cy="${n(CY)}" r="${n(GEOMETRY.top.radius - 4)}"`
        : `<path d="${squareShape(square).outline}"`;
      const colour = i === 0 ? (end === "from" ? "#ffe066" : "#fff3a3") : "#ff6b6b";
      parts.push(`<g class="${cls} mark-${end}" data-square="${square}" fill="none" stroke-linejoin="round">`
        + `${shape} stroke="${DARK}" stroke-width="9"/>${shape} stroke="${colour}" stroke-width="5"/></g>`);
    }
  });
  return parts.join("");
}

/** A pawn drawn on its own, to be moved across the board (its centre at 0, 0).
 * @param {Colour} colour */
export function pawnTokenMarkup(colour) {
  return `<circle cx="2" cy="4" r="18" fill="#000" fill-opacity="0.35"/>`
    + `<circle r="18" fill="${PALETTE[colour]}" stroke="#1b1b1b" stroke-width="3.3"/>`
    + `<text y="6.5" font-size="19" font-weight="bold" text-anchor="middle" fill="${INK[colour]}">${LETTER[colour]}</text>`;
}
