// @ts-check
// The players: each gang's squares, HQ cubes, power and seats; the threats' and the still
// city's toggles; a spectator told who is at the table.
import { el } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { seatBadges } from "../core/seats.js";
import { store, stored } from "../core/tokens.js";
import { POWER_OF, hotSeat } from "./model.js";
import { shown } from "./page.js";

/** @typedef {import("./page.js").CityPage} CityPage */

export const STILL_KEY = "gamenight.city.still"; // hot seat: keep the city still between turns

/** One gang's box. @param {CityPage} c @param {import("./model.js").Gang} gang */
function gangBox(c, gang) {
  const msg = shown(c);
  const v = msg.view;
  const seats = v.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ ...s, i })).filter((/** @type {any} */ s) => s.gang === gang);
  const cubes = Array.from({ length: 4 }, (_, i) => el("span", { class: `hq-cube ${i < v.cubes[gang] ? "alive" : "lost"} cube-${gang}` }));
  const power = POWER_OF[gang];
  return el("div", { class: `gang gang-${gang}${v.to_move === gang && !v.outcome ? " active" : ""}`, "data-gang": gang },
    el("div", { class: "gang-head" },
      el("span", { class: `seat-dot dot-${gang}`, "aria-hidden": "true" }),
      el("strong", {}, t(`gang_${gang}`)),
      el("span", { class: "gang-squares", "data-squares": v.squares[gang] }, t("squares_n", { n: v.squares[gang], total: v.table.city_size ** 2 })),
    ),
    el("div", { class: "gang-row" },
      el("span", { class: "hq", "aria-label": t("hq_cubes", { n: v.cubes[gang] }), role: "img", "data-cubes": v.cubes[gang] }, cubes),
      el("span", { class: `power-badge${v.powers[gang] ? "" : " used"}`, title: t(`rule_${power}`) }, `${t(`power_${power}`)} ${v.powers[gang] ? "✓" : "✗"}`),
    ),
    el("ul", { class: "gang-seats" }, seats.map((/** @type {any} */ s) => el("li", { class: s.i === msg.actor && !v.outcome ? "active" : "" },
      msg.names[s.i],
      seatBadges(msg, s.i),
      el("span", { class: "skill" }, t(`skill_${s.skill}`)),
    ))),
  );
}

/** The gangs' boxes and the toggles under them; ``redraw`` when a toggle changes the city.
 * @param {CityPage} c @param {() => void} redraw */
export function renderGangs(c, redraw) {
  const { gangs, threatToggle, watching, stillToggle } = c.parts;
  const msg = shown(c);
  gangs.replaceChildren(gangBox(c, "green"), gangBox(c, "purple"));
  const box = el("input", { type: "checkbox", id: "show-threats", checked: c.showThreats });
  box.addEventListener("change", () => {
    c.showThreats = box.checked;
    redraw();
  });
  threatToggle.replaceChildren(box, el("span", {}, t("show_threats")));
  // A spectator is told so, and who is at the table (the badges say who is away).
  watching.hidden = msg.seats.length > 0;
  watching.textContent = watching.hidden ? "" : t("city_watching", { n: (msg.online || []).length, total: msg.view.seats.length });
  stillToggle.hidden = !hotSeat(msg);
  if (!stillToggle.hidden) {
    const still = el("input", { type: "checkbox", id: "keep-still", checked: stored(STILL_KEY) === "1" });
    still.addEventListener("change", () => {
      store(STILL_KEY, still.checked ? "1" : null);
      redraw();
    });
    stillToggle.replaceChildren(still, el("span", {}, t("city_keep_still")));
  }
}
