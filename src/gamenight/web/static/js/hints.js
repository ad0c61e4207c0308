// @ts-check
// "Suggest a play" at the table (issue 32, web.hints): the chosen level's play for the seat
// whose turn it is, thought on the server from that seat's own view, with its reason in
// words; "Play it" sends it as it is. Shown only where the table gives hints (info.hints).
import { el } from "./core/dom.js";
import { lang, onLanguageChange, t } from "./core/i18n.js";
import { store, stored } from "./core/tokens.js";

const LEVEL_KEY = "gamenight.hintLevel";
const LEVELS = [1, 2, 3, 4, 5];

/**
 * @typedef {{ en: string, ko: string }} Words
 * @typedef {{ type: "hint", seat: number, level: number, revision: number, notation: string,
 *   words: Words, aimed: string | null, paints: string[] }} HintMessage
 * @typedef {{ actor: number | null, seats: number[], revision?: number,
 *   view: { outcome: unknown } }} TableState
 * @typedef {{ hints?: boolean }} TableInfo
 * @typedef {(message: import("./core/socket.js").Inbound) => unknown} Send
 */

/** The level a hint is asked at: the one chosen last on this device, else 3. */
function chosenLevel() {
  const level = Number(stored(LEVEL_KEY));
  return LEVELS.includes(level) ? level : 3;
}

/** The hint's reason in the page's language, and for a shot where it aims. */
export function hintText(/** @type {HintMessage} */ hint) {
  const words = lang() === "ko" ? hint.words.ko : hint.words.en;
  if (!hint.aimed) return words;
  return `${words} ${t("hint_aimed", { square: hint.aimed, squares: hint.paints.join(", ") })}`;
}

/** A hint shown: its level, its words, its notation and the button that plays it.
 * @param {HintMessage} hint @param {() => void} onPlay @returns {HTMLElement[]} */
function hintAnswer(hint, onPlay) {
  const play = el("button", { type: "button", class: "btn btn-primary", id: "hint-play" }, t("hint_play"));
  play.addEventListener("click", onPlay);
  return [
    el("p", { class: "hint-title" }, t("hint_title", { level: hint.level })),
    el("p", { class: "hint-words", id: "hint-words" }, hintText(hint)),
    el("code", { class: "hint-notation", id: "hint-notation" }, hint.notation),
    play,
  ];
}

/**
 * Mount the control in ``box``. Returns what the table page calls: ``onState`` for each
 * state shown, ``onMessage`` for a message it does not know (true if it was a hint),
 * ``rerender`` when the language changes.
 * @param {{ box: Element | null, info: TableInfo, send: Send }} options
 */
export function mountHints({ box, info, send }) {
  /** @type {TableState | null} */
  let state = null;
  /** @type {HintMessage | null} */
  let given = null;
  let asking = false;
  const level = el("select", { id: "hint-level", class: "hint-level" });
  const button = el("button", { type: "button", class: "btn", id: "hint-ask" }, "");
  const answer = el("div", { class: "hint-answer", id: "hint-answer", role: "status", "aria-live": "polite" });
  const panel = el("div", { class: "card-box hints", id: "hints", hidden: true }, button, level, answer);
  // Under the controls a play is made with (the hand, the aim), else at the column's end.
  const controls = box?.querySelector(".play-box, .aim-box");
  if (controls) controls.after(panel);
  else (box || document.body).append(panel);

  level.addEventListener("change", () => store(LEVEL_KEY, /** @type {HTMLSelectElement} */ (level).value));
  button.addEventListener("click", () => {
    if (!state || state.actor === null || asking) return;
    asking = true;
    given = null;
    render();
    send({ type: "hint", seat: state.actor, level: Number(/** @type {HTMLSelectElement} */ (level).value) });
  });

  /** Whether this page may ask now: the table gives hints, and the seat to play is its own. */
  function mayAsk() {
    return Boolean(info.hints && state && state.actor !== null && state.seats.includes(state.actor) && !state.view.outcome);
  }

  function render() {
    panel.hidden = !mayAsk();
    button.textContent = t("hint_button");
    level.setAttribute("aria-label", t("hint_level"));
    const current = Number(/** @type {HTMLSelectElement} */ (level).value) || chosenLevel();
    level.replaceChildren(...LEVELS.map((n) => el("option", { value: String(n), selected: n === current }, `${t("hint_level")} ${n}`)));
    button.toggleAttribute("disabled", asking);
    if (asking) {
      answer.replaceChildren(el("p", { class: "hint" }, t("hint_thinking")));
    } else if (given) {
      const hint = given;
      answer.replaceChildren(...hintAnswer(hint, () => {
        send({ type: "act", seat: hint.seat, action: hint.notation });
        given = null;
        render();
      }));
    } else {
      answer.replaceChildren();
    }
    document.body.dataset.hint = given ? given.notation : "";
  }

  onLanguageChange(render);
  render();
  return {
    /** @param {TableState} message */
    onState(message) {
      // A hint is for the position it was asked in: a new one forgets it.
      if (given && message.revision !== given.revision) given = null;
      state = message;
      render();
    },
    /** @param {{ type: string }} message */
    onMessage(message) {
      if (message.type === "hint") {
        asking = false;
        given = /** @type {HintMessage} */ (message);
        render();
        return true;
      }
      return false;
    },
    /** A refusal heard: a hint asked for is not coming. */
    onError() {
      if (asking) {
        asking = false;
        render();
      }
    },
  };
}
