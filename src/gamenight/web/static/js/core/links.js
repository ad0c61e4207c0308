// @ts-check
// Invite and spectator links: where they point, and a row with the link, its QR code and
// its buttons.
import { api } from "./api.js";
import { el, find, toast } from "./dom.js";
import { refusalText, t } from "./i18n.js";

/** @type {Promise<string> | null} */
let linkBase = null;

/** Where invite and spectator links point: the address the server names (GAMENIGHT_PUBLIC_URL,
 * or its address on the local network with ``gamenight serve --lan``: GET /api/links), else
 * the one this page was opened with. Asked once per page.
 * @returns {Promise<string>} */
function linkOrigin() {
  linkBase ??= api("/api/links").then((links) => links.public_url || location.origin, () => location.origin);
  return linkBase;
}

/** @param {string} origin @param {string} table @param {string} token */
function inviteLink(origin, table, token) {
  return `${origin}/table/${table}#token=${encodeURIComponent(token)}`;
}

/** @param {string} origin @param {string} table @param {string} token */
function spectatorLink(origin, table, token) {
  return `${origin}/table/${table}#watch=${encodeURIComponent(token)}`;
}

/** The server's picture of ``link`` (one of its own links) as a QR code.
 * @param {string} link */
function qrSource(link) {
  return `/api/qr?text=${encodeURIComponent(link)}`;
}

/** A row with a seat's invite link, its QR code, a button that copies it and, when ``renew``
 * is given, one that makes a new link (``renew()`` resolves to the new token).
 * @param {string} table
 * @param {string | number} seat
 * @param {string} name
 * @param {string} token
 * @param {(() => Promise<string>) | null} [renew]
 * @returns {Promise<HTMLElement>} */
export async function inviteRow(table, seat, name, token, renew = null) {
  const origin = await linkOrigin();
  const row = linkRow(name, inviteLink(origin, table, token), t("invite_for", { name }), { seat });
  if (renew) {
    const input = find(row, "input", HTMLInputElement);
    const renewButton = el("button", {
      type: "button", class: "btn", "data-renew": seat, onclick: async () => {
        if (!confirm(t("renew_confirm", { name }))) return;
        try {
          input.value = inviteLink(origin, table, await renew());
          find(row, ".invite-qr", HTMLImageElement).src = qrSource(input.value);
          toast(t("renewed", { name }));
        } catch (exc) {
          toast(refusalText(exc), "error");
        }
      },
    }, t("renew"));
    find(row, ".invite-buttons", HTMLElement).append(renewButton);
  }
  return row;
}

/** A row with an unlisted table's spectator link (watching, and no seat), its QR code and its
 * copy button.
 * @param {string} table
 * @param {string} token */
export async function spectatorRow(table, token) {
  const link = spectatorLink(await linkOrigin(), table, token);
  return linkRow(t("spectator_link"), link, t("spectator_link"), { spectator: "" });
}

/** @param {string} name @param {string} link @param {string} label @param {Record<string, any>} dataset */
function linkRow(name, link, label, dataset) {
  const input = el("input", { type: "text", readonly: true, value: link, class: "invite-link", "aria-label": label });
  return el("div", { class: "invite-row", dataset },
    el("span", { class: "invite-name" }, name),
    input,
    el("div", { class: "invite-buttons" },
      el("button", {
        type: "button", class: "btn", onclick: async () => {
          input.select();
          try {
            await navigator.clipboard.writeText(input.value);
          } catch {
            document.execCommand("copy");
          }
          toast(t("copied"));
        },
      }, t("copy")),
    ),
    // Another device in the room opens the link by pointing its camera at the screen.
    el("img", { class: "invite-qr", src: qrSource(link), alt: t("qr_of", { name }), width: 148, height: 148 }),
  );
}
