// @ts-check
/// <reference types="node" />
// The Centrix positions the unit tests play through, made by the engine
// (tests/web/centrix_page_fixtures.py writes them; a Python test holds them current).
import { readFileSync } from "node:fs";

/**
 * @typedef {object} Fixture
 * @property {string} name
 * @property {string} why
 * @property {string} position   the engine's text of the position
 * @property {number} seat        the mover
 * @property {number} plays_left
 * @property {string[]} hand
 * @property {import("../../src/gamenight/web/static/js/centrix/model.js").GroupedLegal} legal
 * @property {string[]} notations the engine's legal plays, sorted
 * @property {string} [played]    the play made from it (the turn of three)
 */

/** @type {{ about: string, positions: Fixture[] }} */
const data = JSON.parse(readFileSync(new URL("./fixtures/centrix-legal.json", import.meta.url), "utf8"));

export const POSITIONS = data.positions;

/** @param {string} name @returns {Fixture} */
export function fixture(name) {
  const found = POSITIONS.find((p) => p.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found;
}
