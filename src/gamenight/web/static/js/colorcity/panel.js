// @ts-check
// The aim's panel beside the board: a slider for each of the shot's four numbers, the
// prediction in words, the pitch button; and the predictions asked for as the aim changes.
import { el } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { drawAim } from "./aim.js";
import { canShoot, clamp, fmt, myTurn, shotText } from "./model.js";
import { shown } from "./page.js";

/** @typedef {import("./page.js").CityPage} CityPage */
/** @typedef {"position" | "direction" | "speed" | "spin"} AimKey */

/** @type {Record<AimKey, string>} the units of the aim's sliders */
const UNITS = { position: "mm", direction: "°", speed: "m/s", spin: "rad/s" };
const PREDICT_EVERY_MS = 120; // at most one prediction asked for in this time

/** @param {CityPage} c @param {AimKey} key */
const aimValue = (c, key) => `${fmt(c.aim[key], 2)} ${UNITS[key]}`;

/** The prediction of the aimed shot in words (empty before it is heard). @param {CityPage} c */
export function predictionText(c) {
  const prediction = c.prediction;
  if (!prediction) return "";
  if (!prediction.on_table) return t("predict_off");
  if (!prediction.covered.length) return t("predict_outside");
  return t("predict_covers", { squares: prediction.covered.join(", ") });
}

/** Ask the server where the aimed shot goes, at most once every PREDICT_EVERY_MS.
 * @param {CityPage} c @returns {(() => void) & {cancel: () => void}} schedule a prediction, and (``.cancel``) cancel it */
export function predictor(c) {
  let lastSent = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const schedule = () => {
    if (!canShoot(c.msg, c.sentShot)) return;
    const wait = Math.max(0, PREDICT_EVERY_MS - (Date.now() - lastSent));
    clearTimeout(timer);
    timer = setTimeout(() => {
      lastSent = Date.now();
      const shot = shotText(c.aim);
      if (c.send({ type: "predict", shot })) c.predictionsAsked.push(shot);
    }, wait);
  };
  return Object.assign(schedule, { cancel: () => clearTimeout(timer) });
}

/** @param {CityPage} c @param {AimKey} key @param {string} label @param {number} min @param {number} max
 * @param {number} step @param {() => void} predict */
function slider(c, key, label, min, max, step, predict) {
  const id = `aim-${key}`;
  const output = el("output", { for: id, id: `${id}-value` }, aimValue(c, key));
  const input = el("input", { type: "range", id, min, max, step, value: c.aim[key], disabled: !canShoot(c.msg, c.sentShot) });
  input.addEventListener("input", () => {
    c.aim[key] = Number(input.value);
    output.textContent = aimValue(c, key);
    drawAim(c);
    predict();
  });
  c.sliders[key] = { input, output };
  return el("div", { class: "slider-row" }, el("label", { for: id }, label), input, output);
}

/** The aim's panel, on this page's turn to shoot.
 * @param {CityPage} c @param {() => void} predict @param {() => void} pitch */
export function renderAim(c, predict, pitch) {
  const { aimBox } = c.parts;
  const msg = shown(c);
  const tb = msg.view.table;
  aimBox.hidden = !(myTurn(msg) && msg.view.expects === "shot");
  c.sliders = {};
  if (aimBox.hidden) {
    aimBox.replaceChildren();
    return;
  }
  c.aim.position = clamp(c.aim.position, -tb.launch_half_width, tb.launch_half_width);
  aimBox.replaceChildren(
    el("h3", {}, t("aim")),
    el("p", { class: "hint" }, t("aim_help")),
    slider(c, "position", t("aim_position"), -tb.launch_half_width, tb.launch_half_width, 0.5, predict),
    slider(c, "direction", t("aim_direction"), -tb.max_direction, tb.max_direction, 0.5, predict),
    slider(c, "speed", t("aim_speed"), tb.min_speed, tb.max_speed, 0.01, predict),
    slider(c, "spin", t("aim_spin"), -tb.max_spin, tb.max_spin, 0.5, predict),
    el("p", { class: "prediction", id: "prediction-text", "aria-live": "polite" }, predictionText(c)),
    el("div", { class: "form-actions" },
      el("button", { type: "button", class: "btn btn-primary", id: "pitch", disabled: !canShoot(c.msg, c.sentShot), onclick: pitch }, t("pitch"))),
  );
  predict();
}

/** The sliders moved to the aim a drag made. @param {CityPage} c */
export function syncSliders(c) {
  for (const [key, { input, output }] of Object.entries(c.sliders)) {
    input.value = String(c.aim[/** @type {AimKey} */ (key)]);
    output.textContent = aimValue(c, /** @type {AimKey} */ (key));
  }
}
