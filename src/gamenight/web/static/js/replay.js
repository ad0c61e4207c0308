// @ts-check
// The replay page: step through any table's game, forward and back, or let it play itself.
import { byId, el, initPage, keepWordsLegible, setBoardAspect, toast, trackTopbar } from "./core/dom.js";
import { onLanguageChange, ordinal, refusalText, t } from "./core/i18n.js";
import { logEntry } from "./core/seats.js";
import { replaySteps } from "./core/then.js";
import { keyed, store, stored } from "./core/tokens.js";
import { boardSvg as centrixBoard, cardClass, cardFace, cardLabel, playWords } from "./centrix.js";
import { boardSvg as cityBoard } from "./colorcity/board.js";
import { animateFlight } from "./colorcity/flight.js";
import { entryWords as cityWords } from "./colorcity/log.js";
import { isLost, isNews as cityNews } from "./colorcity/model.js";

// Each game's drawing of a view, and its log entries in words (an entry that is a bare
// notation string is shown as it is).
const BOARDS = { centrix: centrixBoard, colorcity: cityBoard };
const WORDS = {
  centrix: (entry, { nameOf, roleOf }) => playWords(entry, nameOf, roleOf),
  colorcity: (entry, { roleOf }) => cityWords(entry, roleOf(entry.seat)),
};
// Which entries each game tells in its log (the others are steps of the record all the same).
const NEWS = { colorcity: cityNews };

// Autoplay's paces: the pause on each step, and the factor on a flick's recorded time.
const PACES = {
  slow: { pause: 2400, factor: 1.6 },
  normal: { pause: 1200, factor: 1 },
  fast: { pause: 450, factor: 0.45 },
  instant: { pause: 150, factor: 0 }, // as the table's: every step at once, nothing flies
};
const PACE_KEY = "gamenight.replay.pace";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const load = replaySteps(() => tableId); // each step asked for once
let step = 0;
let steps = 0;
let current = null;
let fitWords = null; // sizes the words on the board shown (keepWordsLegible)
let world = null; // the board's drawing on screen, where a flick flies (Color City)
let playing = false;
let flying = null; // the AbortController of the flick on screen: aborting lands it at once
let wake = null; // ends autoplay's pause early (pause pressed, or a step chosen)

function storedPace() {
  const pace = stored(PACE_KEY);
  return pace !== null && Object.hasOwn(PACES, pace) ? pace : "normal";
}

/** Show step ``n``. Going one step forward with ``animate``, Color City's cube first flies
 * along the flick's recorded poses on the board as it was. */
async function show(n, { animate = false } = {}) {
  n = Math.max(0, Math.min(steps, n));
  flying?.abort(); // a flick still flying lands at once
  const from = step;
  step = n;
  let data;
  try {
    data = await load(n);
  } catch (exc) {
    toast(refusalText(exc), "error");
    return;
  }
  if (step !== n) return; // a later click won the race
  if (animate && !playing) {
    step = from; // paused while the step was on its way: the page stays where it is
    return;
  }
  const flight = data.last?.flight;
  if (animate && n === from + 1 && flight && current && world) {
    const controller = new AbortController();
    flying = controller;
    const layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
    layer.setAttribute("class", "flight-layer");
    world.append(layer);
    document.body.dataset.flying = "1";
    const gang = current.view.seats[data.last.seat].gang;
    const lost = isLost(data.last);
    await animateFlight(layer, current.view.table, flight, gang, PACES[storedPace()].factor, controller.signal, lost);
    delete document.body.dataset.flying;
    layer.remove();
    if (flying === controller) flying = null;
    if (step !== n) return;
  }
  current = data;
  steps = data.steps;
  render();
  // Fetch the neighbours ahead of time so stepping feels instant.
  if (n + 1 <= steps) load(n + 1).catch(() => {});
  if (n - 1 >= 0) load(n - 1).catch(() => {});
}

/** A step chosen by hand: autoplay stops there. */
function goTo(n) {
  setPlaying(false);
  show(n);
}

/** Autoplay on or off; on at the last step, it plays the game again from the start. */
async function setPlaying(on) {
  playing = on && steps > 0;
  wake?.();
  renderControls();
  if (!playing) {
    flying?.abort(); // a flick in flight lands at once: paused, nothing moves
    return;
  }
  if (step >= steps) {
    await show(0);
    if (!playing) return;
    await new Promise((resolve) => setTimeout(resolve, PACES[storedPace()].pause / 2));
  }
  autoplay();
}

let autoplaying = false;
async function autoplay() {
  if (autoplaying) return; // one loop at a time
  autoplaying = true;
  try {
    while (playing && step < steps) {
      await show(step + 1, { animate: true });
      if (!playing || step >= steps) break;
      await new Promise((/** @type {(value?: unknown) => void} */ resolve) => {
        const timer = setTimeout(resolve, PACES[storedPace()].pause);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    autoplaying = false;
    if (step >= steps && playing) {
      playing = false;
      renderControls();
    }
  }
}

function renderControls() {
  const play = byId("play", HTMLButtonElement);
  play.textContent = playing ? "❚❚" : "▶▶";
  play.setAttribute("aria-label", t(playing ? "replay_pause" : "replay_play"));
  play.setAttribute("aria-pressed", String(playing));
  play.disabled = steps === 0;
  document.body.dataset.playing = playing ? "1" : "0";
  const pace = byId("pace", HTMLSelectElement);
  for (const option of pace.options) option.textContent = t(`pace_${option.value}`);
  pace.value = storedPace();
}

/** A seat's hand at this step, shown once the game is over (the server sends none before). */
function handRow(hand) {
  if (!hand.length) return el("p", { class: "hint replay-hand" }, t("no_cards"));
  return el("div", { class: "hand replay-hand", role: "list" },
    ...hand.map((card) => el("span", { class: `play-card ${cardClass(card)}`, role: "listitem", "data-card": card, "aria-label": cardLabel(card) }, cardFace(card))));
}

function render() {
  if (!current) return;
  const v = current.view;
  const svg = BOARDS[v.game](v);
  world = svg.world || null;
  svg.setAttribute("aria-label", t(v.game === "colorcity" ? "city_aria" : "board_aria"));
  const board = byId("board", HTMLElement);
  // Drawn as at the table: the board's words sized by the game's rules in the stylesheet, the
  // column shaped to the board.
  board.classList.add(`${v.game}-board-box`);
  board.replaceChildren(svg);
  setBoardAspect(byId("main", HTMLElement), svg);
  fitWords();
  const slider = byId("slider", HTMLInputElement);
  slider.max = String(steps);
  slider.value = String(step);
  byId("step-label", HTMLElement).textContent = t("step_of", { n: step, total: steps });
  byId("prev", HTMLButtonElement).disabled = step === 0;
  byId("first", HTMLButtonElement).disabled = step === 0;
  byId("next", HTMLButtonElement).disabled = step >= steps;
  byId("last", HTMLButtonElement).disabled = step >= steps;
  document.body.dataset.step = String(step);
  renderControls();
  const info = byId("replay-info", HTMLElement);
  const title = t(v.game);
  const roleOf = (seat) => (v.game === "centrix" ? v.players[seat].colour : v.seats[seat].gang);
  const rows = current.names.map((name, seat) => {
    const place = v.outcome ? v.outcome.places[seat] : null;
    const hand = current.hands ? current.hands[seat] : null;
    return el("li", { "data-seat": seat },
      el("span", { class: `seat-dot dot-${roleOf(seat)}`, "aria-hidden": "true" }),
      ` ${name} `,
      place ? el("span", { class: "place-badge" }, t("place_n", { place: ordinal(place) })) : null,
      hand ? handRow(hand) : null,
    );
  });
  info.replaceChildren(
    el("h3", {}, title),
    el("p", {}, v.outcome ? `${t("game_over")} · ${t(`reason_${v.outcome.reason}`)}` : t(current.finished ? "replay_finished_step" : "replay_live")),
    ...(current.hands ? [el("p", { class: "hint", id: "hands-revealed" }, t("replay_hands_revealed"))] : []),
    el("ul", { class: "replay-seats" }, rows),
    // The record holds the seed (every hand, every draw): the server gives it once the game is over.
    ...(current.finished
      ? [el("a", { class: "btn", href: keyed(tableId, `/api/tables/${tableId}/record`), download: `${v.game}-${tableId}.json`, id: "download-record" }, t("download_record"))]
      : []),
  );
  const log = byId("log", HTMLElement);
  // An entry is its notation beside log_seats, or data with its seat, in words (its notation
  // as the tooltip).
  const seatOf = (entry, i) => (typeof entry === "string" ? v.log_seats[i] : entry.seat);
  const words = (entry) => {
    if (typeof entry === "string") return entry;
    const nameOf = (seat) => current.names[seat];
    return WORDS[v.game] ? WORDS[v.game](entry, { nameOf, roleOf }) : entry.notation;
  };
  const news = (entry) => typeof entry === "string" || !NEWS[v.game] || NEWS[v.game](entry);
  log.replaceChildren(...v.log.flatMap((entry, i) => (news(entry) ? [logEntry(current, seatOf(entry, i), roleOf(seatOf(entry, i)), words(entry),
    {
      "data-step": i + 1, class: i === v.log.length - 1 ? "current replay-entry" : "replay-entry",
      title: typeof entry === "string" ? null : entry.notation, onclick: () => goTo(i + 1), // the board after that play
    })] : [])));
  log.scrollTop = log.scrollHeight;
}

async function main() {
  await initPage();
  trackTopbar();
  fitWords = keepWordsLegible(byId("board", HTMLElement));
  byId("first", HTMLButtonElement).addEventListener("click", () => goTo(0));
  byId("prev", HTMLButtonElement).addEventListener("click", () => goTo(step - 1));
  byId("next", HTMLButtonElement).addEventListener("click", () => goTo(step + 1));
  byId("last", HTMLButtonElement).addEventListener("click", () => goTo(steps));
  byId("slider", HTMLInputElement).addEventListener("input", (e) => goTo(Number(/** @type {HTMLInputElement} */ (e.target).value)));
  byId("play", HTMLButtonElement).addEventListener("click", () => setPlaying(!playing));
  byId("pace", HTMLSelectElement).addEventListener("change", (e) => {
    store(PACE_KEY, /** @type {HTMLSelectElement} */ (e.target).value);
    wake?.(); // the next step comes at the new pace
  });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowLeft") goTo(step - 1);
    else if (e.key === "ArrowRight") goTo(step + 1);
    else if (e.key === "Home") goTo(0);
    else if (e.key === "End") goTo(steps);
    else if (e.key === " " && !(e.target instanceof HTMLButtonElement)) setPlaying(!playing);
    else return;
    e.preventDefault();
  });
  byId("replay-nav", HTMLElement).replaceChildren(el("a", { href: `/table/${tableId}` }, t("to_table")));
  onLanguageChange(render);
  renderControls();
  try {
    const first = await load(0);
    steps = first.steps;
    // A finished game opens at its end; one in progress at its start.
    await show(first.finished ? steps : 0);
  } catch (exc) {
    // No such table (or no server): the message alone, without controls that cannot work.
    byId("main", HTMLElement).replaceChildren(el("p", { class: "form-error", id: "replay-error" }, refusalText(exc)));
  }
}

main();
