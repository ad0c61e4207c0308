// @ts-check
// The Color City table's controller (contract A of table.js: create(ctx) → the game's UI):
// it wires the socket's messages to the model (colorcity/model.js) and the model to the
// views (the city, the aim, the aim's panel, the power, the gangs, the log).
import { el, keepWordsLegible, setBoardAspect, sound } from "./core/dom.js";
import { t } from "./core/i18n.js";
import { mySeat, renderTurnBanner } from "./core/seats.js";
import { boardThen } from "./core/then.js";
import { stored } from "./core/tokens.js";
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

// The replay draws and flies the same city.
export { boardSvg } from "./colorcity/board.js";
export { animateFlight } from "./colorcity/flight.js";
export { entryWords } from "./colorcity/log.js";
export { isLost, isNews } from "./colorcity/model.js";

/** @typedef {import("./colorcity/page.js").CityPage} CityPage */
/** @typedef {import("./core/messages.js").StateOut} StateOut */
/** @typedef {import("./core/messages.js").Outbound} Outbound */

/** @param {{root: HTMLElement, send: CityPage["send"]}} ctx */
export function create({ root, send }) {
  const c = cityPage(root, send);
  const { board, log, aimBox, powerBox, banner } = c.parts;
  const fitWords = keepWordsLegible(board);
  const predict = predictor(c);
  const passClock = {};
  const act = (/** @type {string} */ action) => send({ type: "act", seat: mySeat(shown(c)), action });
  // The launch cube's touch target follows the cube when the board is drawn another size.
  new ResizeObserver(() => {
    if (c.msg && !c.drag) drawAim(c);
  }).observe(board);
  const wide = window.matchMedia("(min-width: 901px)");
  placePower(c, wide);
  wide.addEventListener("change", () => placePower(c, wide));
  // Hovering, focusing or tapping a line of the log shows the city as it was after that
  // action, never while the player aims, a shot is on its way or a flick is being shown.
  const then = boardThen({
    board, log, tableId: () => shown(c).table,
    busy: () => Boolean(c.drag || c.sentShot || c.flying),
    drawThen: (view) => {
      const past = citySvg(view, viewGang(shown(c), stored(STILL_KEY) === "1"), c.showThreats);
      board.dataset.showing = "then";
      board.replaceChildren(past);
      setBoardAspect(root, past);
      fitWords();
    },
    drawNow: () => drawBoard(),
  });

  function pitch() {
    if (!canShoot(c.msg, c.sentShot)) return;
    predict.cancel();
    c.sentShot = true;
    act(shotText(c.aim));
    c.aimLayer?.replaceChildren();
    for (const input of aimBox.querySelectorAll("input, button")) /** @type {HTMLInputElement} */ (input).disabled = true;
  }

  function decide(/** @type {string} */ decision) {
    clearTimeout(passClock.timer);
    for (const b of powerBox.querySelectorAll("button")) b.disabled = true;
    act(decision);
  }

  /** The launch cube's touch target: an element of the page over the cube, 48 px a side
   * however small the board is drawn, the only place a drag aims: a swipe anywhere else on
   * the board scrolls the page (the board lets the browser pan; the target does not). */
  function launchHandle() {
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
      if (moved.changed) {
        syncSliders(c);
        predict();
      }
      drawAim(c);
    });
    handle.addEventListener("pointerup", (event) => {
      if (!c.drag) return;
      const done = c.drag;
      c.drag = null;
      handle.releasePointerCapture?.(event.pointerId);
      if (dragFlicks(done)) pitch();
      else drawAim(c);
    });
    handle.addEventListener("pointercancel", () => {
      c.drag = null;
      drawAim(c);
    });
    return handle;
  }

  function drawBoard() {
    const msg = shown(c);
    const svg = citySvg(msg.view, viewGang(msg, stored(STILL_KEY) === "1"), c.showThreats);
    Object.assign(c, { svg, world: svg.world, aimLayer: svgNode("g", { class: "aim-layer" }), flightLayer: svgNode("g", { class: "flight-layer" }) });
    svg.world.append(/** @type {SVGGElement} */ (c.aimLayer), /** @type {SVGGElement} */ (c.flightLayer));
    then.shownNow();
    board.dataset.showing = "state";
    c.handle = launchHandle();
    board.replaceChildren(svg, c.handle);
    setBoardAspect(root, svg);
    fitWords();
    drawAim(c);
  }

  function render() {
    if (!c.msg) return;
    const msg = c.msg;
    const live = keepPowerLive(c, passClock, act);
    drawBoard();
    renderTurnBanner(banner, msg, myTurn(msg), () => {
      const what = msg.view.phase === "power" ? t("deciding_power") : t("pitching");
      return { role: msg.view.to_move, detail: what, theirs: `${t(`gang_${msg.view.to_move}`)} · ${what}` };
    });
    renderAim(c, predict, pitch);
    placePower(c, wide);
    renderPower(c, live, decide);
    renderGangs(c, drawBoard);
    renderLog(c, then.line);
  }

  /** Show a new state, animating the flick that led to it along its recorded poses, each
   * duration times ``options.factor`` (0: no animation), jumping to the end when
   * ``options.signal`` aborts.
   * @param {StateOut} message @param {{factor?: number, signal?: AbortSignal | null}} [options] */
  async function applyState(message, { factor = 1, signal = null } = {}) {
    const previous = c.msg;
    const last = message.last;
    const pitched = previous && message.version === previous.version + 1 && last && last.flight;
    then.now(); // the flick flies over the city as it is now
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
    then.follow(message);
    if (turnChanged) {
      c.sentShot = false;
      c.prediction = null;
    }
    // Each pitcher starts from a plain straight shot, not the last player's aim.
    if (!previous || previous.actor !== message.actor) Object.assign(c.aim, START_AIM);
    render();
  }

  /** A prediction heard: drawn, if the page still aims. @param {Outbound} message */
  function onMessage(message) {
    if (message.type !== "prediction") return;
    const asked = c.predictionsAsked.shift();
    if (!canShoot(c.msg, c.sentShot)) return;
    c.prediction = message;
    board.dataset.predicted = asked;
    const text = document.getElementById("prediction-text");
    if (text) text.textContent = predictionText(c);
    drawAim(c);
  }

  return {
    applyState,
    onMessage,
    /** @param {number[]} online */
    showPresence(online) {
      if (!c.msg) return;
      c.msg.online = online;
      renderGangs(c, drawBoard);
    },
    onError() {
      // A refused shot: let the player aim again.
      if (c.sentShot) {
        c.sentShot = false;
        render();
      } else if (c.predictionsAsked.length) {
        c.predictionsAsked.shift(); // that prediction was refused
      }
    },
    rerender: render,
    /** @param {number} seat @param {StateOut} message */
    describe(seat, message) {
      const gang = message.view.seats[seat].gang;
      return { role: gang, label: t(`gang_${gang}`) };
    },
  };
}
