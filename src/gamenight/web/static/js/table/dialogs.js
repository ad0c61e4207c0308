// @ts-check
// The table page's header links and dialogs: the invite links, the game-over screen.
import { api } from "../core/api.js";
import { byId, el, find } from "../core/dom.js";
import { ordinal, t } from "../core/i18n.js";
import { inviteRow, spectatorRow } from "../core/links.js";
import { invites, keepInvite, keyed, watchToken } from "../core/tokens.js";
import { tableId } from "./id.js";

/** @typedef {import("../core/messages.js").StateOut} StateOut */

/** The table's links in the header: the invites made here, the rules, the record once the
 * game is over, the replay. @param {Record<string, any>} info the table's GET /api/tables/{id} */
export function nav(info) {
  const box = byId("table-nav", HTMLElement);
  const mine = invites(tableId);
  box.replaceChildren(...[
    Object.keys(mine).length || (info.visibility === "unlisted" && watchToken(tableId))
      ? el("button", { type: "button", class: "linkish", id: "show-invites", onclick: () => showInvites(info) }, t("invites"))
      : null,
    el("a", { href: `/rules/${info.game}`, target: "_blank", rel: "noopener" }, t("rules")),
    el("a", { href: `/learn/${info.game}/0`, id: "learn-link", target: "_blank", rel: "noopener" }, t("learn_to_play")),
    // The record holds the seed (every hand, every draw): the server gives it once the game is over.
    info.status !== "playing"
      ? el("a", { href: keyed(tableId, `/api/tables/${tableId}/record`), download: `${info.game}-${tableId}.json`, id: "download-record" }, t("download_record"))
      : null,
    el("a", { href: `/replay/${tableId}` }, t("replay")),
  ].filter((link) => link !== null));
}

/** The invite links made on this device, and the spectator link. @param {Record<string, any>} info */
async function showInvites(info) {
  const mine = invites(tableId);
  const rows = await Promise.all(Object.entries(mine).map(([seat, { token, renew }]) => {
    const again = async () => {
      const made = await api(`/api/tables/${encodeURIComponent(tableId)}/invites/${seat}`, { method: "POST", body: { renew } });
      keepInvite(tableId, seat, made.token, renew);
      return made.token;
    };
    return inviteRow(tableId, seat, info.seats[seat]?.name || `#${seat}`, token, renew ? again : null);
  }));
  const watch = info.visibility === "unlisted" && watchToken(tableId);
  const spectators = watch ? [el("p", { class: "hint" }, t("spectator_help")), await spectatorRow(tableId, watch)] : [];
  const help = rows.length ? [el("p", {}, t("invite_help")), el("p", { class: "hint" }, t("invite_renew_help"))] : [];
  openDialog(t("invite_title"), [...help, ...rows, el("p", { class: "hint" }, t("qr_help")), ...spectators]);
}

/** A dialog over the page with ``title``, ``body`` and ``actions`` (and a close button).
 * @param {string} title @param {import("../core/dom.js").Child} body
 * @param {{id?: string, actions?: import("../core/dom.js").Child[]}} [options] */
export function openDialog(title, body, { id = "dialog", actions = [] } = {}) {
  document.getElementById(id)?.remove();
  const close = el("button", { type: "button", class: "btn", onclick: () => dialog.remove() }, t("close"));
  const dialog = el("div", { class: "overlay", id, role: "dialog", "aria-modal": "true", "aria-labelledby": `${id}-title` },
    el("div", { class: "overlay-card" },
      el("h2", { id: `${id}-title` }, title),
      body,
      el("div", { class: "form-actions" }, actions, close),
    ),
  );
  dialog.addEventListener("keydown", (e) => {
    if (e.key === "Escape") dialog.remove();
  });
  document.body.append(dialog);
  (dialog.querySelector(".btn-primary") instanceof HTMLElement ? find(dialog, ".btn-primary", HTMLElement) : close).focus();
  return dialog;
}

/** The game-over screen: every seat by place. ``describe(seat)`` gives its colour or gang;
 * ``extra``, more buttons (the rematch: endings.js).
 * @param {StateOut} message @param {(seat: number) => {role: string, label: string}} describe @param {HTMLElement[]} [extra] */
export function gameOver(message, describe, extra = []) {
  const outcome = message.view.outcome;
  if (!outcome || document.getElementById("game-over")) return;
  const order = outcome.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place || a.seat - b.seat);
  // "You" only means someone on a device that holds one seat; on a shared screen the
  // winner is named.
  const mine = new Set(message.seats.length === 1 ? message.seats : []);
  const winners = order.filter(({ place }) => place === 1).map(({ seat }) => message.names[seat]);
  let headline = t("game_over");
  if (winners.length === outcome.places.length) headline = t("draw");
  else if (message.seats.length === 1 && outcome.places[message.seats[0]] === 1) headline = t("you_won");
  else if (winners.length) headline = t("won_by", { name: winners.join(", ") });
  const list = el("ol", { class: "places" }, order.map(({ place, seat }) => {
    const who = describe(seat);
    return el("li", { class: `place place-${place}`, "data-seat": seat },
      el("span", { class: "place-no" }, ordinal(place)),
      el("span", { class: `seat-dot dot-${who.role}`, "aria-hidden": "true" }),
      el("span", { class: "place-name" }, message.names[seat] + (mine.has(seat) ? ` (${t("you")})` : "")),
      el("span", { class: "place-role" }, who.label),
    );
  }));
  openDialog(headline, [
    el("p", { class: "reason" }, t(`reason_${outcome.reason}`)),
    list,
  ], {
    id: "game-over",
    actions: [
      ...extra,
      el("a", { class: "btn", href: keyed(tableId, `/api/tables/${tableId}/record`), download: `${message.view.game}-${tableId}.json` }, t("download_record")),
      el("a", { class: "btn", href: `/replay/${tableId}` }, t("replay")),
      el("a", { class: "btn btn-primary", href: "/" }, t("new_game")),
    ],
  });
}
