// @ts-check
// The plays waiting to be shown, one by one and in order (issue 16): the board and hand are
// never ahead of what has been shown, and the page takes no action while it shows them. The
// pace each is shown at, and the button that skips to now.
import { el } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { store, stored } from "../core/tokens.js";

/** @typedef {import("../core/messages.js").StateOut} StateOut */
/** @typedef {{factor: number, signal: AbortSignal}} ShowOptions */

// How long the plays take to show: each animation's duration is multiplied by the pace's factor.
/** @type {Record<string, number>} */
const PACES = { slow: 1.8, normal: 1, fast: 0.45, instant: 0 };
const PACE_KEY = "gamenight.pace";

/** The pace's select and the skip button. @param {() => string} pace @param {(pace: string) => void} choose @param {() => void} skip */
function playControls(pace, choose, skip) {
  const select = el("select", { id: "pace", class: "pace", "aria-label": t("pace"), onchange: () => choose(select.value) });
  const skipButton = el("button", { type: "button", class: "btn skip-now", id: "skip-now", hidden: true, onclick: skip }, "");
  const label = el("label", { class: "pace-label", for: "pace" }, "");
  const box = el("div", { class: "play-queue", id: "play-queue" }, label, select, skipButton);
  const render = () => {
    label.textContent = t("pace");
    select.setAttribute("aria-label", t("pace"));
    select.replaceChildren(...Object.keys(PACES).map((name) => el("option", { value: name, selected: name === pace() }, t(`pace_${name}`))));
    skipButton.textContent = t("skip_to_now");
  };
  render();
  return { box, skip: skipButton, render };
}

/** The queue of states to show: ``show(message, options)`` shows one (its animations
 * ``options.factor`` times as long, ending when ``options.signal`` aborts), ``shown(message)``
 * follows each once it is on screen; ``prepare(message)`` makes the one shown from the one
 * received as its turn comes (who is online then).
 * @param {{
 *   prepare: (message: StateOut) => StateOut,
 *   show: (message: StateOut, options: ShowOptions) => Promise<void>,
 *   shown: (message: StateOut) => void,
 * }} parts */
export function playQueue({ prepare, show, shown }) {
  /** @type {StateOut[]} */
  const queue = [];
  let showing = false;
  let skipping = false;
  /** @type {AbortController | null} the state being shown's */
  let current = null;
  const saved = stored(PACE_KEY);
  let pace = saved !== null && Object.hasOwn(PACES, saved) ? saved : "normal";
  const skipToNow = () => {
    if (!showing && !queue.length) return;
    skipping = true;
    current?.abort();
  };
  const controls = playControls(() => pace, (chosen) => {
    pace = chosen;
    store(PACE_KEY, pace);
  }, skipToNow);
  const update = () => {
    const busy = showing || queue.length > 0;
    document.body.dataset.showing = busy ? "true" : "false";
    document.body.dataset.queued = String(queue.length);
    controls.skip.hidden = !busy;
  };
  async function showAll() {
    showing = true;
    while (queue.length) {
      const message = prepare(/** @type {StateOut} */ (queue.shift()));
      update();
      current = new AbortController();
      if (skipping) current.abort();
      try {
        await show(message, { factor: skipping ? 0 : PACES[pace], signal: current.signal });
      } catch (e) {
        console.warn(e);
      }
      shown(message);
    }
    showing = false;
    skipping = false;
    current = null;
    update();
  }
  return {
    controls,
    skipToNow,
    /** Whether a state is being shown or waits to be. */
    busy: () => showing || queue.length > 0,
    /** @param {StateOut} message */
    push(message) {
      queue.push(message);
      update();
      if (!showing) showAll();
    },
  };
}
