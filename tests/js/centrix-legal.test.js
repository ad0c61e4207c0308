// @ts-check
/// <reference types="node" />
// The page lists the legal plays again from the server's compact form: the same plays as the
// engine lists, each once, in every position the engine made for these tests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { expandLegal, fullEntry, isLeap, parseRotation, parseSquare, rotationText } from "../../src/gamenight/web/static/js/centrix/model.js";
import { POSITIONS } from "./centrix-fixtures.js";

for (const position of POSITIONS) {
  test(`the plays listed again are the engine's: ${position.name} (${position.why})`, () => {
    const plays = expandLegal(position.legal);
    const notations = plays.map((p) => p.notation);
    assert.deepEqual([...notations].sort(), position.notations);
    assert.equal(new Set(notations).size, notations.length, "each play once");
  });

  test(`each play's parts are its notation's: ${position.name}`, () => {
    for (const p of expandLegal(position.legal)) {
      const parts = [p.card, p.rotation, p.from === null ? null : `${p.from}-${p.to}`].filter(Boolean);
      assert.equal(p.notation, parts.join(" "));
      assert.ok(position.hand.includes(p.card), `${p.card} is in the hand`);
      assert.equal(p.from === null, p.to === null, "a move has both ends");
      if (p.rotation) assert.equal(rotationText(parseRotation(p.rotation)), p.rotation);
    }
  });
}

test("no legal plays (not this page's turn) list none", () => {
  assert.deepEqual(expandLegal(null), []);
  assert.deepEqual(expandLegal(undefined), []);
});

test("squares, rotations and leaps are read as the rules name them", () => {
  assert.deepEqual(parseSquare("c3"), { ring: 3, slot: 2 });
  assert.deepEqual(parseSquare("top"), { ring: 7, slot: null });
  assert.deepEqual(parseSquare("off"), { ring: 0, slot: null });
  assert.deepEqual(parseRotation("6-5"), { ring: 6, amount: -5 });
  assert.equal(rotationText({ ring: 2, amount: 3 }), "2+3");
  assert.equal(isLeap("c3", "d3"), false);
  assert.equal(isLeap("l3", "a3"), false, "round the ring is a step");
  assert.equal(isLeap("c3", "e3"), true);
  assert.equal(isLeap("off", "a1"), false);
  assert.equal(isLeap("off", "a2"), true);
  assert.equal(isLeap("a6", "top"), false);
  assert.equal(isLeap("a5", "top"), true);
});

test("a log entry is told in full: its card, the ring it turned, its moves", () => {
  const entry = fullEntry({ seat: 1, notation: "S 3-2 c3-c5", moves: [[1, "c3", "c5"], [0, "c5", "c3"]] });
  assert.equal(entry.card, "S");
  assert.deepEqual(entry.rotation, { ring: 3, amount: -2 });
  assert.deepEqual(entry.moves, [{ seat: 1, from: "c3", to: "c5" }, { seat: 0, from: "c5", to: "c3" }]);
  assert.equal(fullEntry({ seat: 0, notation: "A off-b1", moves: [[0, "off", "b1"]] }).rotation, null);
});
