// @ts-check
// Color City's page model, pure (Node's tests run it): the state as the server sends it
// read for this page (whose turn, which gang, whether it may shoot), the shot's geometry,
// and the aim → flick state machine a drag on the launch cube runs.
import { mySeat } from "../core/seats.js";

/** @typedef {import("../core/messages.js").StateOut} StateOut */
/** @typedef {"green" | "purple"} Gang */
/** @typedef {[number, number]} Point a board point, mm, y northward */
/** The shot being aimed: where on the launch line (mm), which way (°), how fast (m/s), spin.
 * @typedef {{position: number, direction: number, speed: number, spin: number}} Aim */
/** A drag of the launch cube: sliding it along its line (``place``), then pulling it back
 * like a slingshot (``aim``): ``length`` mm of pull.
 * ``asked``: the page has asked once this drag why a cube may not go beyond the HQ.
 * @typedef {{mode: "place" | "aim", pointer: Point, length?: number, asked?: boolean}} Drag */
/** The pitching gang's frame: launch line centre, forward and right unit vectors.
 * @typedef {{origin: Point, forward: Point, right: Point, heading: number}} Frame */

export const FILES = "abcdefghijklmnopqrstuvwxyz";
export const DEAD_ZONE = 10; // mm of pull that still means "no shot": let go here to cancel
export const PULL_RANGE = 110; // mm of pull beyond the dead zone from the slowest to the fastest shot
// The share of that pull spent between the speeds that reach the city's near and far edges
// (the view's city_speeds, widened a little): there a millimetre of pull is a fine change.
export const CITY_PULL = [0.2, 0.8];
export const CITY_MARGIN = 0.08; // m/s beyond each edge still inside the fine band
export const PLACE_ZONE = 12; // mm of pulling back before a drag stops sliding the cube along its line
export const WHY_NOT_MM = 8; // dragged this far past the HQ's edge, the page asks why not (issue 32)
/** @type {Record<Gang, string>} */
export const POWER_OF = { green: "lucky-day", purple: "purple-pain" };
/** Each pitcher starts from a plain straight shot. @type {Readonly<Aim>} */
export const START_AIM = Object.freeze({ position: 0, direction: 0, speed: 1.3, spin: 0 });

/** @param {number} x @param {number} lo @param {number} hi */
export const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
/** @param {number} x @param {number} step */
export const round = (x, step) => Math.round(x / step) * step;
/** ``x`` with at most ``digits`` decimals, no trailing zeros. @param {number} x @param {number} digits */
export const fmt = (x, digits) => String(Number(x.toFixed(digits)));
/** @param {Gang} gang @returns {Gang} */
export const other = (gang) => (gang === "green" ? "purple" : "green");

/** A square's name, file letter then row: ``a1`` (south-west).
 * @param {number} square @param {number} n the city's side, in squares */
export function squareName(square, n) {
  const [row, col] = [Math.floor(square / n), square % n];
  return `${FILES[col] ?? `c${col}`}${row + 1}`;
}

/** Whether a log entry is told in the log: a power kept (``pass``) is no news, and stays in
 * the record only; a power used is told. @param {{notation?: string}} entry */
export const isNews = (entry) => entry.notation !== "pass";

/** Whether a pitch's cube was destroyed: it fell off the board or covers no square.
 * @param {Record<string, any>} entry */
export const isLost = (entry) => "covered" in entry && (Boolean(entry.fell) || !entry.covered.length);

/** The view's last pitch (the log's latest entry with squares covered), if any.
 * @param {Record<string, any>} view */
export const lastPitch = (view) => view.log.findLast((/** @type {Record<string, any>} */ entry) => "covered" in entry);

/** The play the board marks as the last move (as lichess marks it): the last pitch, or
 * a Lucky Day that voided it (which marks nothing). @param {Record<string, any>} view */
export const lastMarked = (view) => view.log.findLast((/** @type {Record<string, any>} */ entry) => "covered" in entry || entry.notation === "lucky-day");

/** The speed a pull gives (``share`` of the full pull, 0–1): piecewise linear, slow to the
 * city's near edge, fine across the city, then fast up to the table's limit.
 * @param {number} share
 * @param {Record<string, any>} tb the view's table */
export function speedOfPull(share, tb) {
  const [near, far] = tb.city_speeds || [tb.min_speed, tb.max_speed];
  // Each knot kept between its neighbours, so that on any table a longer pull is never slower.
  const low = clamp(near - CITY_MARGIN, tb.min_speed, tb.max_speed);
  const high = clamp(far + CITY_MARGIN, low, tb.max_speed);
  const knots = [
    [0, tb.min_speed],
    [CITY_PULL[0], low],
    [CITY_PULL[1], high],
    [1, tb.max_speed],
  ];
  for (let i = 1; i < knots.length; i += 1) {
    const [s0, v0] = knots[i - 1];
    const [s1, v1] = knots[i];
    if (share <= s1) return v0 + ((share - s0) / (s1 - s0)) * (v1 - v0);
  }
  return tb.max_speed;
}

/** The pitching gang's frame. @param {Gang} gang @param {Record<string, any>} tb @returns {Frame} */
export function frame(gang, tb) {
  const ly = tb.launch_y;
  const heading = gang === "green" ? Math.PI / 2 : -Math.PI / 2;
  /** @type {Point} */
  const forward = [Math.cos(heading), Math.sin(heading)];
  /** @type {Point} */
  const right = [Math.cos(heading - Math.PI / 2), Math.sin(heading - Math.PI / 2)];
  return { origin: [0, gang === "green" ? -ly : ly], forward, right, heading };
}

/** The board point ``position`` mm along ``gang``'s launch line.
 * @param {Gang} gang @param {number} position @param {Record<string, any>} tb @returns {Point} */
export function launchPoint(gang, position, tb) {
  const f = frame(gang, tb);
  return [f.origin[0] + position * f.right[0], f.origin[1] + position * f.right[1]];
}

/** The shot as the record writes it: "position direction speed spin". @param {Aim} aim */
export function shotText(aim) {
  return `${fmt(aim.position, 1)} ${fmt(aim.direction, 1)} ${fmt(aim.speed, 2)} ${fmt(aim.spin, 1)}`;
}

// ---------------------------------------------------------------- the state, for this page

/** @param {StateOut} msg @param {number} seat @returns {Gang} */
export const gangOf = (msg, seat) => msg.view.seats[seat].gang;
/** This page's gang, or null for a spectator. @param {StateOut} msg @returns {Gang | null} */
export const myGang = (msg) => {
  const seat = mySeat(msg);
  return seat === null ? null : gangOf(msg, seat);
};
/** Whether it is this page's seat's turn. @param {StateOut | null} msg */
export const myTurn = (msg) => msg !== null && msg.actor !== null && msg.actor === mySeat(msg);
/** Whether this page may aim a shot now (none sent and unanswered).
 * @param {StateOut | null} msg @param {boolean} sentShot */
export const canShoot = (msg, sentShot) => myTurn(msg) && msg?.view.expects === "shot" && !sentShot;
/** A shared screen (hot seat) holds seats of both gangs. @param {StateOut} msg */
export const hotSeat = (msg) => new Set(msg.seats.map((seat) => gangOf(msg, seat))).size > 1;
/** Whose HQ is at the bottom of the screen: your own, or Green's for a spectator; on a shared
 * screen the pitcher's, unless the players keep the city ``still`` (the first seat's then).
 * @param {StateOut} msg @param {boolean} still @returns {Gang} */
export const viewGang = (msg, still) => {
  if (hotSeat(msg) && still) return gangOf(msg, msg.seats[0]);
  return myGang(msg) || "green";
};
/** Whether a gang is deciding on its power now. @param {StateOut | null} msg */
export const deciding = (msg) => Boolean(msg) && msg?.view.phase === "power" && !msg.view.outcome;
/** Whether this page's gang may use its power now: in the power phase after its shot.
 * @param {StateOut} msg */
export const powerLive = (msg) => {
  const v = msg.view;
  return v.phase === "power" && myTurn(msg) && !v.outcome && v.decisions.includes("pass");
};

// ---------------------------------------------------------------- aim → flick

/** A drag begins on the launch cube at ``pointer``: first it slides the cube.
 * @param {Point} pointer @returns {Drag} */
export const dragStart = (pointer) => ({ mode: "place", pointer });

/** The drag moved to ``p``: the drag and aim that follow, and whether the aim changed.
 * Near the launch line (less than PLACE_ZONE pulled back) a drag slides the cube along it;
 * beyond, it is a slingshot for good: the cube flies opposite to the pull, faster the farther
 * it is pulled, and a pull inside DEAD_ZONE changes nothing. ``beyond``: the position along
 * the line a slide reached, when it went WHY_NOT_MM past the HQ's edge.
 * @param {Drag} drag @param {Aim} aim @param {Point} p @param {Gang} gang @param {Record<string, any>} tb
 * @returns {{drag: Drag, aim: Aim, changed: boolean, beyond?: number}} */
export function dragMove(drag, aim, p, gang, tb) {
  const f = frame(gang, tb);
  const [x, y] = launchPoint(gang, aim.position, tb);
  const back = -((p[0] - x) * f.forward[0] + (p[1] - y) * f.forward[1]);
  if (drag.mode === "place" && back < PLACE_ZONE) {
    const along = (p[0] - f.origin[0]) * f.right[0] + (p[1] - f.origin[1]) * f.right[1];
    const position = round(clamp(along, -tb.launch_half_width, tb.launch_half_width), 0.5);
    // Dragged well past the HQ's edge: where the player tried to pitch from ("why not?").
    const beyond = Math.abs(along) > tb.launch_half_width + WHY_NOT_MM ? along : undefined;
    return { drag: { ...drag, pointer: p }, aim: { ...aim, position }, changed: true, beyond };
  }
  const pull = [x - p[0], y - p[1]];
  const length = Math.hypot(pull[0], pull[1]);
  const next = { mode: /** @type {const} */ ("aim"), pointer: p, length };
  if (length < DEAD_ZONE) return { drag: next, aim, changed: false };
  const ahead = pull[0] * f.forward[0] + pull[1] * f.forward[1];
  const left = -(pull[0] * f.right[0] + pull[1] * f.right[1]);
  const direction = round(clamp((Math.atan2(left, ahead) * 180) / Math.PI, -tb.max_direction, tb.max_direction), 0.5);
  const speed = round(speedOfPull(clamp((length - DEAD_ZONE) / PULL_RANGE, 0, 1), tb), 0.01);
  return { drag: next, aim: { ...aim, direction, speed }, changed: true };
}

/** Whether letting go ends the drag in a flick: pulled back beyond the dead zone.
 * @param {Drag} drag */
export const dragFlicks = (drag) => drag.mode === "aim" && (drag.length ?? 0) >= DEAD_ZONE;
