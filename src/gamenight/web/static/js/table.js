// @ts-check
// The table page: connects to the table's socket and hands each message to the game's UI
// (contract A: a game module's create(ctx)), the chat, the spectator's panel and the endings.
import { api } from "./core/api.js";
import { byId, el, initPage, sound, toast, trackTopbar } from "./core/dom.js";
import { onLanguageChange, refusalText, t } from "./core/i18n.js";
import { patch } from "./core/patch.js";
import { TableSocket } from "./core/socket.js";
import { claimTokenFromUrl, keyed } from "./core/tokens.js";
import { mountChat } from "./chat.js";
import { createEndings } from "./endings.js";
import { mountHints } from "./hints.js";
import { mountSounds } from "./sounds.js";
import { checkArrival, showProblem } from "./table/arrival.js";
import { gameOver, nav } from "./table/dialogs.js";
import { tableId } from "./table/id.js";
import { playQueue } from "./table/queue.js";
import { mountWatching } from "./watching.js";

/** @typedef {import("./core/messages.js").StateOut} StateOut */
/** @typedef {import("./core/messages.js").Outbound} Outbound */
/** @typedef {import("./core/socket.js").Inbound} Inbound */
/** What a game's module makes for the table (contract A): ``create({root, send})`` gives it.
 * @typedef {{
 *   applyState: (message: StateOut, options: import("./table/queue.js").ShowOptions) => Promise<void>,
 *   describe: (seat: number, message: StateOut) => {role: string, label: string},
 *   onMessage?: (message: Outbound) => void, onError?: (message: Outbound) => void,
 *   showPresence?: (online: number[]) => void, rerender?: () => void,
 * }} GameUI */

/** @param {"open" | "closed"} status */
function setConnection(status) {
  const conn = byId("conn", HTMLElement);
  conn.dataset.status = status;
  conn.textContent = status === "open" ? "" : t("reconnecting");
  // While the page is reconnecting it takes no input: what it shows may be out of date.
  document.body.dataset.connection = status;
  document.getElementById("main")?.toggleAttribute("inert", status !== "open");
}

/** The table's summary, once the link this page was opened with leads to it (null: the
 * page says what is wrong instead). @returns {Promise<Record<string, any> | null>} */
async function arrive() {
  const arrived = claimTokenFromUrl(tableId);
  // An invite link pasted into this very page changes only the fragment: load it afresh.
  window.addEventListener("hashchange", () => {
    if (location.hash.includes("token=") || location.hash.includes("watch=")) location.reload();
  });
  if (arrived) await checkArrival(arrived);
  try {
    return await api(keyed(tableId, `/api/tables/${encodeURIComponent(tableId)}`));
  } catch (exc) {
    const code = /** @type {import("./core/api.js").ApiError} */ (exc).code;
    showProblem(() => ({ title: t(code === "no_table" ? "no_table_title" : "table_problem"), text: refusalText(exc) }));
    return null;
  }
}

/** Every act and undo says which revision of the table the page showed, and has an id of
 * its own (a resent one is answered as the original was, never applied twice); none is sent
 * while plays are being shown (they are skipped to now instead).
 * @param {() => TableSocket} socket @param {ReturnType<typeof playQueue>} queue @param {() => number | null} shown
 * @returns {(message: Inbound) => boolean} */
function sender(socket, queue, shown) {
  let sent = 0;
  const page = Math.random().toString(36).slice(2, 10);
  return (message) => {
    // (Not connected: socket.send says so. Meanwhile #main is inert: no play can be asked for.)
    if (message.type === "act" || message.type === "undo") {
      if (queue.busy()) {
        queue.skipToNow();
        toast(t("showing_plays"));
        return false;
      }
      sent += 1;
      const revision = shown();
      message = { ...message, id: `${page}-${sent}`, ...(revision === null ? {} : { revision }) };
    }
    return socket().send(message);
  };
}

/** Everything a state shown tells the page beyond the game: the tests' marks, the turn's
 * sound, the spectator's panel, the chat, the endings, the game-over dialog.
 * @param {any} parts the page's parts (main) @param {StateOut} message @param {StateOut | null} before the state shown before */
function afterShown(parts, message, before) {
  const { info, game, watching, chat, endings, hints } = parts;
  // Set once a state is on screen (after its animation): what the browser tests wait for.
  document.body.dataset.version = String(message.version);
  document.body.dataset.actor = String(message.actor);
  const mine = (/** @type {StateOut | null} */ m) => m && m.actor !== null && m.seats.includes(m.actor) && !m.view.outcome;
  if (mine(message) && !(mine(before) && before?.actor === message.actor)) sound("turn");
  watching.onState(message);
  chat.onState(message);
  endings.onState(message);
  hints.onState(message);
  if (message.view.outcome) {
    if (info.status === "playing") {
      info.status = message.view.outcome.reason;
      nav(info);
    }
    gameOver(message, (seat) => game.describe(seat, message), endings.gameOverActions(message));
    endings.afterGameOver();
  }
}

/** What the socket hears, to its part of the page.
 * @param {any} parts @param {Outbound} message */
function route(parts, message) {
  const { game, chat, watching, heard, hints } = parts;
  if (message.type === "welcome") {
    document.body.dataset.seats = message.seats.join(",");
    // An invite link another device used first, or a seat its inviter gave a new link.
    if (message.taken?.length) toast(t("invite_taken"), "error");
    if (message.revoked?.length) toast(t("seat_revoked"), "error");
  } else if (message.type === "revoked") {
    document.body.dataset.seats = message.seats.join(",");
    toast(t("seat_revoked"), "error");
  } else if (message.type === "state" || message.type === "change") {
    heard.state(message);
  } else if (message.type === "presence") {
    heard.online = message.online;
    game.showPresence?.(message.online);
    watching.onPresence(message.online);
  } else if (message.type === "chat") {
    chat.onMessage(message);
  } else if (message.type === "error") {
    toast(refusalText(message, heard.names), "error");
    game.onError?.(message);
    hints.onError();
  } else if (!hints.onMessage(message)) { // a hint is the hints' own (issue 32)
    game.onMessage?.(message);
  }
}

/** The button that shows the table's tools (the pace, resign or leave, the table's links)
 * where the header keeps to one row without them: Color City on a phone (the stylesheet
 * shows the button and hides the tools there; elsewhere the tools stay in the header). */
function toolsMenu() {
  const header = /** @type {HTMLElement} */ (document.querySelector("header.topbar"));
  const button = el("button", {
    type: "button", class: "btn menu-button", id: "table-menu", "aria-expanded": "false", "aria-controls": "table-nav",
    onclick: () => {
      const open = header.classList.toggle("menu-open");
      button.setAttribute("aria-expanded", String(open));
    },
  }, "⋯");
  const label = () => {
    button.setAttribute("aria-label", t("table_menu"));
    button.title = t("table_menu");
  };
  label();
  onLanguageChange(label);
  return button;
}

async function main() {
  await initPage();
  trackTopbar();
  const info = await arrive();
  if (!info) return;
  const title = byId("table-title", HTMLElement);
  const setTitle = () => {
    title.textContent = t(info.game);
    document.title = `${t(info.game)} — gamenight`;
  };
  setTitle();
  nav(info);
  document.body.classList.add(`game-${info.game}`);
  const module = info.game === "centrix" ? await import("./centrix.js") : await import("./colorcity.js");
  const root = byId("main", HTMLElement);
  root.replaceChildren();
  /** @type {TableSocket | null} */
  let socket = null;
  const theSocket = () => /** @type {TableSocket} */ (socket);
  /** @type {number | null} the revision of the state shown last */
  let shown = null;
  /** Who is online, as last heard (states wait their turn to be shown; presence news does
   * not); the seats' names, once a state has told them (for the server's refusals).
   * @type {{online: number[], names: string[] | null, state: (message: any) => void}} */
  const heard = { online: [], names: null, state: () => {} };
  /** @type {StateOut | null} the last state shown */
  let before = null;
  const queue = playQueue({
    // Who is online now, on a copy of the state (the next change is patched onto the one
    // received; the game keeps this one, and notes presence news on it). Nothing nested is
    // written: patch copies what it changes.
    prepare: (message) => ({ ...message, online: heard.online }),
    show: (message, options) => {
      shown = message.revision ?? null;
      return game.applyState(endings.shown(message), options);
    },
    shown: (message) => {
      afterShown(parts, message, before);
      before = message;
    },
  });
  const send = sender(theSocket, queue, () => shown);
  const game = /** @type {GameUI} */ (/** @type {unknown} */ (module.create({ root, send })));
  // Social (issue 16): the chat, the spectator's panel and the sounds' toggle.
  const chat = mountChat({ send });
  const side = root.querySelector(".side") || root;
  const watching = mountWatching(side, { tableId, info, chat: chat.element, describe: (seat, m) => game.describe(seat, m) });
  mountSounds(/** @type {Element} */ (document.querySelector("header.topbar")));
  const endings = createEndings({ tableId, send: (message) => theSocket().send(message) });
  // (Before resign / leave and the table's links.)
  (document.getElementById("endings-top") || byId("table-nav", HTMLElement)).before(queue.controls.box);
  byId("table-nav", HTMLElement).before(toolsMenu());
  // "Suggest a play" (issue 32), under the hand or the aim.
  const hints = mountHints({ box: side, info, send });
  const parts = { info, game, watching, chat, endings, heard, hints };
  /** @type {StateOut | null} the last state the server sent, rebuilt from its changes */
  let received = null;
  heard.state = (message) => {
    const state = message.type === "state" ? message : patch(/** @type {StateOut} */ (received), message.diff);
    received = state;
    heard.online = state.online;
    heard.names = state.names;
    queue.push(state);
  };
  socket = new TableSocket(tableId, (message) => route(parts, message), setConnection);
  onLanguageChange(() => {
    setTitle();
    nav(info);
    queue.controls.render();
    game.rerender?.();
    endings.rerender();
  });
}

main();
