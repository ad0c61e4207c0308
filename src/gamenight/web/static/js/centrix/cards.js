// @ts-check
// Cards and rings in words and pictures: a card's face and name, a rotation's label.
import { el, svgElement, t } from "../common.js";
import { CARD_COLOUR, parseRotation } from "./model.js";
import { INK, SVG_NS, symbolMarkup } from "./drawing.js";

/** @typedef {import("./model.js").Colour} Colour */

/**
 * A colour's symbol for a card's corner: the board's own drawing of it, ten times over in a
 * box of its own so that its points keep their precision.
 * @param {Colour} colour @param {number} [size] @returns {Element}
 */
function symbolSvg(colour, size = 18) {
  const svg = svgElement(`<svg xmlns="${SVG_NS}" viewBox="-12 -12 24 24">${symbolMarkup(colour, 0, 0, 10, INK[colour], "")}</svg>`);
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("symbol-icon");
  return svg;
}

/** A card's name in the page's language. @param {string} card @returns {string} */
export function cardLabel(card) {
  if (card === "A") return t("card_any");
  if (card === "S") return t("card_spin");
  return t("card_named", { colour: t(`colour_${CARD_COLOUR[card[0]]}`), n: card.slice(1) });
}

/** What a card shows: its number between its colour's symbols, or a wild's picture and word.
 * @param {string} card @returns {Element[]} */
export function cardFace(card) {
  if (card === "A") {
    return [el("span", { class: "card-wheel", "aria-hidden": "true" }), el("span", { class: "card-word" }, t("card_any_short"))];
  }
  if (card === "S") {
    return [el("span", { class: "card-spin", "aria-hidden": "true" }, "↻"), el("span", { class: "card-word" }, t("card_spin_short"))];
  }
  const colour = CARD_COLOUR[card[0]];
  return [
    el("span", { class: "card-corner tl" }, symbolSvg(colour, 16)),
    el("span", { class: "card-number" }, card.slice(1)),
    el("span", { class: "card-corner br" }, symbolSvg(colour, 16)),
  ];
}

/** The class that colours a card. @param {string} card */
export function cardClass(card) {
  if (card === "A") return "card-any";
  if (card === "S") return "card-spin-wild";
  return `card-${CARD_COLOUR[card[0]]}`;
}

/** A rotation's button label: "3 ↻ 2". @param {string} rotation */
export function rotationLabel(rotation) {
  const { ring, amount } = parseRotation(rotation);
  const arrow = amount > 0 ? "↻" : "↺";
  return t("ring_turn", { ring, arrow, n: Math.abs(amount) });
}

/** A rotation in words, for a screen reader. @param {string} rotation */
export function rotationAria(rotation) {
  const { ring, amount } = parseRotation(rotation);
  const way = amount > 0 ? t("clockwise") : t("counter_clockwise");
  return t("ring_turn_aria", { ring, n: Math.abs(amount), way });
}
