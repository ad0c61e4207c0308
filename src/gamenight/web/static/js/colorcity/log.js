// @ts-check
// The log in words: each pitch (who pitched, what the cube covered and took) and each power
// used, a line that shows the city as it was after it.
import { t } from "../core/i18n.js";
import { logEntry } from "../core/seats.js";
import { gangOf, isNews, other } from "./model.js";
import { shown } from "./page.js";

/** @typedef {import("./page.js").CityPage} CityPage */

/** A log entry of the view (or the ``last`` of a state) in words: who pitched and what the cube
 * covered and took, or the power decided. ``gang`` is the acting seat's.
 * @param {Record<string, any>} entry @param {import("./model.js").Gang} gang @returns {string} */
export function entryWords(entry, gang) {
  const who = t(`city_gang_${gang}`);
  if (!("covered" in entry)) return t(`city_log_${entry.notation}`, { gang: who, other: t(`city_gang_${other(gang)}`) });
  if (entry.fell) return t("city_log_fell", { gang: who });
  if (!entry.covered.length) return t("city_log_outside", { gang: who });
  const n = entry.covered.length;
  const covered = t(n === 1 ? "city_log_covered_one" : "city_log_covered", { gang: who, squares: entry.covered.join(", "), n });
  if (!entry.lost.length) return covered;
  return `${covered}${t("city_log_then")}${t("city_log_lost", { gang: t(`city_gang_${other(gang)}`), squares: entry.lost.join(", ") })}`;
}

/** The log of the state shown; ``line(step)`` gives a line's attributes (the board then).
 * @param {CityPage} c @param {(step: number) => Record<string, any>} line */
export function renderLog(c, line) {
  const { log, logTitle } = c.parts;
  const msg = shown(c);
  logTitle.textContent = t("log");
  const lines = msg.view.log.map((/** @type {Record<string, any>} */ entry, /** @type {number} */ i) => (isNews(entry)
    ? logEntry(msg, entry.seat, gangOf(msg, entry.seat), entryWords(entry, gangOf(msg, entry.seat)),
      { ...line(i + 1), title: entry.notation }) // the notation as the record writes it
    : null));
  log.replaceChildren(...lines.filter((li) => li !== null));
  log.scrollTop = log.scrollHeight;
}
