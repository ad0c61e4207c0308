// The replay page: step through any table's game, forward and back.
import {
  api, el, initPage, keepWordsLegible, keyed, logEntry, onLanguageChange, ordinal, refusalText, setBoardAspect,
  svgElement, t, toast, trackTopbar,
} from "./common.js";
import { playWords } from "./centrix.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const cache = new Map();
let step = 0;
let steps = 0;
let current = null;
let fitWords = null; // sizes the words on the board shown (keepWordsLegible)

async function load(n) {
  if (!cache.has(n)) cache.set(n, api(keyed(tableId, `/api/tables/${encodeURIComponent(tableId)}/replay/${n}`)));
  try {
    return await cache.get(n);
  } catch (exc) {
    cache.delete(n);
    throw exc;
  }
}

async function show(n) {
  n = Math.max(0, Math.min(steps, n));
  step = n;
  let data;
  try {
    data = await load(n);
  } catch (exc) {
    toast(refusalText(exc), "error");
    return;
  }
  if (step !== n) return; // a later click won the race
  current = data;
  steps = data.steps;
  render();
  // Fetch the neighbours ahead of time so stepping feels instant.
  if (n + 1 <= steps) load(n + 1).catch(() => {});
  if (n - 1 >= 0) load(n - 1).catch(() => {});
}

function render() {
  if (!current) return;
  const v = current.view;
  const svg = svgElement(v.svg);
  svg.setAttribute("aria-label", t(v.game === "colorcity" ? "city_aria" : "board_aria"));
  const board = document.getElementById("board");
  // Drawn as at the table: the board's words sized by the game's rules in the stylesheet, the
  // column shaped to the board.
  board.classList.add(`${v.game}-board-box`);
  board.replaceChildren(svg);
  setBoardAspect(document.getElementById("main"), svg);
  fitWords();
  const slider = document.getElementById("slider");
  slider.max = String(steps);
  slider.value = String(step);
  document.getElementById("step-label").textContent = t("step_of", { n: step, total: steps });
  document.getElementById("prev").disabled = step === 0;
  document.getElementById("first").disabled = step === 0;
  document.getElementById("next").disabled = step >= steps;
  document.getElementById("last").disabled = step >= steps;
  document.body.dataset.step = String(step);
  const info = document.getElementById("replay-info");
  const title = t(v.game);
  const rows = current.names.map((name, seat) => {
    const role = v.game === "centrix" ? v.players[seat].colour : v.seats[seat].gang;
    const place = v.outcome ? v.outcome.places[seat] : null;
    return el("li", { "data-seat": seat },
      el("span", { class: `seat-dot dot-${role}`, "aria-hidden": "true" }),
      ` ${name} `,
      place ? el("span", { class: "place-badge" }, t("place_n", { place: ordinal(place) })) : null,
    );
  });
  info.replaceChildren(
    el("h3", {}, title),
    el("p", {}, v.outcome ? `${t("game_over")} · ${t(`reason_${v.outcome.reason}`)}` : t(current.finished ? "replay_finished_step" : "replay_live")),
    el("ul", { class: "replay-seats" }, rows),
    // The record holds the seed (every hand, every draw): the server gives it once the game is over.
    ...(current.finished
      ? [el("a", { class: "btn", href: keyed(tableId, `/api/tables/${tableId}/record`), download: `${v.game}-${tableId}.json`, id: "download-record" }, t("download_record"))]
      : []),
  );
  const log = document.getElementById("log");
  const roleOf = (seat) => (v.game === "centrix" ? v.players[seat].colour : v.seats[seat].gang);
  // A Centrix entry is a play with its effects, told in words (the notation as its tooltip).
  log.replaceChildren(...v.log.map((entry, i) => {
    const attrs = { "data-step": i + 1, class: i === v.log.length - 1 ? "current" : null };
    if (typeof entry === "string") return logEntry(current, v.log_seats[i], roleOf(v.log_seats[i]), entry, attrs);
    const words = playWords(entry, (seat) => current.names[seat], (seat) => v.players[seat].colour);
    return el("li", { ...attrs, title: entry.notation },
      el("span", { class: `seat-dot dot-${roleOf(entry.seat)}`, "aria-hidden": "true" }), words);
  }));
  log.scrollTop = log.scrollHeight;
}

async function main() {
  await initPage();
  trackTopbar();
  fitWords = keepWordsLegible(document.getElementById("board"));
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(step - 1));
  document.getElementById("next").addEventListener("click", () => show(step + 1));
  document.getElementById("last").addEventListener("click", () => show(steps));
  document.getElementById("slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.key === "ArrowLeft") show(step - 1);
    else if (e.key === "ArrowRight") show(step + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(steps);
    else return;
    e.preventDefault();
  });
  document.getElementById("replay-nav").replaceChildren(el("a", { href: `/table/${tableId}` }, t("to_table")));
  onLanguageChange(render);
  try {
    const first = await load(0);
    steps = first.steps;
    // A finished game opens at its end; one in progress at its start.
    await show(first.finished ? steps : 0);
  } catch (exc) {
    // No such table (or no server): the message alone, without controls that cannot work.
    document.getElementById("main").replaceChildren(el("p", { class: "form-error", id: "replay-error" }, refusalText(exc)));
  }
}

main();
