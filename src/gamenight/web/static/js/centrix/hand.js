// @ts-check
// Your hand (each card a button, pressed while chosen) and the trays of pawns off the board
// (yours a button while a pawn may enter from it).
import { el, t } from "../common.js";
import { stoodIn } from "./model.js";
import { pawnsOf, playsFor } from "./selection.js";
import { cardClass, cardFace, cardLabel } from "./cards.js";

/** @typedef {import("./model.js").Scene} Scene */
/** @typedef {import("./model.js").Actions} Actions */

/**
 * @param {{ hand: HTMLElement, title: HTMLElement, trays: HTMLElement }} nodes
 * @param {Actions} actions
 */
export function handView({ hand, title, trays }, actions) {
  /** @param {Scene} scene */
  function renderHand({ msg, legal, sel, inFlight, curtain }) {
    const v = msg.view;
    hand.setAttribute("aria-label", t("your_cards"));
    // A device holding several seats shows no hand while someone else plays.
    const othersTurn = msg.seats.length > 1 && (msg.actor === null || !msg.seats.includes(msg.actor));
    // Nor any hand once the game is over: nothing in it can be played.
    if (v.hand === null || curtain || othersTurn || v.outcome) {
      hand.replaceChildren();
      return;
    }
    if (!v.hand.length) {
      hand.replaceChildren(el("p", { class: "hint" }, t("no_cards")));
      return;
    }
    hand.replaceChildren(...v.hand.map((card, i) => el("button", {
      type: "button", class: `play-card ${cardClass(card)}`, "data-card": card, "data-index": i,
      "aria-pressed": String(sel.card === card), "aria-label": cardLabel(card),
      disabled: !playsFor(legal, card).length || inFlight, onclick: () => actions.chooseCard(card),
    }, cardFace(card))));
  }

  /** @param {Scene} scene */
  function renderTitle({ msg, me }) {
    // A seat of this device that a bot plays for is still this device's: its cards are not
    // watched, they are played for it.
    title.textContent = me !== null ? t("your_cards") : stoodIn(msg).length ? t("your_cards_stood_in") : t("spectating");
  }

  /** @param {Scene} scene */
  function renderTrays({ msg, legal, sel, myTurn, me }) {
    const enters = myTurn && pawnsOf(legal, sel).froms.includes("off");
    trays.replaceChildren(el("span", { class: "tray-title" }, t("off_board")), ...msg.view.players.map((p, seat) => {
      const pawns = Array.from({ length: p.off }, () => el("span", { class: `pawn-chip dot-${p.colour}` }, p.letter));
      const label = t("tray_of", { name: msg.names[seat], n: p.off });
      if (enters && seat === me) {
        return el("button", {
          type: "button", class: `tray tray-${p.colour} movable`, "data-tray": seat, "aria-pressed": String(sel.from === "off"),
          "aria-label": label, onclick: () => actions.chooseFrom("off"),
        }, pawns.length ? pawns : "—");
      }
      return el("span", { class: `tray tray-${p.colour}`, "data-tray": seat, "aria-label": label, role: "img" }, pawns.length ? pawns : "—");
    }));
  }

  return { renderHand, renderTitle, renderTrays };
}
