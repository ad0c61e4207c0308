// @ts-check
// The power box: the shot's result while its gang may use its power, and, for a seat whose
// gang still has it, the power's button, always there and live while it may be used.
import { el } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { entryWords } from "./log.js";
import { POWER_OF, deciding, myGang, powerLive } from "./model.js";
import { shown } from "./page.js";

/** @typedef {import("./page.js").CityPage} CityPage */

// After a shot of its gang the page keeps the power live this long, then carries on (passes)
// by itself: the power is offered without stopping the game to ask.
export const POWER_WINDOW_MS = 3000;

/** Where the power box stands: the shot's result (and the power, when there is one to use)
 * where the eye is after the flick — beside the board at the top of the side panel, or under
 * the banner on a narrow screen, where the side panel is below the board; the rest of the
 * time the power's button waits at the top of the side panel (on a phone, under the board:
 * not over the cube). @param {CityPage} c @param {MediaQueryList} wide */
export function placePower(c, wide) {
  const { powerBox, banner } = c.parts;
  const side = /** @type {HTMLElement} */ (c.root.querySelector(".side"));
  if (wide.matches || !deciding(c.msg)) {
    if (powerBox.parentElement !== side) side.prepend(powerBox);
  } else if (banner.nextElementSibling !== powerBox) banner.after(powerBox);
}

/** The power box for the state shown; ``live``: this page's power may be used now.
 * @param {CityPage} c @param {boolean} live @param {(decision: string) => void} decide */
export function renderPower(c, live, decide) {
  const { powerBox } = c.parts;
  const msg = shown(c);
  const v = msg.view;
  const gang = myGang(msg);
  const mine = gang !== null && v.powers[gang] && !v.outcome;
  powerBox.hidden = !deciding(msg) && !mine;
  if (powerBox.hidden) {
    powerBox.replaceChildren();
    return;
  }
  const entry = v.log.at(-1);
  const result = deciding(msg) && entry && "covered" in entry
    ? [el("h3", {}, t("city_result_title")), el("p", { class: "shot-result", id: "shot-result" }, entryWords(entry, v.to_move))]
    : [];
  if (!mine || gang === null) {
    powerBox.replaceChildren(...result, el("p", { class: "hint" }, t("wait_power", { name: msg.names[/** @type {number} */ (msg.actor)] })));
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

/** Keep this page's power live while it may be used; the page declines it by itself once
 * POWER_WINDOW_MS have passed with this state still on screen and the power unused (the
 * record is the same as a "pass" by hand). Whether it is live now.
 * @param {CityPage} c @param {{timer?: ReturnType<typeof setTimeout>}} clock @param {(action: string) => boolean} act */
export function keepPowerLive(c, clock, act) {
  const msg = shown(c);
  if (!powerLive(msg)) {
    clearTimeout(clock.timer);
    c.passFor = null;
    return false;
  }
  if (c.passFor !== msg.version) {
    c.passFor = msg.version;
    clearTimeout(clock.timer);
    const version = msg.version;
    clock.timer = setTimeout(() => {
      if (shown(c).version !== version || shown(c).view.phase !== "power") return;
      // A send the page held back (it sends nothing while it shows plays) is tried again
      // at the next drawing.
      if (!act("pass")) c.passFor = null;
    }, POWER_WINDOW_MS);
  }
  return true;
}
