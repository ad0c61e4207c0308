// The rules page: docs/rules rendered by the server, in Korean where a translation exists.
import { api, el, initPage, lang, onLanguageChange, t } from "./common.js";

const game = decodeURIComponent(location.pathname.split("/")[2] || "");

async function render() {
  const article = document.getElementById("rules");
  const note = document.getElementById("rules-note");
  document.title = `${t(game)} — ${t("rules")}`;
  try {
    const data = await api(`/api/rules/${encodeURIComponent(game)}?lang=${lang()}`);
    article.innerHTML = data.html;
    note.hidden = !(lang() !== "en" && data.lang === "en");
  } catch (exc) {
    article.replaceChildren(el("p", { class: "form-error" }, exc.message));
  }
}

async function main() {
  await initPage();
  onLanguageChange(render);
  await render();
}

main();
