// @ts-check
// "Why not?" (issue 32): a click or tap on a target the rules forbid is sent as the play it
// would be, and the server's refusal says, in words, the rule that forbids it (the engine's
// explain.problem, carried as the error's params.words: the page shows its own language).
// The page offers only legal plays, so such a play is never made; the refusal never names a
// hidden card (docs/rules/centrix.md, D19).

/**
 * @typedef {(message: import("./core/socket.js").Inbound) => unknown} Send
 */

/** A Centrix play's notation: its card, the ring turned (null: none) and its move. */
export function centrixNotation(/** @type {string} */ card, /** @type {string | null} */ rotation, /** @type {string} */ from, /** @type {string} */ to) {
  return [card, rotation, `${from}-${to}`].filter(Boolean).join(" ");
}

/**
 * Ask why the Centrix play (``card``, ``rotation``, ``from`` → ``to``) is forbidden: it is
 * sent for ``seat`` and refused with its rule (an ``error`` the page already shows).
 * @param {Send} send
 * @param {number} seat
 * @param {{ card: string, rotation: string | null, from: string, to: string }} play
 */
export function askWhyNot(send, seat, play) {
  document.body.dataset.whyNot = centrixNotation(play.card, play.rotation, play.from, play.to);
  return send({ type: "act", seat, action: document.body.dataset.whyNot });
}

/**
 * Ask why a Color City shot from ``position`` (beyond the HQ's launch line: the page keeps
 * its own cube on the line) is forbidden, once for each drag.
 * @param {Send} send
 * @param {number} seat
 * @param {{ position: number, direction: number, speed: number, spin: number }} aim
 */
export function askWhyNotShot(send, seat, aim) {
  const shot = [aim.position.toFixed(1), aim.direction.toFixed(1), aim.speed.toFixed(2), aim.spin.toFixed(1)].join(" ");
  document.body.dataset.whyNot = shot;
  return send({ type: "act", seat, action: shot });
}
