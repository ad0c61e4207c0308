// @ts-check
// The analysis in the replay page (issue 32): for a finished table, the server analyses the
// game off the loop (GET /api/tables/{id}/analysis: progress while it runs, kept once
// done); the page draws each seat's chance to win (analysis-graph.js), marks the turning
// points and the hints used, and lists the mistakes in words. A click on the graph goes
// to that step of the replay (through the replay's own slider).
import { api } from "./core/api.js";
import { el } from "./core/dom.js";
import { onLanguageChange, t } from "./core/i18n.js";
import { keyed } from "./core/tokens.js";
import { graphSvg, seatColour, stepAt } from "./analysis-graph.js";

/**
 * @typedef {import("./analysis-graph.js").Analysis} Analysis
 * @typedef {import("./analysis-graph.js").HintUsed} HintUsed
 * @typedef {{ game: string, status: string, seats: { name: string, role: string }[],
 *   hints_used?: HintUsed[] }} TableInfo
 * @typedef {{ state: "running", done: number, total: number } | { state: "done", analysis: Analysis }
 *   | { state: "failed" }} AnalysisAnswer
 */

const POLL_MS = 1000;
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");

/** @type {TableInfo | null} */
let info = null;
/** @type {AnalysisAnswer | null} */
let answer = null;

/** The card the analysis is shown in (after the replay's controls).
 * @returns {HTMLElement} */
function card() {
  let box = document.getElementById("analysis");
  if (!box) {
    box = /** @type {HTMLElement} */ (el("div", { class: "card-box", id: "analysis" }));
    (document.getElementById("replay-info") || document.body).after(box);
  }
  box.hidden = false;
  return box;
}

/** A seat's name (the table's), else its seat number. */
function nameOf(/** @type {number} */ seat) {
  return info?.seats[seat]?.name || t("seat_n", { n: seat + 1 });
}

/** A percentage as the page's language writes it. */
function percent(/** @type {number} */ chance) {
  return `${Math.round(chance * 100)}%`;
}

/** One mistake in words, in the page's language (the server's sentence is English only). */
export function mistakeText(/** @type {import("./analysis-graph.js").Mistake} */ mistake, /** @type {Analysis} */ analysis) {
  const after = analysis.chances[mistake.ply]?.[mistake.seat] ?? 0;
  return t("analysis_mistake", {
    ply: mistake.ply,
    name: nameOf(mistake.seat),
    played: mistake.played,
    grade: t(`analysis_grade_${mistake.grade}`),
    preferred: mistake.preferred,
    chance: percent(after),
    better: percent(Math.min(1, after + mistake.loss)),
  });
}

/** Go to ``step`` in the replay, as its slider does. */
function goTo(/** @type {number} */ step) {
  const slider = /** @type {HTMLInputElement | null} */ (document.getElementById("slider"));
  if (!slider) return;
  slider.value = String(step);
  slider.dispatchEvent(new Event("input", { bubbles: true }));
}

/** The hints used at the table (issue 32: counted in the record), each at its play. */
function hintsList() {
  const hints = (info?.hints_used || []).map((hint) =>
    el("li", {}, t("hint_used_in_replay", { name: nameOf(hint.seat), level: hint.level, ply: hint.number + 1 })));
  return hints.length ? [el("h3", {}, t("hints_used_title")), el("ul", { id: "hints-used" }, hints)] : [];
}

/** Color City: where each cube was aimed against where it stopped, and where the planner
 * would have aimed, for the pitches whose aim the planner would have changed. */
function aimsList(/** @type {Analysis & { aims?: any[] }} */ analysis) {
  const squares = (/** @type {string[]} */ names) => (names.length ? names.join(", ") : t("analysis_off_city"));
  const aims = (analysis.aims || []).filter((aim) => squares(aim.aimed) !== squares(aim.best_aimed) || squares(aim.aimed) !== squares(aim.stopped));
  if (!aims.length) return [];
  return [el("h3", {}, t("analysis_aims")), el("ol", { class: "analysis-aims", id: "analysis-aims" }, aims.map((aim) =>
    el("li", {}, el("button", { type: "button", class: "linkish", onclick: () => goTo(aim.ply) },
      t("analysis_aim", { ply: aim.ply, name: nameOf(aim.seat), aimed: squares(aim.aimed), stopped: squares(aim.stopped), best: squares(aim.best_aimed) })))))];
}

function renderDone(/** @type {Element} */ box, /** @type {Analysis} */ analysis) {
  const roles = (info?.seats || []).map((seat) => seat.role);
  const now = Number(document.body.dataset.step ?? "0");
  const graph = el("div", { class: "analysis-graph-box" });
  graph.innerHTML = graphSvg(analysis, { roles, label: nameOf, hints: info?.hints_used || [], now, title: t("analysis_chance") });
  graph.addEventListener("click", (event) => {
    const svg = graph.querySelector("svg");
    if (!svg) return;
    const rect = svg.getBoundingClientRect();
    goTo(stepAt((/** @type {MouseEvent} */ (event).clientX - rect.left) / rect.width, analysis.chances.length - 1));
  });
  const legend = el("ul", { class: "analysis-legend" }, analysis.seats.map((_, seat) => {
    const swatch = /** @type {HTMLElement} */ (el("span", { class: "swatch" }));
    swatch.style.background = seatColour(roles[seat], seat); // (no style attribute: the CSP)
    return el("li", {}, swatch, nameOf(seat));
  }));
  const turning = analysis.turning_points.map((turn) =>
    el("li", {}, el("button", { type: "button", class: "linkish", onclick: () => goTo(turn.ply) },
      t("analysis_turning_point", { ply: turn.ply, name: nameOf(turn.seat), played: turn.played, leader: nameOf(turn.leader) }))));
  const mistakes = analysis.mistakes.map((mistake) =>
    el("li", { class: `grade-${mistake.grade}`, "data-ply": mistake.ply },
      el("button", { type: "button", class: "linkish", onclick: () => goTo(mistake.ply) }, mistakeText(mistake, analysis))));
  box.replaceChildren(
    el("h3", {}, t("analysis_title")),
    el("p", { class: "hint" }, t("analysis_chance")),
    graph,
    legend,
    el("h3", {}, t("analysis_turning_points")),
    turning.length ? el("ol", { class: "analysis-turning", id: "analysis-turning" }, turning) : el("p", {}, t("analysis_none")),
    el("h3", {}, t("analysis_mistakes")),
    mistakes.length ? el("ol", { class: "analysis-mistakes", id: "analysis-mistakes" }, mistakes) : el("p", {}, t("analysis_no_mistakes")),
    ...aimsList(analysis),
    ...hintsList(),
    el("p", { class: "hint" }, t("analysis_method")),
  );
  document.body.dataset.analysis = "done";
}

function render() {
  if (!info || info.status === "playing") return;
  const box = card();
  if (!answer || answer.state === "running") {
    const done = answer?.state === "running" ? answer.done : 0;
    const total = answer?.state === "running" ? Math.max(1, answer.total) : 1;
    box.replaceChildren(
      el("h3", {}, t("analysis_title")),
      el("p", { role: "status" }, t("analysis_running", { done, total })),
      el("progress", { class: "analysis-progress", id: "analysis-progress", max: String(total), value: String(done) }),
      ...hintsList(),
    );
    document.body.dataset.analysis = "running";
  } else if (answer.state === "failed") {
    box.replaceChildren(el("h3", {}, t("analysis_title")), el("p", {}, t("analysis_failed")));
    document.body.dataset.analysis = "failed";
  } else {
    renderDone(box, answer.analysis);
  }
}

async function poll() {
  try {
    answer = /** @type {AnalysisAnswer} */ (await api(keyed(tableId, `/api/tables/${encodeURIComponent(tableId)}/analysis`)));
  } catch {
    return; // (the replay's own requests say what is wrong)
  }
  render();
  if (answer.state === "running") setTimeout(poll, POLL_MS);
}

async function main() {
  try {
    info = /** @type {TableInfo} */ (await api(keyed(tableId, `/api/tables/${encodeURIComponent(tableId)}`)));
  } catch {
    return;
  }
  if (info.status === "playing") return; // no analysis during the game: it sees every hand
  render();
  await poll();
  // The step shown moves: the graph's line follows it.
  new MutationObserver(() => {
    if (answer?.state === "done") render();
  }).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });
}

onLanguageChange(render);
main();
