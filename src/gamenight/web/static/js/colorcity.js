// The Color City table: aim with a slingshot drag, watch the flick, decide on powers.
// The city is drawn here from the view's data (the server sends no picture).
import { askWhyNotShot } from "./why-not.js"; // issue 32
import {
  boardThen, el, keepWordsLegible, logEntry, mySeat, renderTurnBanner, seatBadges, setBoardAspect, sound, store, stored, t,
} from "./common.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const GANG_COLOUR = { green: "#1f7a3a", purple: "#5e2b80" };
const FILL = { "-1": "#f4efe4", 0: "#2e9d4f", 1: "#7b3fa0" }; // a square: empty, Green's, Purple's
const GANG_INDEX = { green: 0, purple: 1 };
const FILES = "abcdefghijklmnopqrstuvwxyz";
const MARGIN = 10; // mm of paper around the board
const LABEL_GAP = 2.5; // mm between the city's edge and its files' and ranks' labels
const HANDLE_PX = 48; // the launch cube's touch target, CSS px a side (at least 44)
const STILL_KEY = "gamenight.city.still"; // hot seat: keep the city still between turns
// After a shot of its gang the page keeps the power live this long, then carries on (passes)
// by itself: the power is offered without stopping the game to ask.
const POWER_WINDOW_MS = 3000;
const POWER_OF = { green: "lucky-day", purple: "purple-pain" };
const DEAD_ZONE = 10; // mm of pull that still means "no shot": let go here to cancel
const PULL_RANGE = 110; // mm of pull beyond the dead zone from the slowest to the fastest shot
// The share of that pull spent between the speeds that reach the city's near and far edges
// (the view's city_speeds, widened a little): there a millimetre of pull is a fine change.
const CITY_PULL = [0.2, 0.8];
const CITY_MARGIN = 0.08; // m/s beyond each edge still inside the fine band
const PLACE_ZONE = 12; // mm of pulling back before a drag stops sliding the cube along its line
const UNITS = { position: "mm", direction: "°", speed: "m/s", spin: "rad/s" }; // of the aim's sliders
const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function svgNode(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

const WHY_NOT_MM = 8; // dragged this far past the HQ's edge, the page asks why not (issue 32)
const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
const round = (x, step) => Math.round(x / step) * step;
const fmt = (x, digits) => String(Number(x.toFixed(digits)));

const other = (gang) => (gang === "green" ? "purple" : "green");

/** The board seen from above as an SVG element, north up, one unit a millimetre: the city's
 * squares in their gangs' colours, both HQs with their cubes, the last cube's path and where
 * it stopped. Everything is drawn inside ``svg.world`` (a <g>), which the table turns round
 * for Purple. (The Python drawing, gamenight.colorcity.svg, is the same board for Jupyter.) */
export function boardSvg(view) {
  const tb = view.table;
  const [bw, bl] = [tb.board_width, tb.board_length];
  const svg = svgNode("svg", {
    viewBox: `${-bw / 2 - MARGIN} ${-bl / 2 - MARGIN} ${bw + 2 * MARGIN} ${bl + 2 * MARGIN}`,
    "font-family": "sans-serif", role: "img", "aria-label": t("city_aria"),
  });
  const world = svgNode("g", { class: "world" });
  svg.append(world);
  svg.world = world;
  world.append(svgNode("rect", { x: -bw / 2, y: -bl / 2, width: bw, height: bl, fill: "#d9b98c", stroke: "#8a6a3c", "stroke-width": 2 }));
  const half = tb.city_mm / 2;
  const cubes = tb.cubes_per_gang ?? 4;
  for (const gang of ["green", "purple"]) {
    const sign = gang === "green" ? 1 : -1; // SVG y grows southward; Green's HQ is south
    const near = sign * (tb.launch_y - tb.cube_mm / 2);
    const far = (sign * bl) / 2;
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
  const n = tb.city_size;
  const sq = tb.square_mm;
  view.cells.forEach((cell, square) => {
    const [row, col] = [Math.floor(square / n), square % n];
    world.append(svgNode("rect", {
      class: "square", "data-square": squareName(square, n), x: -half + col * sq, y: -(-half + (row + 1) * sq),
      width: sq, height: sq, fill: FILL[cell], stroke: "#555", "stroke-width": 0.6,
    }));
  });
  // The labels hang off the city's edge (files below it, ranks left of it): drawn larger on a
  // small screen, they grow away from the squares.
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
  world.append(lastPitchMarks(view, world, sq));
  if (view.trail?.length) {
    world.append(svgNode("polyline", {
      class: "trajectory", points: view.trail.map(([x, y]) => `${x},${-y}`).join(" "),
      fill: "none", stroke: "#c0392b", "stroke-width": 1.2, "stroke-dasharray": "3 2",
    }));
  }
  const stop = view.stop;
  if (stop && stop[2] > 0) {
    // Where the cube stopped; a cube judged off the city is destroyed: only its outline stays.
    const [x, y, , yawDeg] = stop;
    const pitch = view.log.findLast((entry) => "covered" in entry);
    const lost = Boolean(pitch) && isLost(pitch);
    world.append(svgNode("rect", {
      class: lost ? "footprint lost" : "footprint", x: x - tb.cube_mm / 2, y: -y - tb.cube_mm / 2, width: tb.cube_mm, height: tb.cube_mm,
      transform: `rotate(${-yawDeg} ${x} ${-y})`, stroke: "#c0392b", "stroke-width": 1,
      ...(lost ? { fill: "none", "stroke-dasharray": "2 1.5", "stroke-opacity": 0.6 } : { fill: "#c0392b", "fill-opacity": 0.35 }),
    }));
  }
  return svg;
}

/** The last pitch, marked until the next one (as lichess marks the last move): the squares
 * its cube covered (``mark-covered``), those among them it took from the other gang also
 * ``mark-lost``. A pitch Lucky Day voided covered nothing; its cube still shows where it was. */
function lastPitchMarks(view, world, sq) {
  const marks = svgNode("g", { class: "last-move" });
  const pitch = view.log.findLast((entry) => "covered" in entry || entry.notation === "lucky-day");
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

/** A square's name, file letter then row: ``a1`` (south-west). */
function squareName(square, n) {
  const [row, col] = [Math.floor(square / n), square % n];
  return `${FILES[col] ?? `c${col}`}${row + 1}`;
}

/** A log entry of the view (or the ``last`` of a state) in words: who pitched and what the cube
 * covered and took, or the power decided. ``gang`` is the acting seat's. */
export function entryWords(entry, gang) {
  const who = t(`city_gang_${gang}`);
  if (!("covered" in entry)) return t(`city_log_${entry.notation}`, { gang: who, other: t(`city_gang_${other(gang)}`) });
  if (entry.fell) return t("city_log_fell", { gang: who });
  if (!entry.covered.length) return t("city_log_outside", { gang: who });
  const n = entry.covered.length;
  const covered = t(n === 1 ? "city_log_covered_one" : "city_log_covered", { gang: who, squares: entry.covered.join(", "), n });
  if (!entry.lost.length) return covered;
  return `${covered}${t("city_log_then")}${t("city_log_lost", { gang: t(`city_gang_${other(gang)}`), squares: entry.lost.join(", ") })}`;
}

/** Whether a log entry is told in the log: a power kept (``pass``) is no news, and stays in
 * the record only; a power used is told. */
export const isNews = (entry) => entry.notation !== "pass";

/** Whether a pitch's cube was destroyed: it fell off the board or covers no square. */
export const isLost = (entry) => "covered" in entry && (Boolean(entry.fell) || !entry.covered.length);

const LEAVE_MS = 700; // a destroyed cube fading and shrinking away at the end of its flight

/** The cube of ``gang`` flying along the recorded ``flight`` (poses ``dt`` ms apart: x, y, z
 * in mm, yaw in degrees) in ``layer`` (a <g> of a boardSvg's world; ``tb``, the view's
 * ``table``), ``factor`` times as long, then, ``lost``, fading and shrinking away (the rule
 * destroys it); an abort of ``signal`` ends it at once (as do a factor of 0 and the reader's
 * wish for less motion). The table and the replay both show a flick with it. */
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
    const frame = dt * factor; // ms between two poses on screen
    const duration = frame * (poses.length - 1);
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
    const step = (now) => {
      if (done) return;
      const beyond = now - start - duration;
      if (beyond > 0 && leave) {
        const share = clamp(beyond / leave, 0, 1);
        const [x, y, z, yaw] = poses.at(-1);
        const shown = z < 0 ? Math.max(0, 1 + z / 20) : 1; // a cube falling off is fading already
        cube.setAttribute("transform", `translate(${x} ${-y}) rotate(${-yaw}) scale(${1 - 0.5 * share})`);
        cube.setAttribute("opacity", fmt(shown * (1 - share), 3));
        if (share < 1) requestAnimationFrame(step);
        else finish();
        return;
      }
      const time = clamp(now - start, 0, duration); // a frame's time may precede the start
      const at = duration ? (time / duration) * (poses.length - 1) : poses.length - 1;
      const i = Math.min(Math.floor(at), poses.length - 2);
      const share = at - i;
      const [a, b] = [poses[i], poses[i + 1]];
      const mix = (k) => a[k] + (b[k] - a[k]) * share;
      // The yaw the short way round between two poses.
      const turn = ((((b[3] - a[3]) % 360) + 540) % 360) - 180;
      const [x, y, z] = [mix(0), mix(1), mix(2)];
      cube.setAttribute("transform", `translate(${x} ${-y}) rotate(${-(a[3] + turn * share)})`);
      cube.setAttribute("opacity", z < 0 ? Math.max(0, 1 + z / 20) : 1);
      trail.setAttribute("points", [...poses.slice(0, i + 1), [x, y]].map(([px, py]) => `${px},${-py}`).join(" "));
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

export function create(ctx) {
  const { root, send } = ctx;
  let msg = null;
  let svg = null;
  let world = null;
  let aimLayer = null;
  let flightLayer = null; // the flying cube's, apart from the aim's (redrawn at any time)
  let sliders = {}; // the aim's sliders on screen: {key: {input, output}}
  const aim = { position: 0, direction: 0, speed: 1.3, spin: 0 };
  let drag = null;
  let lastPredictSent = 0;
  let predictTimer = null;
  let prediction = null;
  const predictionsAsked = []; // shots sent for prediction, answered in order
  let sentShot = false;
  let showThreats = true;
  let passFor = null; // the version whose power this page will decline by itself, unless used
  let passTimer = null;
  let handle = null; // the launch cube's touch target, over the board
  let flying = false; // a flick is being shown on the board
  const banner = el("div", { class: "turn-banner", id: "turn-banner", role: "status", "aria-live": "polite" });
  const board = el("div", { class: "board colorcity-board-box", id: "board" });
  const aimBox = el("div", { class: "card-box aim-box", id: "aim-box" });
  const powerBox = el("div", { class: "card-box power-box", id: "power-box", hidden: true });
  const gangs = el("div", { class: "gangs", id: "gangs" });
  const watching = el("p", { class: "watching hint", id: "watching-online", hidden: true });
  const stillToggle = el("label", { class: "toggle", id: "keep-still-toggle", hidden: true });
  const log = el("ol", { class: "log", id: "log" });
  const logTitle = el("h3", {});
  const threatToggle = el("label", { class: "toggle" });

  root.classList.add("colorcity-table");
  const fitWords = keepWordsLegible(board);
  // The launch cube's touch target follows the cube when the board is drawn another size.
  new ResizeObserver(() => {
    if (msg && !drag) drawAim();
  }).observe(board);
  root.append(
    el("section", { class: "board-col" }, banner, el("div", { class: "board-wrap" }, board)),
    el("aside", { class: "side" }, aimBox, el("div", { class: "card-box" }, watching, gangs, threatToggle, stillToggle), el("div", { class: "card-box" }, logTitle, log)),
  );
  // The shot's result (and the power, when there is one to use) where the eye is after the
  // flick: beside the board at the top of the side panel, or under the banner on a narrow
  // screen, where the side panel is below the board; the rest of the time the power's button
  // waits at the top of the side panel (on a phone, under the board: not over the cube).
  const wide = window.matchMedia("(min-width: 901px)");
  const placePower = () => {
    const deciding = Boolean(msg) && msg.view.phase === "power" && !msg.view.outcome;
    if (wide.matches || !deciding) {
      if (powerBox.parentElement !== root.querySelector(".side")) root.querySelector(".side").prepend(powerBox);
    } else if (banner.nextElementSibling !== powerBox) banner.after(powerBox);
  };
  placePower();
  wide.addEventListener("change", placePower);

  const gangOf = (seat) => msg.view.seats[seat].gang;
  const myGang = () => (mySeat(msg) === null ? null : gangOf(mySeat(msg)));
  const myTurn = () => msg && msg.actor !== null && msg.actor === mySeat(msg);
  const canShoot = () => myTurn() && msg.view.expects === "shot" && !sentShot;
  const table = () => msg.view.table;
  // A shared screen (hot seat) holds seats of both gangs.
  const hotSeat = () => new Set(msg.seats.map(gangOf)).size > 1;
  // Whose HQ is at the bottom of the screen: your own, or Green's for a spectator; on a shared
  // screen the pitcher's, unless the players keep the city still (the first seat's then).
  const viewGang = () => {
    if (hotSeat() && stored(STILL_KEY) === "1") return gangOf(msg.seats[0]);
    return myGang() || "green";
  };
  const pitcherGang = () => msg.view.to_move;
  // Hovering, focusing or tapping a line of the log shows the city as it was after that
  // action, never while the player aims, a shot is on its way or a flick is being shown.
  const then = boardThen({
    board, log, tableId: () => msg.table,
    busy: () => Boolean(drag || sentShot || flying),
    drawThen: (view) => {
      const past = citySvg(view);
      board.dataset.showing = "then";
      board.replaceChildren(past);
      setBoardAspect(root, past);
      fitWords();
    },
    drawNow: () => drawBoard(),
  });

  // ---------------------------------------------------------------- geometry

  /** The pitching gang's frame: launch line centre, forward and right unit vectors. */
  function frame(gang) {
    const ly = table().launch_y;
    const heading = gang === "green" ? Math.PI / 2 : -Math.PI / 2;
    const forward = [Math.cos(heading), Math.sin(heading)];
    const right = [Math.cos(heading - Math.PI / 2), Math.sin(heading - Math.PI / 2)];
    return { origin: [0, gang === "green" ? -ly : ly], forward, right, heading };
  }

  function launchPoint(gang, position) {
    const f = frame(gang);
    return [f.origin[0] + position * f.right[0], f.origin[1] + position * f.right[1]];
  }

  function boardPoint(event) {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const local = point.matrixTransform(world.getScreenCTM().inverse());
    return [local.x, -local.y];
  }

  // ---------------------------------------------------------------- state

  /** Show a new state, animating the flick that led to it along its recorded poses, each
   * duration times ``options.factor`` (0: no animation), jumping to the end when
   * ``options.signal`` aborts. */
  async function applyState(message, { factor = 1, signal = null } = {}) {
    const previous = msg;
    const last = message.last;
    const pitched = previous && message.version === previous.version + 1 && last && last.flight;
    then.now(); // the flick flies over the city as it is now
    if (pitched && svg) {
      aimLayer.replaceChildren();
      flying = true;
      try {
        await animateFlick(last.flight, previous.view.seats[last.seat].gang, factor, signal, isLost(last));
      } finally {
        flying = false;
      }
    }
    if (pitched && message.view.stop && message.view.stop[2] > 0) sound("cube");
    const turnChanged = !previous || previous.actor !== message.actor || previous.version !== message.version;
    msg = message;
    then.follow(message);
    if (turnChanged) {
      sentShot = false;
      prediction = null;
    }
    if (!previous || previous.actor !== message.actor) {
      // Each pitcher starts from a plain straight shot, not the last player's aim.
      Object.assign(aim, { position: 0, direction: 0, speed: 1.3, spin: 0 });
    }
    render();
  }

  function render() {
    if (!msg) return;
    const live = keepPowerLive();
    drawBoard();
    renderBanner();
    renderAim();
    renderPower(live);
    renderGangs();
    renderLog();
  }

  /** ``view``'s city as this page shows it: its gang's HQ at the bottom, the threats when
   * asked for. */
  function citySvg(view) {
    const drawing = boardSvg(view);
    const defs = svgNode("defs");
    const marker = svgNode("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
    marker.append(svgNode("path", { d: "M0,0 L10,5 L0,10 z", fill: "#c0392b" }));
    defs.append(marker);
    drawing.prepend(defs); // the aim arrow's head
    // Purple's HQ at the bottom: turn the board half a turn (the stylesheet keeps its words upright).
    if (viewGang() === "purple") drawing.world.setAttribute("transform", "rotate(180)");
    drawing.classList.add(`view-${viewGang()}`);
    const threats = svgNode("g", { class: "threats" });
    if (showThreats) {
      const sq = view.table.square_mm;
      for (const [gang, squares] of Object.entries(view.threats)) {
        for (const name of squares) {
          const rect = drawing.world.querySelector(`rect.square[data-square="${name}"]`);
          if (!rect) continue;
          threats.append(svgNode("rect", {
            class: `threat threat-${gang}`, "data-square": name, "data-gang": gang,
            x: Number(rect.getAttribute("x")) + 1.5, y: Number(rect.getAttribute("y")) + 1.5,
            width: sq - 3, height: sq - 3, fill: "none", stroke: GANG_COLOUR[gang],
            "stroke-width": 1.6, "stroke-dasharray": gang === "green" ? "3 1.5" : "1.2 1.2",
          }));
        }
      }
    }
    drawing.world.append(threats);
    return drawing;
  }

  function drawBoard() {
    svg = citySvg(msg.view);
    world = svg.world;
    then.shownNow();
    board.dataset.showing = "state";
    aimLayer = svgNode("g", { class: "aim-layer" });
    flightLayer = svgNode("g", { class: "flight-layer" });
    world.append(aimLayer, flightLayer);
    // The launch cube's touch target: an element of the page over the cube, 48 px a side
    // however small the board is drawn, the only place a drag aims: a swipe anywhere else on
    // the board scrolls the page (the board lets the browser pan; the target does not).
    handle = el("div", { class: "launch-handle", id: "launch-handle", "aria-hidden": "true", hidden: true });
    handle.addEventListener("pointerdown", pointerDown);
    handle.addEventListener("pointermove", pointerMove);
    handle.addEventListener("pointerup", pointerUp);
    handle.addEventListener("pointercancel", () => {
      drag = null;
      drawAim();
    });
    board.replaceChildren(svg, handle);
    setBoardAspect(root, svg);
    fitWords();
    drawAim();
  }

  function renderBanner() {
    const v = msg.view;
    renderTurnBanner(banner, msg, myTurn(), () => {
      const what = v.phase === "power" ? t("deciding_power") : t("pitching");
      return { role: v.to_move, detail: what, theirs: `${t(`gang_${v.to_move}`)} · ${what}` };
    });
  }

  // ---------------------------------------------------------------- aiming

  const aimValue = (key) => `${fmt(aim[key], 2)} ${UNITS[key]}`;

  function slider(key, label, min, max, step) {
    const id = `aim-${key}`;
    const output = el("output", { for: id, id: `${id}-value` }, aimValue(key));
    const input = el("input", { type: "range", id, min, max, step, value: aim[key], disabled: !canShoot() });
    input.addEventListener("input", () => {
      aim[key] = Number(input.value);
      output.textContent = aimValue(key);
      drawAim();
      schedulePredict();
    });
    sliders[key] = { input, output };
    return el("div", { class: "slider-row" }, el("label", { for: id }, label), input, output);
  }

  function renderAim() {
    const tb = table();
    aimBox.hidden = !(myTurn() && msg.view.expects === "shot");
    sliders = {};
    if (aimBox.hidden) {
      aimBox.replaceChildren();
      return;
    }
    aim.position = clamp(aim.position, -tb.launch_half_width, tb.launch_half_width);
    aimBox.replaceChildren(
      el("h3", {}, t("aim")),
      el("p", { class: "hint" }, t("aim_help")),
      slider("position", t("aim_position"), -tb.launch_half_width, tb.launch_half_width, 0.5),
      slider("direction", t("aim_direction"), -tb.max_direction, tb.max_direction, 0.5),
      slider("speed", t("aim_speed"), tb.min_speed, tb.max_speed, 0.01),
      slider("spin", t("aim_spin"), -tb.max_spin, tb.max_spin, 0.5),
      el("p", { class: "prediction", id: "prediction-text", "aria-live": "polite" }, predictionText()),
      el("div", { class: "form-actions" },
        el("button", { type: "button", class: "btn btn-primary", id: "pitch", disabled: !canShoot(), onclick: pitch }, t("pitch"))),
    );
    schedulePredict();
  }

  function syncSliders() {
    for (const [key, { input, output }] of Object.entries(sliders)) {
      input.value = aim[key];
      output.textContent = aimValue(key);
    }
  }

  function shotText() {
    return `${fmt(aim.position, 1)} ${fmt(aim.direction, 1)} ${fmt(aim.speed, 2)} ${fmt(aim.spin, 1)}`;
  }

  function schedulePredict() {
    if (!canShoot()) return;
    const wait = Math.max(0, 120 - (Date.now() - lastPredictSent));
    clearTimeout(predictTimer);
    predictTimer = setTimeout(() => {
      lastPredictSent = Date.now();
      const shot = shotText();
      if (send({ type: "predict", shot })) predictionsAsked.push(shot);
    }, wait);
  }

  function predictionText() {
    if (!prediction) return "";
    if (!prediction.on_table) return t("predict_off");
    if (!prediction.covered.length) return t("predict_outside");
    return t("predict_covers", { squares: prediction.covered.join(", ") });
  }

  function onMessage(message) {
    if (message.type !== "prediction") return;
    const asked = predictionsAsked.shift();
    if (!canShoot()) return;
    prediction = message;
    board.dataset.predicted = asked;
    const text = document.getElementById("prediction-text");
    if (text) text.textContent = predictionText();
    drawAim();
  }

  function drawAim() {
    if (!aimLayer || board.dataset.showing === "then") return;
    board.dataset.aim = shotText();
    aimLayer.replaceChildren();
    for (const node of world.querySelectorAll("rect.square.predicted")) node.classList.remove("predicted");
    for (const node of world.querySelectorAll("rect.in-hand")) node.classList.remove("in-hand");
    if (handle) handle.hidden = true;
    if (!canShoot()) return;
    const gang = pitcherGang();
    // The cube on the launch line is one of the gang's: its place in the HQ shows empty.
    [...world.querySelectorAll(`rect.cube-${gang}`)].at(-1)?.classList.add("in-hand");
    const tb = table();
    const [x, y] = launchPoint(gang, aim.position);
    const f = frame(gang);
    const travel = f.heading + (aim.direction * Math.PI) / 180;
    // The launch line's reach: where the cube may be placed.
    const [ax, ay] = launchPoint(gang, -tb.launch_half_width);
    const [bx, by] = launchPoint(gang, tb.launch_half_width);
    aimLayer.append(svgNode("line", { class: "launch-reach", x1: ax, y1: -ay, x2: bx, y2: -by }));
    if (prediction && prediction.shot) {
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
    // The arrow: direction, its length the speed.
    const length = 20 + aim.speed * 30;
    const ex = x + Math.cos(travel) * length;
    const ey = y + Math.sin(travel) * length;
    aimLayer.append(svgNode("line", { class: "aim-arrow", x1: x, y1: -y, x2: ex, y2: -ey, "marker-end": "url(#arrowhead)" }));
    if (drag && drag.mode === "aim" && drag.pointer) {
      const [px, py] = drag.pointer;
      aimLayer.append(svgNode("line", { class: "rubber", x1: x, y1: -y, x2: px, y2: -py }));
      // The power in numbers beside the arrow's tip, where the eye already is.
      const label = svgNode("text", { class: "speed-label", "text-anchor": "middle", "dominant-baseline": "central" });
      label.textContent = `${fmt(aim.speed, 2)} m/s`;
      aimLayer.append(label);
      placeSpeedLabel(label, [ex, -ey], travel, gang);
    }
    // The cube to grab, drawn as large as its touch target however small the board is shown
    // (a 16 mm cube is 14 px on a phone); where it lands is drawn at its true size.
    const matrix = world.getScreenCTM();
    const pxPerMm = matrix ? Math.hypot(matrix.a, matrix.b) : 0;
    const side = Math.max(tb.cube_mm, pxPerMm ? HANDLE_PX / pxPerMm : 0);
    const cube = svgNode("rect", {
      class: "launch-cube", id: "launch-cube", x: x - side / 2, y: -y - side / 2,
      width: side, height: side, rx: side / 10, fill: GANG_COLOUR[gang],
      transform: `rotate(${-(travel * 180) / Math.PI + 90} ${x} ${-y})`,
      role: "img", "aria-label": t("cube_aria"),
    });
    aimLayer.append(cube);
    placeHandle(x, y);
  }

  /** Put the launch cube's touch target over the cube at board point (x, y). */
  function placeHandle(x, y) {
    const matrix = world.getScreenCTM();
    if (!handle || !matrix) return;
    const at = svg.createSVGPoint();
    at.x = x;
    at.y = -y;
    const screen = at.matrixTransform(matrix);
    const box = board.getBoundingClientRect();
    handle.hidden = false;
    handle.style.left = `${screen.x - box.left - HANDLE_PX / 2}px`;
    handle.style.top = `${screen.y - box.top - HANDLE_PX / 2}px`;
  }

  /** Put the speed label just beyond the arrow's tip (``tip`` in SVG units), clear of it
   * whichever way the arrow points, but never over the city or its labels, nor off the board:
   * the words are larger on a small screen. */
  function placeSpeedLabel(label, tip, travel, gang) {
    const { width, height } = label.getBBox();
    const [dx, dy] = [Math.cos(travel), -Math.sin(travel)];
    // From the tip to the label's centre: the label's half-size that way, and a little air.
    const ahead = Math.min(width / 2 / Math.abs(dx), height / 2 / Math.abs(dy)) + 3;
    const side = table().board_width / 2 - width / 2;
    const x = clamp(tip[0] + dx * ahead, -side, side);
    const [north, south] = cityExtent();
    const y = tip[1] + dy * ahead;
    // Green pitches from the south (the bottom of the drawing), Purple from the north.
    label.setAttribute("x", x);
    label.setAttribute("y", gang === "green" ? Math.max(y, south + height / 2 + 1) : Math.min(y, north - height / 2 - 1));
  }

  /** The SVG y the city reaches north and south, with the files' labels under it. */
  function cityExtent() {
    const half = table().city_mm / 2;
    const files = world.querySelector("text.file")?.getBBox();
    return files ? [Math.min(-half, files.y), Math.max(half, files.y + files.height)] : [-half, half];
  }

  function pointerDown(event) {
    if (!canShoot()) return;
    event.preventDefault();
    handle.setPointerCapture?.(event.pointerId);
    drag = { mode: "place", pointer: boardPoint(event) };
  }

  function pointerMove(event) {
    if (!drag) return;
    const p = boardPoint(event);
    drag.pointer = p;
    const gang = pitcherGang();
    const f = frame(gang);
    const tb = table();
    const [x, y] = launchPoint(gang, aim.position);
    const back = -((p[0] - x) * f.forward[0] + (p[1] - y) * f.forward[1]);
    if (drag.mode === "place") {
      if (back < PLACE_ZONE) {
        const along = (p[0] - f.origin[0]) * f.right[0] + (p[1] - f.origin[1]) * f.right[1];
        // "Why not?" (issue 32, why-not.js): dragged well past the HQ, once a drag, the rule is asked.
        if (Math.abs(along) > tb.launch_half_width + WHY_NOT_MM && !drag.asked) drag.asked = askWhyNotShot(send, mySeat(msg), { ...aim, position: along });
        aim.position = round(clamp(along, -tb.launch_half_width, tb.launch_half_width), 0.5);
        syncSliders();
        drawAim();
        schedulePredict();
        return;
      }
      drag.mode = "aim";
    }
    // The slingshot: the cube flies opposite to the pull, faster the farther it is pulled.
    const pull = [x - p[0], y - p[1]];
    const length = Math.hypot(pull[0], pull[1]);
    drag.length = length;
    if (length >= DEAD_ZONE) {
      const ahead = pull[0] * f.forward[0] + pull[1] * f.forward[1];
      const left = -(pull[0] * f.right[0] + pull[1] * f.right[1]);
      const direction = (Math.atan2(left, ahead) * 180) / Math.PI;
      aim.direction = round(clamp(direction, -tb.max_direction, tb.max_direction), 0.5);
      const share = clamp((length - DEAD_ZONE) / PULL_RANGE, 0, 1);
      aim.speed = round(speedOfPull(share, tb), 0.01);
      syncSliders();
      schedulePredict();
    }
    drawAim();
  }

  function pointerUp(event) {
    if (!drag) return;
    const done = drag;
    drag = null;
    handle.releasePointerCapture?.(event.pointerId);
    if (done.mode === "aim" && done.length >= DEAD_ZONE) pitch();
    else drawAim();
  }

  function pitch() {
    if (!canShoot()) return;
    clearTimeout(predictTimer);
    sentShot = true;
    send({ type: "act", seat: mySeat(msg), action: shotText() });
    aimLayer?.replaceChildren();
    for (const input of aimBox.querySelectorAll("input, button")) input.disabled = true;
  }

  // ---------------------------------------------------------------- the flick

  const animateFlick = (flight, gang, factor, signal, lost) => animateFlight(flightLayer, table(), flight, gang, factor, signal, lost);

  // ---------------------------------------------------------------- powers and the side panel

  /** The power box: for a seat whose gang still has its power, the power's button, always
   * there and live while the power may be used (the few seconds after the gang's shot, the
   * shot's result above it); for anyone, the shot's result while its gang may use its power. */
  function renderPower(live) {
    const v = msg.view;
    const deciding = v.phase === "power" && !v.outcome;
    const gang = myGang();
    const mine = gang !== null && v.powers[gang] && !v.outcome;
    powerBox.hidden = !deciding && !mine;
    placePower();
    if (powerBox.hidden) {
      powerBox.replaceChildren();
      return;
    }
    const entry = v.log.at(-1);
    const result = deciding && entry && "covered" in entry
      ? [el("h3", {}, t("city_result_title")), el("p", { class: "shot-result", id: "shot-result" }, entryWords(entry, v.to_move))]
      : [];
    if (!mine) {
      powerBox.replaceChildren(...result, el("p", { class: "hint" }, t("wait_power", { name: msg.names[msg.actor] })));
      return;
    }
    const power = POWER_OF[gang];
    const button = el("button", {
      type: "button", class: `btn btn-primary power-use power-${power}`, id: "use-power", "data-decision": power,
      disabled: !live, title: t(`rule_${power}`), onclick: () => decide(power),
    }, t(`power_${power}`));
    const hint = live ? t("city_power_window", { s: POWER_WINDOW_MS / 1000 }) : t("city_power_later");
    powerBox.classList.toggle("live", live);
    powerBox.replaceChildren(...result, el("div", { class: "power-choice" },
      button, el("p", { class: "rule" }, t(`rule_${power}`)), el("p", { class: "hint", id: "power-hint" }, hint)));
  }

  /** Whether this page's gang may use its power now: in the power phase after its shot. Then
   * the page declines the power by itself once POWER_WINDOW_MS have passed with this state
   * still on screen and the power unused (the record is the same as a "pass" by hand). */
  function keepPowerLive() {
    const v = msg.view;
    const live = v.phase === "power" && myTurn() && !v.outcome && v.decisions.includes("pass");
    if (!live) {
      clearTimeout(passTimer);
      passFor = null;
      return false;
    }
    if (passFor !== msg.version) {
      passFor = msg.version;
      clearTimeout(passTimer);
      const shown = msg.version;
      passTimer = setTimeout(() => {
        if (msg.version !== shown || msg.view.phase !== "power") return;
        // A send the page held back (it sends nothing while it shows plays) is tried again
        // at the next drawing.
        if (!send({ type: "act", seat: mySeat(msg), action: "pass" })) passFor = null;
      }, POWER_WINDOW_MS);
    }
    return true;
  }

  function decide(decision) {
    clearTimeout(passTimer);
    for (const b of powerBox.querySelectorAll("button")) b.disabled = true;
    send({ type: "act", seat: mySeat(msg), action: decision });
  }

  function renderGangs() {
    const v = msg.view;
    const tb = table();
    gangs.replaceChildren(...["green", "purple"].map((gang) => {
      const seats = v.seats.map((s, i) => ({ ...s, i })).filter((s) => s.gang === gang);
      const cubes = Array.from({ length: 4 }, (_, i) => el("span", { class: `hq-cube ${i < v.cubes[gang] ? "alive" : "lost"} cube-${gang}` }));
      const power = POWER_OF[gang];
      return el("div", { class: `gang gang-${gang}${v.to_move === gang && !v.outcome ? " active" : ""}`, "data-gang": gang },
        el("div", { class: "gang-head" },
          el("span", { class: `seat-dot dot-${gang}`, "aria-hidden": "true" }),
          el("strong", {}, t(`gang_${gang}`)),
          el("span", { class: "gang-squares", "data-squares": v.squares[gang] }, t("squares_n", { n: v.squares[gang], total: tb.city_size ** 2 })),
        ),
        el("div", { class: "gang-row" },
          el("span", { class: "hq", "aria-label": t("hq_cubes", { n: v.cubes[gang] }), role: "img", "data-cubes": v.cubes[gang] }, cubes),
          el("span", { class: `power-badge${v.powers[gang] ? "" : " used"}`, title: t(`rule_${power}`) }, `${t(`power_${power}`)} ${v.powers[gang] ? "✓" : "✗"}`),
        ),
        el("ul", { class: "gang-seats" }, seats.map((s) => el("li", { class: s.i === msg.actor && !v.outcome ? "active" : "" },
          msg.names[s.i],
          seatBadges(msg, s.i),
          el("span", { class: "skill" }, t(`skill_${s.skill}`)),
        ))),
      );
    }));
    const box = el("input", { type: "checkbox", id: "show-threats", checked: showThreats });
    box.addEventListener("change", () => {
      showThreats = box.checked;
      drawBoard();
    });
    threatToggle.replaceChildren(box, el("span", {}, t("show_threats")));
    // A spectator is told so, and who is at the table (the badges say who is away).
    watching.hidden = msg.seats.length > 0;
    watching.textContent = watching.hidden ? "" : t("city_watching", { n: (msg.online || []).length, total: v.seats.length });
    stillToggle.hidden = !hotSeat();
    if (!stillToggle.hidden) {
      const still = el("input", { type: "checkbox", id: "keep-still", checked: stored(STILL_KEY) === "1" });
      still.addEventListener("change", () => {
        store(STILL_KEY, still.checked ? "1" : null);
        drawBoard();
      });
      stillToggle.replaceChildren(still, el("span", {}, t("city_keep_still")));
    }
  }

  function renderLog() {
    logTitle.textContent = t("log");
    const lines = msg.view.log.map((entry, i) => (isNews(entry) ? logEntry(msg, entry.seat, gangOf(entry.seat),
      entryWords(entry, gangOf(entry.seat)),
      { ...then.line(i + 1), title: entry.notation }) : null)); // the notation as the record writes it
    log.replaceChildren(...lines.filter(Boolean));
    log.scrollTop = log.scrollHeight;
  }

  return {
    applyState,
    onMessage,
    showPresence(online) {
      if (!msg) return;
      msg.online = online;
      renderGangs();
    },
    onError() {
      // A refused shot: let the player aim again.
      if (sentShot) {
        sentShot = false;
        render();
      } else if (predictionsAsked.length) {
        predictionsAsked.shift(); // that prediction was refused
      }
    },
    rerender: render,
    describe(seat, message) {
      const gang = message.view.seats[seat].gang;
      return { role: gang, label: t(`gang_${gang}`) };
    },
  };
}

/** The speed a pull gives (``share`` of the full pull, 0–1): piecewise linear, slow to the
 * city's near edge, fine across the city, then fast up to the table's limit. */
function speedOfPull(share, tb) {
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
