// @ts-nocheck -- (node:test has no types here: the toolchain pins TypeScript alone, no @types/node)
// The analysis graph's markup (issue 32): one line per seat through every step, the turning
// points and hints marked, the step shown, and clicks read back to steps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { graphSvg, seatColour, stepAt } from "../../src/gamenight/web/static/js/analysis-graph.js";

/** @type {import("../../src/gamenight/web/static/js/analysis-graph.js").Analysis} */
const ANALYSIS = {
  game: "centrix",
  seats: ["red", "blue"],
  method: "test",
  chances: [[0.5, 0.5], [0.6, 0.4], [0.2, 0.8], [0, 1]],
  turning_points: [{ ply: 2, seat: 1, played: "B1 off-a1", swing: [-0.4, 0.4], leader: 1 }],
  mistakes: [],
  winner: 1,
};

test("each seat's chance is a line through every step", () => {
  const svg = graphSvg(ANALYSIS, { roles: ["red", "blue"] });
  const lines = [...svg.matchAll(/<polyline[^>]*points="([^"]*)"/g)].map((m) => m[1].split(" "));
  assert.equal(lines.length, 2);
  assert.ok(lines.every((points) => points.length === 4));
  assert.ok(svg.includes(`stroke="${seatColour("blue", 1)}"`));
});

test("turning points, hints and the step shown are marked", () => {
  const svg = graphSvg(ANALYSIS, { hints: [{ seat: 0, number: 0, level: 3 }], now: 1 });
  assert.equal((svg.match(/class="turning"/g) || []).length, 1);
  assert.ok(svg.includes('data-ply="2"'));
  assert.equal((svg.match(/class="hint-mark"/g) || []).length, 1);
  assert.equal((svg.match(/class="now"/g) || []).length, 1);
});

test("names are escaped in the markup", () => {
  const svg = graphSvg(ANALYSIS, { label: () => "<b>&" });
  assert.ok(!svg.includes("<b>"));
  assert.ok(svg.includes("&#60;b&#62;&#38;"));
});

test("a click is read back to the nearest step", () => {
  assert.equal(stepAt(0, 3), 0);
  assert.equal(stepAt(1, 3), 3);
  assert.equal(stepAt((34 + (600 - 44) / 3) / 600, 3), 1);
});
