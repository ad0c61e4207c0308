// @ts-check
// The table's WebSocket: hello with the tokens held, reconnection with back-off, and the
// act or undo not yet answered sent again after a reconnection.
import { toast } from "./dom.js";
import { t } from "./i18n.js";
import { dropToken, heldTokens, settleTokens, watchToken } from "./tokens.js";

/** @typedef {import("./messages.js").Outbound} Outbound */
/** A message the page sends: act, undo, predict, chat, resign … (web.protocol's inbound).
 * @typedef {{type: string, id?: string, [key: string]: unknown}} Inbound */

/**
 * The table's WebSocket, reconnecting with back-off. Every (re)connection says hello with
 * all the tokens held for the table, so the server answers with a fresh state. An act or
 * undo not yet answered when the connection drops is sent again, with its id, after the
 * hello: the server answers a message it already has as it did the first time.
 */
export class TableSocket {
  /**
   * @param {string} table
   * @param {(message: Outbound) => void} onMessage
   * @param {(status: "open" | "closed") => void} [onStatus]
   */
  constructor(table, onMessage, onStatus) {
    this.table = table;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.delay = 300;
    /** @type {Inbound | null} the act or undo sent and not yet accepted or refused */
    this.pending = null;
    this.stopped = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.table}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 300;
      this.onStatus("open");
      ws.send(JSON.stringify({ type: "hello", tokens: Object.values(heldTokens(this.table)), watch: watchToken(this.table) }));
      if (this.pending) ws.send(JSON.stringify(this.pending));
    });
    ws.addEventListener("message", (event) => {
      /** @type {Outbound} */
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.heard(message);
      this.onMessage(message);
    });
    ws.addEventListener("close", () => {
      this.onStatus("closed");
      if (this.stopped) return;
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
    ws.addEventListener("error", () => ws.close());
  }

  /** What the socket itself keeps of ``message``: the tokens, whether to reconnect, and
   * whether the act or undo sent is answered.
   * @param {Outbound} message */
  heard(message) {
    if (message.type === "welcome") settleTokens(this.table, message);
    if (message.type === "revoked") dropToken(this.table, message.seat);
    // An unlisted table this page may not watch, or one its host deleted: trying again
    // would be refused again.
    if (message.type === "error" && ["unlisted", "no_table"].includes(message.code)) this.stopped = true;
    // The act or undo is stored: its page's change (or state) says so ("accepted": its
    // id), or, where that page hears no change for it (a resent message), an "accepted".
    if (message.type === "accepted" || message.type === "error" || "accepted" in message) this.pending = null;
  }

  /** Send ``message`` now; false (and a toast) when the socket is not open.
   * @param {Inbound} message
   * @returns {boolean} */
  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      if (message.id) this.pending = message;
      this.ws.send(JSON.stringify(message));
      return true;
    }
    toast(t("not_connected"), "error");
    return false;
  }
}
