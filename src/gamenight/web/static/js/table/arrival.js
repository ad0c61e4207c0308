// @ts-check
// When the table page's link does not lead to the table: what went wrong and what can be
// done, in place of the table (an invite link used elsewhere, renewed or wrong; no table).
import { checkInvite } from "../core/api.js";
import { byId, el } from "../core/dom.js";
import { onLanguageChange, t } from "../core/i18n.js";
import { forgetToken, watchToken } from "../core/tokens.js";
import { tableId } from "./id.js";

/** The page in place of the table when its link does not lead to it: ``describe()`` gives
 * what went wrong (``title``, ``text``) and what can be done (``actions``: buttons or links;
 * the home page's is always there), asked again when the language changes. */
/** What went wrong and what can be done.
 * @typedef {() => {title: string, text: string, actions?: HTMLElement[]}} Problem */
/** @type {Problem | null} */
let problem = null;
let problemHeard = false;
/** @param {Problem} describe */
export function showProblem(describe) {
  if (!problemHeard) onLanguageChange(() => problem && renderProblem());
  problemHeard = true;
  problem = describe;
  renderProblem();
}

function renderProblem() {
  if (!problem) return;
  const { title, text, actions = [] } = problem();
  byId("main", HTMLElement).replaceChildren(
    el("section", { class: "panel problem", id: "problem", role: "alert" },
      el("h1", {}, title),
      el("p", { class: "form-error" }, text),
      el("div", { class: "form-actions" }, actions, el("a", { class: "btn", href: "/", id: "go-home" }, t("go_home"))),
    ),
  );
  /** @type {HTMLElement | null} */ (document.querySelector("#problem .btn-primary"))?.focus();
}

/** When the invite link this page was opened with opens no seat, say why and wait: at a
 * public table the guest may watch instead (resolves then); otherwise the page stays. A
 * link that opens a seat (or a check that cannot be made) resolves at once.
 * @param {string} token */
export async function checkArrival(token) {
  let answer;
  try {
    answer = await checkInvite(tableId, token);
  } catch (exc) {
    if (/** @type {import("../core/api.js").ApiError} */ (exc).code === "no_table") forgetToken(tableId, token);
    return; // the table's own request says what is wrong
  }
  if (answer.invite === "open" || answer.invite === "yours") return;
  forgetToken(tableId, token);
  const why = () => t(`invite_${answer.invite}_page`);
  // A spectator link kept from before still lets this device watch an unlisted table.
  if (answer.visibility !== "public" && !watchToken(tableId)) {
    showProblem(() => ({ title: t("invite_problem"), text: `${why()} ${t("invite_no_watching")}` }));
    await new Promise(() => {}); // nothing more to show here
  }
  await new Promise((/** @type {(value?: unknown) => void} */ resolve) => {
    showProblem(() => ({
      title: t("invite_problem"),
      text: `${why()} ${t("invite_may_watch")}`,
      actions: [el("button", { type: "button", class: "btn btn-primary", id: "watch-instead", onclick: resolve }, t("watch_instead"))],
    }));
  });
  problem = null;
}
