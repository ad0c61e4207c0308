// @ts-check
// Sounds (issue 16): off until the player turns them on; the choice is remembered on this
// browser. Pages ask for a sound with an event (Contract B), so no game module imports this:
//   document.dispatchEvent(new CustomEvent("gamenight:sound", { detail: "bump" }))
// with detail "turn", "bump", "cube" (a cube landing) or "top" (a pawn reaching the top).
import { el } from "./core/dom.js";
import { onLanguageChange, t } from "./core/i18n.js";
import { store, stored } from "./core/tokens.js";

const KEY = "gamenight.sounds";
export const SOUNDS = ["turn", "bump", "cube", "top"];
/** @type {Record<string, HTMLAudioElement>} */
const audio = {};

export function soundsOn() {
  return stored(KEY) === "on";
}

/** @param {string} name */
function play(name) {
  audio[name] ||= new Audio(`/static/sounds/${name}.wav`);
  const sound = audio[name];
  sound.currentTime = 0;
  // What was asked for last, and how many were: for whoever wants to know (the tests).
  document.body.dataset.sound = name;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  sound.play().catch(() => {}); // a browser that allows no sound before a click: silence
}

let listening = false;

/** Play the sounds asked for, while they are on; and a toggle for them in ``container``
 * (put before the language switch when there is one). Returns the toggle.
 * @param {Element} container */
export function mountSounds(container) {
  if (!listening) {
    listening = true;
    document.addEventListener("gamenight:sound", (event) => {
      const name = /** @type {CustomEvent<string>} */ (event).detail;
      if (soundsOn() && SOUNDS.includes(name)) play(name);
    });
  }
  const button = el("button", { type: "button", class: "sound-switch", id: "sound-switch" });
  const draw = () => {
    const on = soundsOn();
    button.setAttribute("aria-pressed", String(on));
    // The word goes on narrow screens (CSS), the note and the button's name stay.
    const word = t(on ? "sound_on" : "sound_off");
    button.replaceChildren(el("span", { "aria-hidden": "true" }, "♪ "), el("span", { class: "sound-word" }, word));
    button.setAttribute("aria-label", word);
    button.title = t("sound_help");
  };
  button.addEventListener("click", () => {
    store(KEY, soundsOn() ? "off" : "on");
    draw();
    if (soundsOn()) play("turn"); // what it sounds like, and the click lets the page play
  });
  const lang = container.querySelector("#lang-switch");
  if (lang) lang.before(button);
  else container.append(button);
  onLanguageChange(draw);
  draw();
  return button;
}
