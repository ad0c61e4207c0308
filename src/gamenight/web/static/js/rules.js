// @ts-check
// The rules page: a game's guide for players, or (?part=full) every rule decision exactly,
// rendered by the server, in Korean where a translation exists.
import { api } from "./core/api.js";
import { byId, el, initPage } from "./core/dom.js";
import { lang, onLanguageChange, refusalText, t } from "./core/i18n.js";

const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const part = new URLSearchParams(location.search).get("part") === "full" ? "full" : "guide";

async function render() {
  const article = byId("rules", HTMLElement);
  const note = byId("rules-note", HTMLElement);
  document.title = `${t(game)} — ${t("rules")}`;
  try {
    const data = await api(`/api/rules/${encodeURIComponent(game)}?lang=${lang()}&part=${part}`);
    article.innerHTML = data.html;
    note.hidden = !(lang() !== "en" && data.lang === "en");
    // The guide leads on to the exact rules, and back.
    const other = part === "guide"
      ? el("a", { href: `/rules/${encodeURIComponent(game)}?part=full`, id: "other-part" }, t("rules_full"))
      : el("a", { href: `/rules/${encodeURIComponent(game)}`, id: "other-part" }, t("rules_guide"));
    article.append(el("p", { class: "rules-other" }, other));
  } catch (exc) {
    article.replaceChildren(el("p", { class: "form-error" }, refusalText(exc)));
  }
}

async function main() {
  await initPage();
  onLanguageChange(render);
  await render();
}

main();
