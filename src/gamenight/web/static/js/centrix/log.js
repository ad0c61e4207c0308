// @ts-check
// The log: each play as words, newest last; hovering a line shows the board as it was then.
import { el, t } from "../common.js";
import { fullEntry, isLeap } from "./model.js";
import { cardLabel } from "./cards.js";

/** @typedef {import("./model.js").LogEntry} LogEntry */
/** @typedef {import("./model.js").LastPlay} LastPlay */
/** @typedef {import("./model.js").StateMessage} StateMessage */

const COUNT_WORDS = ["zero", "one", "two", "three", "four", "five", "six"];

/** @param {string} name @returns {string} */
function squareWords(name) {
  return name === "top" ? t("top") : name === "off" ? t("off_board") : name;
}

/**
 * A play as words (en or ko), from its log entry's effects: "Ann turned ring 3 two slots
 * clockwise, then leapfrogged from c3 to c5, bumped Bo from c5 to c4".
 * @param {LogEntry | LastPlay} short
 * @param {(seat: number) => string} nameOf
 * @param {(seat: number) => string} colourOf
 * @returns {string}
 */
export function playWords(short, nameOf, colourOf) {
  const entry = fullEntry(short);
  const parts = [];
  if (entry.rotation) {
    const { ring, amount } = entry.rotation;
    const count = Math.abs(amount);
    parts.push(t(count === 1 ? "log_turned_one" : "log_turned", {
      ring, n: count, count: t(`count_${COUNT_WORDS[count] ?? count}`), way: t(amount > 0 ? "clockwise" : "counter_clockwise"),
    }));
  }
  const [move, ...bumps] = entry.moves;
  if (move) {
    let key = isLeap(move.from, move.to) ? "log_leapfrogged" : "log_moved";
    if (move.from === "off") key = "log_entered";
    else if (move.to === "top") key = "log_reached_top";
    parts.push(t(key, { from: squareWords(move.from), to: squareWords(move.to) }));
  }
  if (!parts.length) parts.push(t("log_played", { card: cardLabel(entry.card) }));
  let text = t("log_sentence", { name: nameOf(entry.seat), what: parts.join(t("log_then")) });
  bumps.forEach((bump, i) => {
    const key = bump.to === "off" ? "knocked_off" : "bumped";
    text += t(i === 0 ? `log_${key}` : `log_${key}_chain`, {
      name: nameOf(bump.seat), colour: t(`colour_${colourOf(bump.seat)}`), from: squareWords(bump.from), to: squareWords(bump.to),
    });
  });
  return text + t("log_end");
}

/**
 * The log's view: ``render(message)`` lists its plays, each line's attributes from
 * ``line(step)`` (the board as it was after that play, on hover: common.js boardThen).
 * @param {HTMLElement} log
 */
export function logView(log) {
  /** @type {(step: number) => Record<string, unknown>} */
  let line = () => ({});
  return {
    /** @param {(step: number) => Record<string, unknown>} attrs */
    lines(attrs) {
      line = attrs;
    },
    /** @param {StateMessage} message */
    render(message) {
      const colourOf = (/** @type {number} */ seat) => message.view.players[seat].colour;
      const nameOf = (/** @type {number} */ seat) => message.names[seat];
      log.replaceChildren(...message.view.log.map((entry, i) => el("li", { ...line(i + 1), title: entry.notation },
        el("span", { class: `seat-dot dot-${colourOf(entry.seat)}`, "aria-hidden": "true" }),
        el("span", { class: "log-words" }, playWords(entry, nameOf, colourOf)),
        el("span", { class: "sr-only" }, ` (${entry.notation})`),
      )));
      log.scrollTop = log.scrollHeight;
    },
  };
}
