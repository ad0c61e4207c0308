// @ts-check
// The spectator's panel (issue 16): who plays, whose turn it is, how to take a free seat,
// and the spectators' chat. table.js mounts it; it shows only while the page holds no seat.
import { api } from "./core/api.js";
import { el } from "./core/dom.js";
import { onLanguageChange, t } from "./core/i18n.js";
import { keyed } from "./core/tokens.js";

/** ``side``: where the panel goes (first); ``chat``: the chat panel's element, moved into
 * this panel while watching; ``describe(seat, message)``: the game's {role, label} of a seat. */
export function mountWatching(side, { tableId, info, chat, describe }) {
  let state = null;
  let online = [];
  let free = info.free || [];
  const box = el("section", { class: "card-box watching-box", id: "watching", hidden: true, "aria-labelledby": "watching-title" });
  side.prepend(box);
  side.append(chat);

  async function refreshFree() {
    // A free seat is taken when someone opens its link: they come online.
    try {
      free = (await api(keyed(tableId, `/api/tables/${encodeURIComponent(tableId)}`))).free || [];
    } catch {
      return;
    }
    draw();
  }

  function draw() {
    const watching = state !== null && state.seats.length === 0;
    box.hidden = !watching;
    if (watching) document.body.dataset.watching = "";
    else delete document.body.dataset.watching;
    if (!watching) {
      if (chat.parentElement === box) side.append(chat);
      return;
    }
    const outcome = state.view.outcome;
    const seats = state.names.map((name, seat) => {
      const who = describe(seat, state);
      const here = state.kinds[seat] === "human" && online.includes(seat);
      return el("li", { class: `watching-seat${seat === state.actor && !outcome ? " to-act" : ""}`, "data-seat": seat },
        el("span", { class: `seat-dot dot-${who.role}`, "aria-hidden": "true" }),
        el("span", { class: "watching-name" }, name),
        el("span", { class: "watching-role" }, ` · ${who.label}`),
        state.kinds[seat] === "bot" ? el("span", { class: "badge" }, t("bot")) : null,
        here ? el("span", { class: "badge badge-you" }, t("watching_online")) : null,
        state.kinds[seat] === "human" && !here ? el("span", { class: "badge badge-away" }, t("away")) : null,
      );
    });
    const turn = outcome ? t("game_over") : t("turn_of", { name: state.names[state.actor] });
    const open = outcome ? [] : free.filter((seat) => seat < state.names.length);
    box.replaceChildren(
      el("h3", { id: "watching-title" }, t("watching_title")),
      el("p", { class: "watching-turn", id: "watching-turn" }, turn),
      el("h4", {}, t("watching_players")),
      el("ul", { class: "watching-seats" }, seats),
      el("div", { class: "watching-free", id: "watching-free" },
        open.length
          ? open.map((seat) => el("p", { "data-free": seat }, t("watching_free", { name: state.names[seat] })))
          : el("p", { class: "hint" }, outcome ? "" : t("watching_no_free"))),
      el("p", {}, el("a", { href: `/replay/${tableId}` }, t("watching_replay"))),
      chat,
    );
  }

  onLanguageChange(draw);
  return {
    onState(message) {
      state = message;
      online = message.online || online;
      draw();
    },
    onPresence(now) {
      online = now;
      if (free.length) refreshFree();
      else draw();
    },
  };
}
