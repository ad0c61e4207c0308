// @ts-check
// A flick shown on the board: the cube flying along its recorded poses, and a destroyed
// cube fading and shrinking away.
import { GANG_COLOUR, svgNode } from "./board.js";
import { clamp, fmt } from "./model.js";

const LEAVE_MS = 700; // a destroyed cube fading and shrinking away at the end of its flight
const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** A flick's recorded flight: poses ``dt`` ms apart (x, y, z in mm, yaw in degrees).
 * @typedef {{dt: number, poses: number[][]}} Flight */

/** The cube at the flight's ``at`` (a fractional pose index): its transform, opacity and
 * the trail's points so far. @param {number[][]} poses @param {number} at */
function poseAt(poses, at) {
  const i = Math.min(Math.floor(at), poses.length - 2);
  const share = at - i;
  const [a, b] = [poses[i], poses[i + 1]];
  const mix = (/** @type {number} */ k) => a[k] + (b[k] - a[k]) * share;
  // The yaw the short way round between two poses.
  const turn = ((((b[3] - a[3]) % 360) + 540) % 360) - 180;
  const [x, y, z] = [mix(0), mix(1), mix(2)];
  return {
    transform: `translate(${x} ${-y}) rotate(${-(a[3] + turn * share)})`,
    opacity: String(z < 0 ? Math.max(0, 1 + z / 20) : 1),
    trail: [...poses.slice(0, i + 1), [x, y]].map(([px, py]) => `${px},${-py}`).join(" "),
  };
}

/** The cube of ``gang`` flying along the recorded ``flight`` in ``layer`` (a <g> of a
 * boardSvg's world; ``tb``, the view's ``table``), ``factor`` times as long, then, ``lost``,
 * fading and shrinking away (the rule destroys it); an abort of ``signal`` ends it at once
 * (as do a factor of 0 and the reader's wish for less motion). The table and the replay both
 * show a flick with it.
 * @param {SVGGElement} layer @param {Record<string, any>} tb @param {Flight} flight @param {string} gang
 * @param {number} factor @param {AbortSignal | null | undefined} signal @param {boolean} [lost]
 * @returns {Promise<void>} */
export function animateFlight(layer, tb, flight, gang, factor, signal, lost = false) {
  return new Promise((resolve) => {
    const { dt, poses } = flight;
    if (poses.length < 2 || factor <= 0 || reduceMotion || signal?.aborted) {
      resolve();
      return;
    }
    const cube = svgNode("rect", {
      class: "flying-cube", width: tb.cube_mm, height: tb.cube_mm, x: -tb.cube_mm / 2, y: -tb.cube_mm / 2,
      rx: 1.5, fill: GANG_COLOUR[gang], stroke: "#111", "stroke-width": 0.8,
    });
    const trail = svgNode("polyline", { class: "trail", points: "" });
    layer.append(trail, cube);
    const duration = dt * factor * (poses.length - 1); // dt * factor: ms between two poses on screen
    const leave = lost ? LEAVE_MS * factor : 0;
    const start = performance.now();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", finish);
      cube.remove();
      trail.remove();
      resolve();
    };
    signal?.addEventListener("abort", finish);
    /** The cube leaving, ``beyond`` ms after it stopped. @param {number} beyond */
    const leaving = (beyond) => {
      const share = clamp(beyond / leave, 0, 1);
      const [x, y, z, yaw] = /** @type {number[]} */ (poses.at(-1));
      const shown = z < 0 ? Math.max(0, 1 + z / 20) : 1; // a cube falling off is fading already
      cube.setAttribute("transform", `translate(${x} ${-y}) rotate(${-yaw}) scale(${1 - 0.5 * share})`);
      cube.setAttribute("opacity", fmt(shown * (1 - share), 3));
      if (share < 1) requestAnimationFrame(step);
      else finish();
    };
    /** @param {number} now */
    const step = (now) => {
      if (done) return;
      const beyond = now - start - duration;
      if (beyond > 0 && leave) {
        leaving(beyond);
        return;
      }
      const time = clamp(now - start, 0, duration); // a frame's time may precede the start
      const pose = poseAt(poses, duration ? (time / duration) * (poses.length - 1) : poses.length - 1);
      cube.setAttribute("transform", pose.transform);
      cube.setAttribute("opacity", pose.opacity);
      trail.setAttribute("points", pose.trail);
      if (time >= duration) {
        if (leave) requestAnimationFrame(step);
        else setTimeout(finish, 250 * factor);
        return;
      }
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}
