// @ts-check
// The hot seat's curtain: with several human seats on one device, the next hand stays hidden
// until its owner is at the screen and reveals it.
import { el, t } from "../common.js";

/** @typedef {import("./model.js").StateMessage} StateMessage */

/**
 * @param {HTMLElement} curtain
 * @param {() => void} onReveal  called once the hand is revealed (to draw it)
 */
export function curtainView(curtain, onReveal) {
  /** @type {number | null} the seat whose hand was last revealed on this device */
  let revealed = null;

  /** Hide the hand of ``msg``'s mover until revealed, if this device holds several seats.
   * @param {StateMessage} msg */
  function follow(msg) {
    const { seats, actor } = msg;
    if (seats.length > 1 && actor !== null && seats.includes(actor) && actor !== revealed) {
      curtain.hidden = false;
      curtain.replaceChildren(
        el("p", {}, t("pass_device", { name: msg.names[actor] })),
        el("button", { type: "button", class: "btn btn-primary", id: "reveal", onclick: () => {
          revealed = actor;
          curtain.hidden = true;
          onReveal();
        } }, t("reveal_hand", { name: msg.names[actor] })),
      );
    } else if (seats.length <= 1 || actor === revealed) {
      curtain.hidden = true;
    }
  }

  return { follow, shown: () => !curtain.hidden };
}
