// @ts-check
// The analysis graph (issue 32): each seat's chance to win after every step of the game, as
// SVG markup (no library), with the turning points and the hints used marked. Pure: the
// replay page (replay-analysis.js) puts it on screen; tests/js run it as it is.

/**
 * @typedef {{ ply: number, seat: number, played: string, swing: number[], leader: number }} TurningPoint
 * @typedef {{ ply: number, seat: number, played: string, preferred: string, loss: number,
 *   grade: string, words: string }} Mistake
 * @typedef {{ game: string, seats: string[], method: string, chances: number[][],
 *   turning_points: TurningPoint[], mistakes: Mistake[], winner: number | null }} Analysis
 * @typedef {{ seat: number, number: number, level: number }} HintUsed
 */

/** The colour each seat's line is drawn in, by its role (a pawn colour or a gang). */
export const ROLE_COLOURS = {
  red: "#d7263d", orange: "#f7862a", yellow: "#c9a400", green: "#2e9e4f", blue: "#2366c9",
  white: "#8a8378", purple: "#5e2b80",
};
const FALLBACK = ["#d7263d", "#2366c9", "#2e9e4f", "#f7862a", "#5e2b80", "#8a8378"];

/** The colour of seat ``seat`` whose role is ``role``. */
export function seatColour(/** @type {string | undefined} */ role, /** @type {number} */ seat) {
  return (role && /** @type {Record<string, string>} */ (ROLE_COLOURS)[role]) || FALLBACK[seat % FALLBACK.length];
}

/** Text made safe inside SVG markup. */
function escaped(/** @type {string} */ text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The graph's SVG markup. ``now``: the step shown (a dashed line there); ``roles``: each
 * seat's role, for its colour; ``label(seat)``: its name, for the lines' titles.
 * @param {Analysis} analysis
 * @param {{ roles?: string[], label?: (seat: number) => string, hints?: HintUsed[],
 *   now?: number | null, width?: number, height?: number, title?: string }} [options]
 */
export function graphSvg(analysis, options = {}) {
  const { roles = [], label = (seat) => analysis.seats[seat], hints = [], now = null, width = 600, height = 220 } = options;
  const pad = { left: 34, right: 10, top: 10, bottom: 22 };
  const rows = analysis.chances;
  const steps = Math.max(1, rows.length - 1);
  const x = (/** @type {number} */ step) => pad.left + (step / steps) * (width - pad.left - pad.right);
  const y = (/** @type {number} */ chance) => pad.top + (1 - chance) * (height - pad.top - pad.bottom);
  const parts = [];
  for (const tick of [0, 0.5, 1]) {
    parts.push(`<line class="axis" x1="${pad.left}" x2="${width - pad.right}" y1="${y(tick)}" y2="${y(tick)}"/>`);
    parts.push(`<text class="tick" x="${pad.left - 4}" y="${y(tick) + 4}" text-anchor="end" font-size="11">${Math.round(tick * 100)}%</text>`);
  }
  const seats = analysis.seats.length;
  for (let seat = 0; seat < seats; seat += 1) {
    const points = rows.map((row, step) => `${x(step).toFixed(1)},${y(row[seat] ?? 0).toFixed(1)}`).join(" ");
    parts.push(
      `<polyline class="chance chance-${seat}" data-seat="${seat}" stroke="${seatColour(roles[seat], seat)}" points="${points}">` +
      `<title>${escaped(label(seat))}</title></polyline>`,
    );
  }
  for (const turn of analysis.turning_points) {
    const chance = rows[turn.ply]?.[turn.leader] ?? 0.5;
    parts.push(
      `<circle class="turning" data-ply="${turn.ply}" cx="${x(turn.ply).toFixed(1)}" cy="${y(chance).toFixed(1)}" r="5">` +
      `<title>${escaped(`${turn.ply}. ${label(turn.seat)}: ${turn.played}`)}</title></circle>`,
    );
  }
  for (const hint of hints) {
    // A hint asked before play ``number + 1``: marked under the axis at that play.
    const at = x(Math.min(steps, hint.number + 1));
    const base = height - pad.bottom + 4;
    parts.push(`<path class="hint-mark" data-ply="${hint.number + 1}" d="M${at.toFixed(1)},${base} l-5,9 h10 z"><title>${escaped(label(hint.seat))}</title></path>`);
  }
  if (now !== null) {
    parts.push(`<line class="now" x1="${x(now).toFixed(1)}" x2="${x(now).toFixed(1)}" y1="${pad.top}" y2="${height - pad.bottom}"/>`);
  }
  const title = options.title ? `<title>${escaped(options.title)}</title>` : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" class="analysis-graph" id="analysis-graph" viewBox="0 0 ${width} ${height}" role="img">${title}${parts.join("")}</svg>`;
}

/** The step a click at ``fraction`` of the graph's drawn width points at. */
export function stepAt(/** @type {number} */ fraction, /** @type {number} */ steps, width = 600) {
  const left = 34 / width;
  const right = 10 / width;
  const share = (fraction - left) / (1 - left - right);
  return Math.max(0, Math.min(steps, Math.round(share * steps)));
}
