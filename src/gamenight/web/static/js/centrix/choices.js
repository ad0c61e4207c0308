// @ts-check
// The choices under the hand, one group a step of the play being chosen: the ring to turn
// (or none), the pawn to move (or the card alone), where it goes, and Cancel.
import { el, t } from "../common.js";
import { pawnsOf, targetsOf, turnsOf } from "./selection.js";
import { rotationAria, rotationLabel } from "./cards.js";

/** @typedef {import("./model.js").Scene} Scene */
/** @typedef {import("./model.js").Actions} Actions */

/**
 * A labelled group of buttons.
 * @param {string} label @param {...(Node | Node[])} buttons
 */
function group(label, ...buttons) {
  return el("div", { class: "choice-group", role: "group", "aria-label": label }, el("span", { class: "choice-label" }, label), ...buttons);
}

/**
 * @param {HTMLElement} choices
 * @param {Actions} actions
 */
export function choicesView(choices, actions) {
  /** The rings the card may turn, and "none" where it may also turn none.
   * @param {Scene} scene */
  function turns({ legal, sel }) {
    const { rotations, direct } = turnsOf(legal, /** @type {string} */ (sel.card));
    if (!rotations.length) return null;
    return group(t("rotation"),
      direct ? el("button", {
        type: "button", class: "btn chip", "data-rotation": "none", "aria-pressed": String(sel.rotation === null),
        onclick: () => actions.chooseRotation(null),
      }, t("no_rotation")) : [],
      rotations.map((r) => el("button", {
        type: "button", class: "btn chip", "data-rotation": r, "aria-pressed": String(sel.rotation === r),
        "aria-label": rotationAria(r), onclick: () => actions.chooseRotation(r),
      }, rotationLabel(r))));
  }

  /** The pawns that may move, and the card played alone where it may be.
   * @param {Scene} scene */
  function pawns({ legal, sel }) {
    const { froms, alone } = pawnsOf(legal, sel);
    return group(t("move_which"),
      froms.map((f) => el("button", {
        type: "button", class: "btn chip", "data-from": f, "aria-pressed": String(sel.from === f),
        onclick: () => actions.chooseFrom(f),
      }, f === "off" ? t("off_board") : f)),
      alone ? el("button", { type: "button", class: "btn chip btn-accent", id: "rotation-only", onclick: () => actions.playAlone() }, t("rotation_only")) : []);
  }

  /** @param {Scene} scene */
  function render(scene) {
    const { msg, sel, myTurn, me, curtain } = scene;
    choices.replaceChildren();
    if (!myTurn) {
      if (me !== null && !msg.view.outcome && !curtain && msg.actor !== null) {
        choices.append(el("p", { class: "hint" }, t("wait_for", { name: msg.names[msg.actor] })));
      }
      return;
    }
    if (!sel.card) {
      choices.append(el("p", { class: "hint" }, t("choose_card")));
      return;
    }
    const rings = turns(scene);
    if (rings) choices.append(rings);
    if (sel.rotation === undefined) return;
    choices.append(pawns(scene));
    if (sel.from !== null) {
      choices.append(group(t("move_where"), targetsOf(scene.legal, sel).map((p) => el("button", {
        type: "button", class: "btn chip", "data-to": p.to, onclick: () => actions.chooseTarget(/** @type {string} */ (p.to)),
      }, p.to === "top" ? t("top") : p.to))));
    }
    choices.append(el("button", { type: "button", class: "linkish", id: "cancel-play", onclick: () => actions.chooseCard(null) }, t("cancel")));
  }

  /** While a play is on its way: nothing to choose. */
  function waiting() {
    choices.replaceChildren(el("p", { class: "hint" }, "…"));
  }

  return { render, waiting };
}
