// The Color City table: aim with a slingshot drag, watch the flick, decide on powers.
import {
  el, keepWordsLegible, logEntry, mySeat, renderTurnBanner, seatBadges, setBoardAspect, svgElement, t,
} from "./common.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const GANG_COLOUR = { green: "#1f7a3a", purple: "#5e2b80" };
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

const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
const round = (x, step) => Math.round(x / step) * step;
const fmt = (x, digits) => String(Number(x.toFixed(digits)));

function yaw(qw, qx, qy, qz) {
  return Math.atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz));
}

export function create(ctx) {
  const { root, send } = ctx;
  let msg = null;
  let svg = null;
  let world = null;
  let aimLayer = null;
  let sliders = {}; // the aim's sliders on screen: {key: {input, output}}
  const aim = { position: 0, direction: 0, speed: 1.3, spin: 0 };
  let drag = null;
  let lastPredictSent = 0;
  let predictTimer = null;
  let prediction = null;
  const predictionsAsked = []; // shots sent for prediction, answered in order
  let sentShot = false;
  let showThreats = true;

  const banner = el("div", { class: "turn-banner", id: "turn-banner", role: "status", "aria-live": "polite" });
  const board = el("div", { class: "board colorcity-board-box", id: "board" });
  const aimBox = el("div", { class: "card-box aim-box", id: "aim-box" });
  const powerBox = el("div", { class: "card-box power-box", id: "power-box", hidden: true });
  const gangs = el("div", { class: "gangs", id: "gangs" });
  const log = el("ol", { class: "log", id: "log" });
  const logTitle = el("h3", {});
  const threatToggle = el("label", { class: "toggle" });

  root.classList.add("colorcity-table");
  const fitWords = keepWordsLegible(board);
  root.append(
    el("section", { class: "board-col" }, banner, el("div", { class: "board-wrap" }, board)),
    el("aside", { class: "side" }, powerBox, aimBox, el("div", { class: "card-box" }, gangs, threatToggle), el("div", { class: "card-box" }, logTitle, log)),
  );

  const gangOf = (seat) => msg.view.seats[seat].gang;
  const myGang = () => (mySeat(msg) === null ? null : gangOf(mySeat(msg)));
  const myTurn = () => msg && msg.actor !== null && msg.actor === mySeat(msg);
  const canShoot = () => myTurn() && msg.view.expects === "shot" && !sentShot;
  const table = () => msg.view.table;
  // Whose HQ is at the bottom of the screen: your own, or Green's for a spectator.
  const viewGang = () => myGang() || "green";
  const pitcherGang = () => msg.view.to_move;

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

  /** Show a new state, animating the flick that led to it unless told to ``hurry``. */
  async function applyState(message, hurry) {
    const previous = msg;
    const last = message.last;
    const next = previous && message.version === previous.version + 1 && last && last.trajectory;
    if (next && last.trajectory.length && !hurry && !reduceMotion && svg) {
      aimLayer.replaceChildren();
      await animateFlick(last.trajectory, previous.view.seats[last.seat].gang);
    }
    const turnChanged = !previous || previous.actor !== message.actor || previous.version !== message.version;
    msg = message;
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
    drawBoard();
    renderBanner();
    renderAim();
    renderPower();
    renderGangs();
    renderLog();
  }

  function drawBoard() {
    svg = svgElement(msg.view.svg);
    svg.setAttribute("aria-label", t("city_aria"));
    svg.setAttribute("role", "img");
    world = svgNode("g", { class: "world" });
    world.append(...[...svg.childNodes].filter((n) => n.nodeName !== "title"));
    svg.append(world);
    const defs = svgNode("defs");
    const marker = svgNode("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
    marker.append(svgNode("path", { d: "M0,0 L10,5 L0,10 z", fill: "#c0392b" }));
    defs.append(marker);
    svg.prepend(defs); // the aim arrow's head
    // Purple's HQ at the bottom: turn the board half a turn (the stylesheet keeps its words upright).
    if (viewGang() === "purple") world.setAttribute("transform", "rotate(180)");
    svg.classList.add(`view-${viewGang()}`);
    const threats = svgNode("g", { class: "threats" });
    if (showThreats) {
      const sq = table().square_mm;
      for (const [gang, squares] of Object.entries(msg.view.threats)) {
        for (const name of squares) {
          const rect = world.querySelector(`rect.square[data-square="${name}"]`);
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
    world.append(threats);
    aimLayer = svgNode("g", { class: "aim-layer" });
    world.append(aimLayer);
    board.replaceChildren(svg);
    setBoardAspect(root, svg);
    fitWords();
    svg.addEventListener("pointerdown", pointerDown);
    svg.addEventListener("pointermove", pointerMove);
    svg.addEventListener("pointerup", pointerUp);
    svg.addEventListener("pointercancel", () => (drag = null));
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
    if (!aimLayer) return;
    board.dataset.aim = shotText();
    aimLayer.replaceChildren();
    for (const node of world.querySelectorAll("rect.square.predicted")) node.classList.remove("predicted");
    for (const node of world.querySelectorAll("rect.in-hand")) node.classList.remove("in-hand");
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
    const cube = svgNode("rect", {
      class: "launch-cube", id: "launch-cube", x: x - tb.cube_mm / 2, y: -y - tb.cube_mm / 2,
      width: tb.cube_mm, height: tb.cube_mm, rx: 1.5, fill: GANG_COLOUR[gang],
      transform: `rotate(${-(travel * 180) / Math.PI + 90} ${x} ${-y})`,
      role: "img", "aria-label": t("cube_aria"),
    });
    aimLayer.append(cube);
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
    const p = boardPoint(event);
    const [x, y] = launchPoint(pitcherGang(), aim.position);
    if (Math.hypot(p[0] - x, p[1] - y) > table().cube_mm * 1.6) return;
    event.preventDefault();
    svg.setPointerCapture(event.pointerId);
    drag = { mode: "place", pointer: p };
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
    svg.releasePointerCapture?.(event.pointerId);
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

  function animateFlick(rows, gang) {
    return new Promise((resolve) => {
      const tb = table();
      const cube = svgNode("rect", {
        class: "flying-cube", width: tb.cube_mm, height: tb.cube_mm, x: -tb.cube_mm / 2, y: -tb.cube_mm / 2,
        rx: 1.5, fill: GANG_COLOUR[gang], stroke: "#111", "stroke-width": 0.8,
      });
      const trail = svgNode("polyline", { class: "trail", points: "" });
      aimLayer.append(trail, cube);
      const duration = rows[rows.length - 1][0];
      const start = performance.now();
      let index = 0;
      const points = [];
      const step = (now) => {
        const time = Math.min((now - start) / 1000, duration);
        while (index < rows.length - 1 && rows[index + 1][0] <= time) {
          index += 1;
          points.push(`${rows[index][1]},${-rows[index][2]}`);
        }
        const [, x, y, z, qw, qx, qy, qz] = rows[index];
        const deg = -(yaw(qw, qx, qy, qz) * 180) / Math.PI;
        cube.setAttribute("transform", `translate(${x} ${-y}) rotate(${deg})`);
        cube.setAttribute("opacity", z < 0 ? Math.max(0, 1 + z / 20) : 1);
        trail.setAttribute("points", points.join(" "));
        if (time >= duration) {
          setTimeout(resolve, 250);
          return;
        }
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
  }

  // ---------------------------------------------------------------- powers and the side panel

  function renderPower() {
    const v = msg.view;
    if (v.phase !== "power" || v.outcome) {
      powerBox.hidden = true;
      return;
    }
    powerBox.hidden = false;
    const covered = v.covered.length ? t("stopped_on", { squares: v.covered.join(", ") }) : t("stopped_outside");
    if (!myTurn()) {
      powerBox.replaceChildren(el("h3", {}, t("power")), el("p", {}, covered), el("p", { class: "hint" }, t("wait_power", { name: msg.names[msg.actor] })));
      return;
    }
    powerBox.replaceChildren(
      el("h3", {}, t("power")),
      el("p", {}, covered),
      ...v.decisions.filter((d) => d !== "pass").map((d) => el("div", { class: "power-choice" },
        el("p", { class: "rule" }, t(`rule_${d}`)),
        el("button", { type: "button", class: `btn btn-primary power-${d}`, "data-decision": d, onclick: () => decide(d) }, t(`power_${d}`)),
      )),
      el("button", { type: "button", class: "btn", "data-decision": "pass", onclick: () => decide("pass") }, t("power_pass")),
    );
  }

  function decide(decision) {
    for (const b of powerBox.querySelectorAll("button")) b.disabled = true;
    send({ type: "act", seat: mySeat(msg), action: decision });
  }

  function renderGangs() {
    const v = msg.view;
    const tb = table();
    gangs.replaceChildren(...["green", "purple"].map((gang) => {
      const seats = v.seats.map((s, i) => ({ ...s, i })).filter((s) => s.gang === gang);
      const cubes = Array.from({ length: 4 }, (_, i) => el("span", { class: `hq-cube ${i < v.cubes[gang] ? "alive" : "lost"} cube-${gang}` }));
      const power = gang === "green" ? "lucky-day" : "purple-pain";
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
  }

  function renderLog() {
    logTitle.textContent = t("log");
    const { log: entries, log_seats: seats } = msg.view;
    log.replaceChildren(...entries.map((entry, i) => logEntry(msg, seats[i], gangOf(seats[i]),
      /^[a-z-]+$/.test(entry) ? t(`power_${entry}`) : shotLabel(entry),
      // A declined power is no news: it stays in the record, and dimmed here.
      { "data-step": i + 1, title: entry, class: entry === "pass" ? "log-quiet" : null })));
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

/** A shot's notation ("position direction speed spin", full precision for the record) as a
 * short line for people: "−3 mm · 0° · 1.15 m/s · Spin +40". */
function shotLabel(notation) {
  const [position, direction, speed, spin] = notation.split(" ").map(Number);
  if ([position, direction, speed, spin].some((x) => !Number.isFinite(x))) return notation;
  const signed = (x) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(Math.round(x))}`;
  return `${signed(position)} mm · ${signed(direction)}° · ${speed.toFixed(2)} m/s · ${t("aim_spin")} ${signed(spin)}`;
}
