// @ts-check
// "Learn to play" (issue 32): each game's lessons (web.lessons, from the engines'
// lessons.json) played on the table's own board and controls. /learn lists them, with what
// this device has done; /learn/{game}/{n} plays lesson n: its goal in words, the squares that
// matter lit, a wrong try told the rule that forbids it, and once the goal is reached the
// next lesson offered. Nothing is stored on the server: the page sends its actions so far.
import { api } from "../core/api.js";
import { el, initPage, trackTopbar } from "../core/dom.js";
import { lang, onLanguageChange, t } from "../core/i18n.js";
import { isDone, markDone, nextLesson } from "./progress.js";

/**
 * @typedef {{ en: string, ko: string }} Words
 * @typedef {{ key: string, goal: string, highlight: string[], title: Words, text: Words }} Lesson
 * @typedef {{ type: string, [key: string]: any }} Message
 * @typedef {{ applyState: (m: any, o?: object) => Promise<void>, onError?: (m: any) => void,
 *   onMessage?: (m: any) => void, rerender?: () => void }} GameUi
 */

const GAMES = ["centrix", "colorcity"];
const [, , gameName = "", numberText = ""] = location.pathname.split("/");

/** ``words`` in the page's language. */
const said = (/** @type {Words} */ words) => (lang() === "ko" ? words.ko : words.en);

async function showList() {
  /** @type {Record<string, Lesson[]>} */
  const all = await api("/api/lessons");
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const render = () => {
    main.replaceChildren(
      el("h1", {}, t("learn_to_play")),
      el("p", {}, t("learn_intro")),
      ...GAMES.filter((game) => all[game]).map((game) => {
        const keys = all[game].map((lesson) => lesson.key);
        return el("section", { class: "card-box", id: `lessons-${game}` },
          el("h2", {}, t(game)),
          el("a", { class: "btn btn-primary", id: `start-${game}`, href: `/learn/${game}/${nextLesson(game, keys)}` }, t("learn_start")),
          el("ol", { class: "lesson-list" }, all[game].map((lesson, i) =>
            el("li", {}, el("a", { href: `/learn/${game}/${i}`, class: isDone(game, lesson.key) ? "done" : "", "data-lesson": lesson.key }, said(lesson.title))))),
        );
      }),
    );
  };
  onLanguageChange(render);
  render();
}

/** The board after each step of the lesson (its views, as the answers brought them). */
const views = [];
const STEP = /\/api\/tables\/lesson\/replay\/(\d+)/;

/** The table's log shows the board after a play when a line is hovered, asking the table's
 * replay (GET /api/tables/{id}/replay/{step}): a lesson has no table, so its own views answer. */
function answerStepsHere() {
  const fetched = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const found = STEP.exec(String(input instanceof Request ? input.url : input));
    if (!found) return fetched(input, init);
    const view = views[Math.min(Number(found[1]), views.length - 1)];
    return Promise.resolve(new Response(JSON.stringify({ step: Number(found[1]), view }), { headers: { "Content-Type": "application/json" } }));
  };
}

/** Light the lesson's squares on the board drawn now; a lesson of no square lights the
 * control it is about (a power to use, the cube to flick). */
function light(/** @type {string[]} */ squares) {
  for (const name of squares) {
    const node = document.querySelector(name === "top" ? "#board g.top" : `#board path.square[data-square="${name}"]`);
    node?.classList.add("lit");
  }
  if (!squares.length) {
    for (const node of document.querySelectorAll("#use-power, #pitch")) node.classList.add("lit");
  }
}

/** Play lesson ``number`` of ``game``. */
async function showLesson(/** @type {string} */ game, /** @type {number} */ number) {
  const start = await api(`/api/lessons/${game}/${number}`);
  const count = (await api("/api/lessons"))[game].length;
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const root = el("div", { class: "table-main lesson-table", id: "lesson-table" });
  main.replaceChildren(root);
  document.body.classList.add(`game-${game}`);
  const module = game === "centrix" ? await import("../centrix.js") : await import("../colorcity.js");
  /** @type {Run} */
  const run = { game, number, count, lesson: start.lesson, start: start.state, actions: [], status: { kind: "goal", text: "" }, ui: null };
  answerStepsHere();
  // Each of the game's asks goes to the lesson (with its actions so far).
  run.ui = module.create({ root, send: (/** @type {Message} */ message) => (ask(run, message), true) });
  renderHead(run);
  onLanguageChange(() => {
    renderHead(run);
    run.ui?.rerender?.();
    light(run.lesson.highlight);
  });
  await apply(run, run.start);
  document.body.dataset.lesson = run.lesson.key;
}

/**
 * @typedef {{ game: string, number: number, count: number, lesson: Lesson, start: Message,
 *   actions: Array<string | object>, status: { kind: string, text: string }, ui: GameUi | null }} Run
 */

/** Show the lesson's ``state`` (the table's own drawing), its squares lit. */
async function apply(/** @type {Run} */ run, /** @type {Message} */ state) {
  views.length = state.version;
  views[state.version] = state.view;
  await run.ui?.applyState({ ...state, names: [t("learn_you"), t("learn_other")] }, { factor: 1 });
  light(run.lesson.highlight);
}

/** Send ``message`` (an act, a prediction or a preview) to the lesson and show its answer. */
async function ask(/** @type {Run} */ run, /** @type {Message} */ message) {
  const { seat, id, revision, ...asked } = message;
  /** @type {Message} */
  let answer;
  try {
    answer = await api(`/api/lessons/${run.game}/${run.number}`, { method: "POST", body: { ...asked, actions: run.actions } });
  } catch (exc) {
    const error = /** @type {any} */ (exc);
    answer = { type: "error", message: String(error.message), code: error.code, params: error.params || {} };
  }
  if (answer.type === "lesson") {
    run.actions = answer.actions;
    if (answer.outcome === "reached") markDone(run.game, run.lesson.key);
    const key = { reached: "learn_reached", more: "learn_more" }[String(answer.outcome)] || "learn_again";
    run.status = { kind: answer.outcome === "reached" ? "done" : "goal", text: t(key) };
    await apply(run, answer.state);
  } else if (answer.type === "error") {
    // "Why not?": the rule that refuses the try, in the page's own language.
    const words = answer.params?.words;
    run.status = { kind: "why", text: words ? said(words) : String(answer.message) };
    run.ui?.onError?.(answer);
  } else {
    run.ui?.onMessage?.(answer);
    return;
  }
  renderHead(run);
  document.body.dataset.lessonOutcome = answer.type === "error" ? "refused" : String(answer.outcome);
}

/** The lesson's title, goal, the answer to the last try and the ways on. */
function renderHead(/** @type {Run} */ run) {
  const { game, number, count, lesson, status } = run;
  const head = /** @type {HTMLElement} */ (document.getElementById("lesson-head"));
  const next = number + 1 < count
    ? el("a", { class: "btn btn-primary", id: "lesson-next", href: `/learn/${game}/${number + 1}` }, t("learn_next"))
    : el("a", { class: "btn btn-primary", id: "lesson-next", href: "/learn" }, t("learn_all_done"));
  const restart = async () => {
    run.actions = [];
    run.status = { kind: "goal", text: "" };
    delete document.body.dataset.lessonOutcome;
    renderHead(run);
    await apply(run, run.start);
  };
  head.hidden = false;
  head.replaceChildren(
    el("p", { class: "hint" }, t("learn_lesson_of", { n: number + 1, count, game: t(game) })),
    el("h1", { id: "lesson-title" }, said(lesson.title)),
    el("p", { class: "lesson-goal", id: "lesson-text" }, said(lesson.text)),
    status.text ? el("p", { class: `lesson-${status.kind}`, id: "lesson-status", role: "status" }, status.text) : "",
    el("div", { class: "lesson-controls" },
      status.kind === "done" ? next : "",
      el("button", { type: "button", class: "btn", id: "lesson-restart", onclick: restart }, t("learn_restart")),
      el("a", { class: "btn", href: "/learn" }, t("learn_lessons")),
    ),
  );
  document.title = `${said(lesson.title)} — gamenight`;
}

async function main() {
  await initPage();
  trackTopbar();
  const number = Number(numberText);
  if (GAMES.includes(gameName) && Number.isInteger(number) && numberText !== "") await showLesson(gameName, number);
  else await showList();
}

main();
