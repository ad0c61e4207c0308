// @ts-check
// The players panel (each seat's pawn colour, name, cards, pawns on the top and off the
// board, or place), the key to its counters, the piles, and the turn banner over the board.
import { el, ordinal, renderTurnBanner, seatBadges, t } from "../common.js";

/** @typedef {import("./model.js").Scene} Scene */
/** @typedef {import("./model.js").StateMessage} StateMessage */

/**
 * @param {{ players: HTMLElement, title: HTMLElement, key: HTMLElement, pile: HTMLElement, banner: HTMLElement }} nodes
 */
export function playersView({ players, title, key, pile, banner }) {
  /** @param {StateMessage} msg */
  function renderList(msg) {
    const v = msg.view;
    players.replaceChildren(...v.players.map((p, seat) => el("li", {
      class: `player${seat === msg.actor && !v.outcome ? " active" : ""}${msg.seats.includes(seat) ? " mine" : ""}`, "data-seat": seat,
    },
    el("span", { class: `pawn-chip big dot-${p.colour}`, "aria-hidden": "true" }, p.letter),
    el("span", { class: "player-name" }, el("strong", {}, msg.names[seat]), seatBadges(msg, seat)),
    el("span", { class: "player-stats" },
      p.place ? el("span", { class: "place-badge" }, t("place_n", { place: ordinal(p.place) })) : [
        el("span", { class: "stat-cards", title: t("cards_in_hand") }, el("span", { class: "mini-card", "aria-hidden": "true" }), String(p.hand_size)),
        el("span", { class: "stat-top", title: t("pawns_on_top") }, `▲ ${p.top}`),
        el("span", { class: "stat-off", title: t("pawns_off") }, `○ ${p.off}`),
      ],
    ),
    el("span", { class: "sr-only" }, t("player_summary", { cards: p.hand_size, top: p.top, off: p.off })),
    )));
  }

  /** @param {Scene} scene */
  function render({ msg, myTurn }) {
    const v = msg.view;
    renderTurnBanner(banner, msg, myTurn, () => ({
      role: msg.actor === null ? "" : v.players[msg.actor].colour,
      detail: t(v.plays_left === 1 ? "one_play_left" : "plays_left", { n: v.plays_left }),
    }));
    renderList(msg);
    title.textContent = t("players");
    // What the counters count, said once under them (a tooltip alone never shows on a phone).
    key.replaceChildren(
      el("span", {}, el("span", { class: "mini-card", "aria-hidden": "true" }), ` ${t("cards_in_hand")}`),
      el("span", {}, `▲ ${t("pawns_on_top")}`),
      el("span", {}, `○ ${t("pawns_off")}`),
    );
    pile.textContent = t("draw_pile", { n: v.draw_size, d: v.discard_size });
  }

  return { render, renderList };
}
