// @ts-check
// The board as it was: the table's replay steps, asked for once each, and the log's lines
// that show the board after their play when hovered, focused or tapped.
import { api } from "./api.js";
import { keyed } from "./tokens.js";

/** The steps loader: a step's replay answer, and ``follow`` to hear each state.
 * @typedef {((step: number) => Promise<any>) & {follow: (message: {revision?: number, version: number}) => void}} Steps */

/** The table's replay steps (GET /api/tables/{id}/replay/{step}) as a function of the step,
 * each asked for once: a step's answer stands while the plays before it do. ``follow`` each
 * state the page receives: an undo (the revision moving on more than the plays) forgets
 * them all. ``tableId`` is a function: a table page learns its table with its first state.
 * @param {() => string} tableId
 * @returns {Steps} */
export function replaySteps(tableId) {
  /** @type {Map<number, Promise<any>>} */
  const cache = new Map();
  /** @type {{revision: number, version: number} | null} the state followed last */
  let seen = null;
  /** @param {number} step */
  const load = async (step) => {
    if (!cache.has(step)) {
      const id = encodeURIComponent(tableId());
      cache.set(step, api(keyed(tableId(), `/api/tables/${id}/replay/${step}`)));
    }
    try {
      return await cache.get(step);
    } catch (exc) {
      cache.delete(step);
      throw exc;
    }
  };
  /** @param {{revision?: number, version: number}} message */
  const follow = (message) => {
    if (message.revision === undefined) return;
    if (seen && message.revision - seen.revision !== message.version - seen.version) cache.clear();
    seen = { revision: message.revision, version: message.version };
  };
  return Object.assign(load, { follow });
}

/** @typedef {{
 *   board: HTMLElement, log: HTMLElement, tableId: () => string, busy: () => boolean,
 *   drawThen: (view: any) => void, drawNow: () => void,
 * }} BoardThenParts */

/** Hovering, focusing or tapping a line of the log (``line(step)``: its attributes) shows
 * the board as it was after that play — ``drawThen(view)`` draws the replay's view, marking
 * ``board`` ``data-showing="then"`` — and leaving it shows now again (``drawNow()``). Nothing
 * is shown while ``busy()``: the player is choosing or aiming a play. ``follow(message)``
 * with every state, and ``shownNow()`` whenever the board is drawn as it is now.
 * @param {BoardThenParts} parts */
export function boardThen({ board, log, tableId, busy, drawThen, drawNow }) {
  const load = replaySteps(tableId);
  let asked = 0; // the step asked for last (an answer for an earlier one is dropped)
  /** @param {number | null} step */
  const mark = (step) => {
    for (const li of log.querySelectorAll("li")) li.classList.toggle("current", li.dataset.step === String(step));
  };
  /** @param {number} step */
  async function show(step) {
    asked = step;
    if (busy()) return;
    let answer;
    try {
      answer = await load(step);
    } catch {
      return;
    }
    if (asked !== step || busy()) return;
    drawThen(answer.view);
    board.dataset.step = String(step);
    mark(step);
  }
  /** The board is being drawn as it is now: no line shows a step any more. */
  function shownNow() {
    delete board.dataset.step;
    mark(null);
  }
  function now() {
    asked = 0;
    if (board.dataset.showing !== "then") return;
    shownNow();
    drawNow();
  }
  const showing = (/** @type {number} */ step) => board.dataset.showing === "then" && board.dataset.step === String(step);
  const line = (/** @type {number} */ step) => ({
    "data-step": step, tabindex: "0",
    onmouseenter: () => show(step), onmouseleave: now, onfocus: () => show(step), onblur: now,
    onclick: () => (showing(step) ? now() : show(step)),
  });
  return { show, now, shownNow, line, follow: load.follow };
}
