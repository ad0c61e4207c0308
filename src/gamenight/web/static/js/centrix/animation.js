// @ts-check
// A play shown as it happens: the ring turning, the pawn stepping or leapfrogging, each
// bumped pawn falling; each duration times a factor, and jumping to the end when aborted.
import { sound } from "../common.js";
import { SLOTS, isLeap, parseSquare } from "./model.js";
import { SVG_NS, pawnTokenMarkup } from "./drawing.js";
import { CX, CY, centre } from "./geometry.js";

/** @typedef {import("./model.js").LastPlay} LastPlay */
/** @typedef {import("./model.js").Moved} Moved */
/** @typedef {import("./model.js").Colour} Colour */

export const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Run ``animation`` to its end, or jump there when ``signal`` aborts.
 * @param {Animation} animation @param {AbortSignal | null} [signal] @returns {Promise<void>}
 */
function settle(animation, signal) {
  const finish = () => animation.finish();
  signal?.addEventListener("abort", finish, { once: true });
  return animation.finished.then(() => {}, () => {}).finally(() => signal?.removeEventListener("abort", finish));
}

/** Wait ``ms``, or less when ``signal`` aborts. @param {number} ms @param {AbortSignal | null} [signal] */
export function pause(ms, signal) {
  if (!ms || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve(undefined);
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Turn ring ``ringNo``'s group on the board drawn in ``svg`` by ``amount`` slots.
 * @param {SVGSVGElement | null} svg @param {number} ringNo @param {number} amount
 * @param {number} [factor] @param {AbortSignal | null} [signal] @returns {Promise<void>}
 */
export function turnRing(svg, ringNo, amount, factor = 1, signal = null) {
  const group = /** @type {SVGGElement | null | undefined} */ (svg?.querySelector(`g.ring[data-ring="${ringNo}"]`));
  if (!group || reduceMotion || factor <= 0) return Promise.resolve();
  group.style.transformBox = "view-box";
  group.style.transformOrigin = `${CX}px ${CY}px`;
  const animation = group.animate(
    [{ transform: "rotate(0deg)" }, { transform: `rotate(${amount * 30}deg)` }],
    { duration: (200 + 90 * Math.abs(amount)) * factor, easing: "ease-in-out", fill: "forwards" },
  );
  return settle(animation, signal);
}

/** The sounds of a play (contract B), when it was not shown: a bump, a pawn on the top.
 * @param {LastPlay} last @param {boolean} played the animation asked for them as they happened */
export function soundsOf(last, played) {
  if (played) return;
  if (last.moves.length > 1) sound("bump");
  if (last.moves.some((m) => m.to === "top")) sound("top");
}

/** A pawn drawn on its own, to move across the board. @param {Colour} colour */
function pawnToken(colour) {
  const g = document.createElementNS(SVG_NS, "g");
  g.setAttribute("class", "anim-pawn");
  g.innerHTML = pawnTokenMarkup(colour);
  return g;
}

/**
 * The key frames of the ``i``-th pawn moved: the mover steps, or leaps in an arc; a bumped
 * pawn falls, shrinking a little as it drops to the square below (or off the board).
 * @param {Moved} move @param {number} i @param {boolean} leap @returns {Keyframe[]}
 */
function frames(move, i, leap) {
  const hint = move.to !== "off" && move.to !== "top" ? parseSquare(move.to).slot : parseSquare(move.from).slot ?? 0;
  const [x0, y0] = centre(move.from, hint ?? 0);
  const [x1, y1] = centre(move.to, hint ?? 0);
  const at = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ scale) => `translate(${x}px, ${y}px) scale(${scale})`;
  if (leap) {
    return [{ transform: at(x0, y0, 1) }, { transform: at((x0 + x1) / 2, (y0 + y1) / 2 - 40, 1.45) }, { transform: at(x1, y1, 1) }];
  }
  if (i > 0) {
    const off = move.to === "off";
    return [
      { transform: at(x0, y0, 1), opacity: 1 },
      { transform: at((x0 + x1) / 2, (y0 + y1) / 2, 0.8), opacity: 1 },
      { transform: at(x1, y1, off ? 0.5 : 0.95), opacity: off ? 0 : 1 },
    ];
  }
  return [{ transform: at(x0, y0, 1), opacity: move.from === "off" ? 0 : 1 }, { transform: at(x1, y1, 1), opacity: 1 }];
}

/**
 * Show ``last`` on the board drawn in ``svg`` (the state before it): the ring turned, unless
 * it is on screen already (``turnedAlready``: the rotation this page previewed and played),
 * then each pawn moved in turn.
 * @param {SVGSVGElement} svg @param {LastPlay} last @param {Colour[]} colours each seat's
 * @param {{ factor: number, signal: AbortSignal | null, turnedAlready: boolean }} options
 */
export async function animatePlay(svg, last, colours, { factor, signal, turnedAlready }) {
  const rotation = last.rotation;
  const turned = rotation && !turnedAlready;
  if (rotation && turned) await turnRing(svg, rotation.ring, rotation.amount, factor, signal);
  const overlay = /** @type {Element} */ (svg.querySelector(".ui-overlay"));
  overlay.replaceChildren();
  for (const [i, move] of last.moves.entries()) {
    // Where the pawn's drawing is now: on a ring turned by this play but not redrawn yet,
    // it is still filed under the square it stood on before the turn.
    let drawnAt = move.from;
    const { ring, slot } = parseSquare(move.from);
    if (rotation && turned && slot !== null && ring === rotation.ring) {
      drawnAt = `${SLOTS[(((slot - rotation.amount) % 12) + 12) % 12]}${rotation.ring}`;
    }
    const original = /** @type {SVGElement | null} */ (move.from === "off" ? null : svg.querySelector(`.pawn[data-square="${drawnAt}"]`));
    if (original) original.style.opacity = "0";
    const token = pawnToken(colours[move.seat]);
    token.dataset.move = String(i);
    overlay.append(token);
    const leap = i === 0 && isLeap(move.from, move.to);
    if (i > 0) sound("bump");
    const animation = token.animate(frames(move, i, leap), {
      duration: (leap ? 650 : i > 0 ? 520 : 420) * factor, easing: i > 0 ? "cubic-bezier(.5,0,.9,.6)" : "ease-in-out", fill: "forwards",
    });
    await settle(animation, signal);
    if (move.to === "top") sound("top");
  }
}
