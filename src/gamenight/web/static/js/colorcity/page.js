// @ts-check
// The Color City table's parts on the page and what the page holds between messages: the
// state shown, the aim and drag, the prediction asked for, the drawing's layers.
import { el } from "../core/dom.js";
import { START_AIM } from "./model.js";

/** @typedef {import("../core/messages.js").StateOut} StateOut */
/** @typedef {import("../core/messages.js").PredictionOut} PredictionOut */
/** @typedef {import("./board.js").CitySvg} CitySvg */

/** @typedef {{
 *   banner: HTMLElement, board: HTMLElement, aimBox: HTMLElement, powerBox: HTMLElement,
 *   gangs: HTMLElement, watching: HTMLElement, stillToggle: HTMLElement, log: HTMLElement,
 *   logTitle: HTMLElement, threatToggle: HTMLElement,
 * }} Parts */

/** @typedef {{
 *   root: HTMLElement, send: (message: import("../core/socket.js").Inbound) => boolean, parts: Parts,
 *   msg: StateOut | null, aim: import("./model.js").Aim, drag: import("./model.js").Drag | null,
 *   prediction: PredictionOut | null, predictionsAsked: string[], sentShot: boolean,
 *   showThreats: boolean, flying: boolean, passFor: number | null,
 *   svg: CitySvg | null, world: SVGGElement | null, aimLayer: SVGGElement | null,
 *   flightLayer: SVGGElement | null, handle: HTMLElement | null,
 *   sliders: Record<string, {input: HTMLInputElement, output: HTMLOutputElement}>,
 * }} CityPage */

/** The page's parts, laid out in ``root``, and nothing shown yet.
 * @param {HTMLElement} root
 * @param {CityPage["send"]} send
 * @returns {CityPage} */
export function cityPage(root, send) {
  const parts = {
    banner: el("div", { class: "turn-banner", id: "turn-banner", role: "status", "aria-live": "polite" }),
    board: el("div", { class: "board colorcity-board-box", id: "board" }),
    aimBox: el("div", { class: "card-box aim-box", id: "aim-box" }),
    powerBox: el("div", { class: "card-box power-box", id: "power-box", hidden: true }),
    gangs: el("div", { class: "gangs", id: "gangs" }),
    watching: el("p", { class: "watching hint", id: "watching-online", hidden: true }),
    stillToggle: el("label", { class: "toggle", id: "keep-still-toggle", hidden: true }),
    log: el("ol", { class: "log", id: "log" }),
    logTitle: el("h3", {}),
    threatToggle: el("label", { class: "toggle" }),
  };
  root.classList.add("colorcity-table");
  root.append(
    el("section", { class: "board-col" }, parts.banner, el("div", { class: "board-wrap" }, parts.board)),
    el("aside", { class: "side" },
      parts.aimBox,
      el("div", { class: "card-box" }, parts.watching, parts.gangs, parts.threatToggle, parts.stillToggle),
      el("div", { class: "card-box" }, parts.logTitle, parts.log)),
  );
  return {
    root, send, parts, msg: null, aim: { ...START_AIM }, drag: null, prediction: null, predictionsAsked: [],
    sentShot: false, showThreats: true, flying: false, passFor: null,
    svg: null, world: null, aimLayer: null, flightLayer: null, handle: null, sliders: {},
  };
}

/** The state shown (there is one once the page draws anything). @param {CityPage} c @returns {StateOut} */
export function shown(c) {
  if (!c.msg) throw new Error("no state shown yet");
  return c.msg;
}
