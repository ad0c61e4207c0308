// The table's chat (issue 16): short lines and quick phrases. A page holding a seat talks
// with the players; one holding none, with the other spectators (web.chat): each side sees
// only its own. Lines are shown as text, never as markup. The mute is remembered on this
// browser. table.js mounts it and routes the "chat" messages here (Contract C).
import { el, onLanguageChange, store, stored, t } from "./common.js";

const MUTE_KEY = "gamenight.chat.muted";
export const PHRASES = ["hello", "good_luck", "nice_move", "oops", "thanks", "one_moment", "well_played", "bye"];
const LIMIT = 200; // characters in a line (protocol.CHAT_CHARS)
const SHOWN = 100; // lines kept on the page

const muted = () => stored(MUTE_KEY) === "1";

/** The chat panel; ``send`` sends a message on the table's socket (false: not sent). */
export function mountChat({ send }) {
  let state = null; // the last state shown: names, the seats this page holds
  let lines = [];
  let side = null; // "players" or "spectators"

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

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  });
  mute.addEventListener("click", () => {
    store(MUTE_KEY, muted() ? "0" : "1");
    draw();
  });

  const speaker = (line) => (line.seat !== undefined
    ? state?.names?.[line.seat] ?? t("seat_n", { n: line.seat + 1 })
    : t("chat_spectator_n", { n: line.spectator }));
  const words = (line) => (line.phrase ? t(`chat_phrase_${line.phrase}`) : line.text);

  function drawLog() {
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
    onMessage(message) {
      lines = message.history ? [...message.messages] : [...lines, ...message.messages];
      lines = lines.slice(-SHOWN);
      drawLog();
    },
  };
}
