// @ts-check
// The Color City table's controller (contract A of table.js: create(ctx) → the game's UI):
// it wires the socket's messages to the model (colorcity/model.js) and the model to the
// views (the city, the aim, the aim's panel, the power, the gangs, the log).
import { el, keepWordsLegible, setBoardAspect, sound } from "./core/dom.js";
import { t } from "./core/i18n.js";
import { mySeat, renderTurnBanner } from "./core/seats.js";
import { boardThen } from "./core/then.js";
import { stored } from "./core/tokens.js";
import { askWhyNotShot } from "./why-not.js";
import { boardPoint, drawAim } from "./colorcity/aim.js";
import { citySvg, svgNode } from "./colorcity/board.js";
import { animateFlight } from "./colorcity/flight.js";
import { STILL_KEY, renderGangs } from "./colorcity/gangs.js";
import { renderLog } from "./colorcity/log.js";
import {
  START_AIM, canShoot, dragFlicks, dragMove, dragStart, gangOf, isLost, myTurn, shotText, viewGang,
} from "./colorcity/model.js";
import { cityPage, shown } from "./colorcity/page.js";
import { predictionText, predictor, renderAim, syncSliders } from "./colorcity/panel.js";
import { keepPowerLive, placePower, renderPower } from "./colorcity/power.js";

/** @typedef {import("./colorcity/page.js").CityPage} CityPage */
/** @typedef {import("./core/messages.js").StateOut} StateOut */
/** @typedef {import("./core/messages.js").Outbound} Outbound */

/** What the controller's steps share: the page, the board then, the prediction asked for,
 * the power's clock, the words' fitting and the wide-screen query.
 * @typedef {{
 *   c: CityPage, then: ReturnType<typeof boardThen>, predict: ReturnType<typeof predictor>,
 *   passClock: {timer?: ReturnType<typeof setTimeout>}, fitWords: () => void, wide: MediaQueryList,
 *   phone: MediaQueryList,
 * }} Controller */

/** @param {CityPage} c @param {string} action */
const act = (c, action) => c.send({ type: "act", seat: mySeat(shown(c)), action });

/** The aimed shot sent: the aim put away until the answer. @param {Controller} k */
function pitch(k) {
  const { c } = k;
  if (!canShoot(c.msg, c.sentShot)) return;
  k.predict.cancel();
  c.sentShot = true;
  act(c, shotText(c.aim));
  c.aimLayer?.replaceChildren();
  for (const input of c.parts.aimBox.querySelectorAll("input, button")) /** @type {HTMLInputElement} */ (input).disabled = true;
}

/** The power used (or declined). @param {Controller} k @param {string} decision */
function decide(k, decision) {
  clearTimeout(k.passClock.timer);
  for (const b of k.c.parts.powerBox.querySelectorAll("button")) b.disabled = true;
  act(k.c, decision);
}

/** The launch cube's touch target: an element of the page over the cube, 48 px a side
 * however small the board is drawn, the only place a drag aims: a swipe anywhere else on
 * the board scrolls the page (the board lets the browser pan; the target does not); the
 * drag runs the model's aim → flick machine. @param {Controller} k */
function launchHandle(k) {
  const { c } = k;
  const handle = el("div", { class: "launch-handle", id: "launch-handle", "aria-hidden": "true", hidden: true });
  handle.addEventListener("pointerdown", (event) => {
    if (!canShoot(c.msg, c.sentShot)) return;
    event.preventDefault();
    handle.setPointerCapture?.(event.pointerId);
    c.drag = dragStart(boardPoint(c, event));
  });
  handle.addEventListener("pointermove", (event) => {
    if (!c.drag) return;
    const moved = dragMove(c.drag, c.aim, boardPoint(c, event), shown(c).view.to_move, shown(c).view.table);
    c.drag = moved.drag;
    Object.assign(c.aim, moved.aim);
    // "Why not?" (issue 32): a slide well past the HQ is sent as that shot, once a drag, and
    // the server's refusal says the rule.
    const seat = mySeat(shown(c));
    if (moved.beyond !== undefined && !c.drag.asked && seat !== null) {
      c.drag = { ...c.drag, asked: true };
      askWhyNotShot(c.send, seat, { ...c.aim, position: moved.beyond });
    }
    if (moved.changed) {
      syncSliders(c);
      k.predict();
    }
    drawAim(c);
  });
  handle.addEventListener("pointerup", (event) => {
    if (!c.drag) return;
    const done = c.drag;
    c.drag = null;
    handle.releasePointerCapture?.(event.pointerId);
    if (dragFlicks(done)) pitch(k);
    else drawAim(c);
  });
  handle.addEventListener("pointercancel", () => {
    c.drag = null;
    drawAim(c);
  });
  return handle;
}

/** The city as it is now, with the aim's and the flight's layers and the launch handle.
 * @param {Controller} k */
function drawBoard(k) {
  const { c } = k;
  const msg = shown(c);
  const svg = citySvg(msg.view, viewGang(msg, stored(STILL_KEY) === "1"), c.showThreats, k.phone.matches);
  Object.assign(c, { svg, world: svg.world, aimLayer: svgNode("g", { class: "aim-layer" }), flightLayer: svgNode("g", { class: "flight-layer" }) });
  svg.world.append(/** @type {SVGGElement} */ (c.aimLayer), /** @type {SVGGElement} */ (c.flightLayer));
  k.then.shownNow();
  c.parts.board.dataset.showing = "state";
  c.handle = launchHandle(k);
  c.parts.board.replaceChildren(svg, c.handle);
  setBoardAspect(c.root, svg);
  k.fitWords();
  drawAim(c);
}

/** Every view of the state shown. @param {Controller} k */
function render(k) {
  const { c } = k;
  if (!c.msg) return;
  const msg = c.msg;
  const live = keepPowerLive(c, k.passClock, (action) => act(c, action));
  drawBoard(k);
  renderTurnBanner(c.parts.banner, msg, myTurn(msg), () => {
    const what = msg.view.phase === "power" ? t("deciding_power") : t("pitching");
    return { role: msg.view.to_move, detail: what, theirs: `${t(`gang_${msg.view.to_move}`)} · ${what}` };
  });
  renderAim(c, k.predict, () => pitch(k));
  placePower(c, k.wide);
  renderPower(c, live, (decision) => decide(k, decision));
  renderGangs(c, () => drawBoard(k));
  renderLog(c, k.then.line);
}

/** Show a new state, animating the flick that led to it along its recorded poses, each
 * duration times ``options.factor`` (0: no animation), jumping to the end when
 * ``options.signal`` aborts.
 * @param {Controller} k @param {StateOut} message @param {{factor?: number, signal?: AbortSignal | null}} [options] */
async function applyState(k, message, { factor = 1, signal = null } = {}) {
  const { c } = k;
  const previous = c.msg;
  const last = message.last;
  const pitched = previous && message.version === previous.version + 1 && last && last.flight;
  k.then.now(); // the flick flies over the city as it is now
  if (pitched && previous && last && c.svg) {
    c.aimLayer?.replaceChildren();
    c.flying = true;
    try {
      const layer = /** @type {SVGGElement} */ (c.flightLayer);
      await animateFlight(layer, previous.view.table, last.flight, gangOf(previous, last.seat), factor, signal, isLost(last));
    } finally {
      c.flying = false;
    }
  }
  if (pitched && message.view.stop && message.view.stop[2] > 0) sound("cube");
  const turnChanged = !previous || previous.actor !== message.actor || previous.version !== message.version;
  c.msg = message;
  k.then.follow(message);
  if (turnChanged) {
    c.sentShot = false;
    c.prediction = null;
  }
  // Each pitcher starts from a plain straight shot, not the last player's aim.
  if (!previous || previous.actor !== message.actor) Object.assign(c.aim, START_AIM);
  render(k);
}

/** A prediction heard: drawn, if the page still aims. @param {CityPage} c @param {Outbound} message */
function onPrediction(c, message) {
  if (message.type !== "prediction") return;
  const asked = c.predictionsAsked.shift();
  if (!canShoot(c.msg, c.sentShot)) return;
  c.prediction = message;
  c.parts.board.dataset.predicted = asked;
  const text = document.getElementById("prediction-text");
  if (text) text.textContent = predictionText(c);
  drawAim(c);
}

/** The controller's steps for the page ``c``, wired to its board and its log.
 * @param {CityPage} c @returns {Controller} */
function controller(c) {
  const { board, log } = c.parts;
  const fitWords = keepWordsLegible(board);
  const wide = window.matchMedia("(min-width: 901px)");
  // A phone's screen: the city drawn across it, the pitcher's end of the board only.
  const phone = window.matchMedia("(max-width: 600px)");
  /** @type {Controller} */
  const k = { c, then: /** @type {any} */ (null), predict: predictor(c), passClock: {}, fitWords, wide, phone };
  // Hovering, focusing or tapping a line of the log shows the city as it was after that
  // action, never while the player aims, a shot is on its way or a flick is being shown.
  k.then = boardThen({
    board, log, tableId: () => shown(c).table,
    busy: () => Boolean(c.drag || c.sentShot || c.flying),
    drawThen: (view) => {
      const past = citySvg(view, viewGang(shown(c), stored(STILL_KEY) === "1"), c.showThreats, phone.matches);
      board.dataset.showing = "then";
      board.replaceChildren(past);
      setBoardAspect(c.root, past);
      fitWords();
    },
    drawNow: () => drawBoard(k),
  });
  // The launch cube's touch target follows the cube when the board is drawn another size.
  new ResizeObserver(() => {
    if (c.msg && !c.drag) drawAim(c);
  }).observe(board);
  placePower(c, wide);
  wide.addEventListener("change", () => placePower(c, wide));
  phone.addEventListener("change", () => {
    if (c.msg && !c.drag && !c.flying) drawBoard(k);
  });
  return k;
}

/** The table's UI for Color City (what table.js asks of a game's module).
 * @param {{root: HTMLElement, send: CityPage["send"]}} ctx */
export function create({ root, send }) {
  const c = cityPage(root, send);
  const k = controller(c);
  return {
    /** @param {StateOut} message @param {{factor?: number, signal?: AbortSignal | null}} [options] */
    applyState: (message, options) => applyState(k, message, options),
    /** @param {Outbound} message */
    onMessage: (message) => onPrediction(c, message),
    /** @param {number[]} online */
    showPresence(online) {
      if (!c.msg) return;
      c.msg.online = online;
      renderGangs(c, () => drawBoard(k));
    },
    onError() {
      // A refused shot: let the player aim again.
      if (c.sentShot) {
        c.sentShot = false;
        render(k);
      } else if (c.predictionsAsked.length) {
        c.predictionsAsked.shift(); // that prediction was refused
      }
    },
    rerender: () => render(k),
    /** @param {number} seat @param {StateOut} message */
    describe(seat, message) {
      const gang = message.view.seats[seat].gang;
      return { role: gang, label: t(`gang_${gang}`) };
    },
  };
}
