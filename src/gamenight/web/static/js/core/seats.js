// @ts-check
// What every game's table shows of its seats: whose turn it is, the badges after a name,
// and who acted in a log line.
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./messages.js").StateOut} StateOut */

/** The seat this device plays for in ``message``'s state, or null for a spectator.
 * @param {StateOut | null} message
 * @returns {number | null} */
export function mySeat(message) {
  return message && message.active !== null && message.seats.includes(message.active) ? message.active : null;
}

/** What the banner says of the turn: the role whose colour the dot shows, what follows the
 * player's name, and what follows it on someone else's turn (by default the same).
 * @typedef {{role: string, detail: string, theirs?: string}} TurnDetails */

/**
 * The banner over the board: whose turn it is, or that the game is over. ``mine`` says it
 * is this device's turn; ``details()`` is asked only while the game goes on.
 * @param {HTMLElement} banner
 * @param {StateOut} message
 * @param {boolean} mine
 * @param {() => TurnDetails} details
 */
export function renderTurnBanner(banner, message, mine, details) {
  const v = message.view;
  banner.className = "turn-banner";
  if (v.outcome) {
    banner.textContent = t("game_over");
    banner.classList.add("over");
    return;
  }
  const { role, detail, theirs = detail } = details();
  const name = message.names[/** @type {number} */ (message.actor)];
  const dot = el("span", { class: `seat-dot dot-${role}`, "aria-hidden": "true" });
  if (mine) {
    banner.classList.add("mine");
    banner.replaceChildren(dot, el("strong", {}, message.seats.length > 1 ? t("turn_of_you_named", { name }) : t("your_turn")), ` · ${detail}`);
  } else {
    banner.replaceChildren(dot, el("strong", {}, t("turn_of", { name })), ` · ${theirs}`);
  }
  banner.append(el("span", { class: "turn-no" }, t("turn_n", { n: v.turn + 1 })));
}

/** The badges after a seat's name: "bot" for a bot, "you" for a seat this device holds.
 * @param {StateOut} message
 * @param {number} seat */
export function seatBadges(message, seat) {
  return [
    message.kinds[seat] === "bot" ? el("span", { class: "badge" }, t("bot")) : null,
    message.seats.includes(seat) ? el("span", { class: "badge badge-you" }, t("you")) : null,
    // A player elsewhere whose page is closed (or not opened yet): worth knowing when waiting.
    message.kinds[seat] === "human" && !message.seats.includes(seat) && !(message.online || []).includes(seat)
      ? el("span", { class: "badge badge-away", "data-away": seat }, t("away"))
      : null,
  ];
}

/** A log entry that says who acted: the seat's colour dot and name, then ``entry``.
 * @param {StateOut} message
 * @param {number | undefined} seat
 * @param {string} role
 * @param {import("./dom.js").Child} entry
 * @param {Record<string, any>} [attrs] */
export function logEntry(message, seat, role, entry, attrs = {}) {
  const name = seat === undefined ? null : message.names[seat];
  return el("li", attrs,
    name === null ? null : el("span", { class: `seat-dot dot-${role}`, "aria-hidden": "true" }),
    name === null ? null : el("span", { class: "log-who" }, `${name}: `),
    entry);
}
