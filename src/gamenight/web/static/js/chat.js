// @ts-check
// The table's chat (issue 16): short lines and quick phrases. A page holding a seat talks
// with the players; one holding none, with the other spectators (web.chat): each side sees
// only its own. Lines are shown as text, never as markup. The mute is remembered on this
// browser. table.js mounts it and routes the "chat" messages here (Contract C).
import { el } from "./core/dom.js";
import { onLanguageChange, t } from "./core/i18n.js";
import { store, stored } from "./core/tokens.js";

const MUTE_KEY = "gamenight.chat.muted";
export const PHRASES = ["hello", "good_luck", "nice_move", "oops", "thanks", "one_moment", "well_played", "bye"];
const LIMIT = 200; // characters in a line (protocol.CHAT_CHARS)
const SHOWN = 100; // lines kept on the page

const muted = () => stored(MUTE_KEY) === "1";

/** @typedef {import("./core/messages.js").ChatLine} ChatLine */

/** The chat panel's elements, empty until drawn. */
function chatParts() {
  const title = el("h3", { id: "chat-title" });
  const help = el("p", { class: "hint chat-help" });
  const log = el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" });
  const input = el("input", { type: "text", id: "chat-input", maxlength: LIMIT, autocomplete: "off", enterkeyhint: "send" });
  const sendButton = el("button", { type: "submit", class: "btn", id: "chat-send" });
  const form = el("form", { class: "chat-form", id: "chat-form" }, input, sendButton);
  const phrases = el("div", { class: "chat-phrases", role: "group", "aria-labelledby": "chat-phrases-title" });
  const phrasesTitle = el("summary", { class: "chat-phrases-title", id: "chat-phrases-title" });
  const mute = el("button", { type: "button", class: "btn chat-mute", id: "chat-mute" });
  const box = el("section", { class: "card-box chat-box", id: "chat", hidden: true, "aria-labelledby": "chat-title" },
    el("div", { class: "chat-head" }, title, mute), help, log, form,
    el("details", { class: "chat-phrases-box" }, phrasesTitle, phrases));
  return { title, help, log, input, sendButton, form, phrases, phrasesTitle, mute, box };
}

/** The chat's lines, or why there are none to show.
 * @param {HTMLElement} log @param {ChatLine[]} lines
 * @param {(line: ChatLine) => string} speaker @param {(line: ChatLine) => string | undefined} words */
function drawChatLog(log, lines, speaker, words) {
  if (muted()) {
    log.replaceChildren(el("li", { class: "hint" }, t("chat_muted")));
    return;
  }
  if (!lines.length) {
    log.replaceChildren(el("li", { class: "hint chat-empty" }, t("chat_empty")));
    return;
  }
  log.replaceChildren(...lines.map((line) => el("li", { class: "chat-line", "data-n": line.n, ...(line.phrase ? { "data-phrase": line.phrase } : {}) },
    el("span", { class: "chat-who" }, `${speaker(line)}: `),
    el("span", { class: "chat-text" }, words(line)), // a text node: never markup
  )));
  log.scrollTop = log.scrollHeight;
}

/** The chat panel; ``send`` sends a message on the table's socket (false: not sent).
 * @param {{send: (message: {type: string, [key: string]: unknown}) => boolean}} parts */
export function mountChat({ send }) {
  /** @type {import("./core/messages.js").StateOut | null} the last state shown: names, the seats this page holds */
  let state = null;
  /** @type {import("./core/messages.js").ChatLine[]} */
  let lines = [];
  /** @type {"players" | "spectators" | null} */
  let side = null;
  const { title, help, log, input, sendButton, form, phrases, phrasesTitle, mute, box } = chatParts();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  });
  mute.addEventListener("click", () => {
    store(MUTE_KEY, muted() ? "0" : "1");
    draw();
  });

  const speaker = (/** @type {ChatLine} */ line) => (typeof line.seat === "number"
    ? state?.names?.[line.seat] ?? t("seat_n", { n: line.seat + 1 })
    : t("chat_spectator_n", { n: line.spectator }));
  const words = (/** @type {ChatLine} */ line) => (line.phrase ? t(`chat_phrase_${line.phrase}`) : line.text);

  const drawLog = () => drawChatLog(log, lines, speaker, words);

  function draw() {
    title.textContent = t(side === "spectators" ? "chat_spectators_title" : "chat_title");
    help.textContent = t(side === "spectators" ? "chat_spectators_help" : "chat_players_help");
    input.placeholder = t("chat_placeholder");
    input.setAttribute("aria-label", t("chat_placeholder"));
    sendButton.textContent = t("chat_send");
    log.setAttribute("aria-label", t("chat_messages"));
    phrasesTitle.textContent = t("chat_phrases");
    mute.textContent = t(muted() ? "chat_unmute" : "chat_mute");
    mute.setAttribute("aria-pressed", String(muted()));
    phrases.replaceChildren(...PHRASES.map((code) => el("button", {
      type: "button", class: "btn chat-phrase", "data-phrase": code, onclick: () => send({ type: "chat", phrase: code }),
    }, t(`chat_phrase_${code}`))));
    drawLog();
  }

  onLanguageChange(draw);
  draw();

  return {
    element: box,
    /** A state was shown: who this page speaks as, and whether the table has a chat (a
     * spectator always has one; a player when someone else plays from another device). */
    /** @param {import("./core/messages.js").StateOut} message */
    onState(message) {
      state = message;
      const now = message.seats.length ? "players" : "spectators";
      if (now !== side) {
        if (side !== null) lines = []; // a seat lost or taken: the other side's lines go
        side = now;
      }
      const online = message.kinds.some((kind, seat) => kind === "human" && !message.seats.includes(seat));
      box.hidden = !(side === "spectators" || online);
      draw();
    },
    /** @param {import("./core/messages.js").ChatOut} message */
    onMessage(message) {
      lines = message.history ? [...message.messages] : [...lines, ...message.messages];
      lines = lines.slice(-SHOWN);
      drawLog();
    },
  };
}
