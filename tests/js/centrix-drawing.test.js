// @ts-check
/// <reference types="node" />
// The page draws the board from the engine's one layout (static/centrix-geometry.json, which
// gamenight/centrix/svg.py draws from too): every square where the layout puts it, each pawn
// on its spot, the pawns on the top as the layout crowds them.
import "./file-fetch.js"; // (first: the layout is fetched as the page's modules load)
import assert from "node:assert/strict";
import { test } from "node:test";
import { boardMarkup, lastMoveMarkup } from "../../src/gamenight/web/static/js/centrix/drawing.js";
import { GEOMETRY, centre, topSpots } from "../../src/gamenight/web/static/js/centrix/geometry.js";

/** @type {import("../../src/gamenight/web/static/js/centrix/model.js").BoardData} */
const BOARD = {
  players: [
    { colour: "red", letter: "R", top: 2, off: 0, hand_size: 3, place: null, levels: 0 },
    { colour: "blue", letter: "B", top: 0, off: 2, hand_size: 3, place: null, levels: 0 },
  ],
  cells: Array.from({ length: 72 }, (_, sq) => (sq === 14 ? 1 : sq === 60 ? 0 : -1)),
  offsets: [0, 0, 0, 0, 0, 0],
  colours: Array.from({ length: 6 }, () => "ROYGBWROYGBW"),
};

/** Every match of ``pattern``'s first group in ``text``. @param {string} text @param {RegExp} pattern */
const all = (text, pattern) => [...text.matchAll(pattern)].map((m) => m.slice(1));

test("every ring square is drawn with the layout's outline", () => {
  const squares = all(boardMarkup(BOARD), /<path class="square" data-square="(\w+)"[^>]* d="([^"]+)"/g);
  assert.equal(squares.length, 72);
  for (const [name, d] of squares) assert.equal(d, GEOMETRY.squares[name].path, name);
});

test("a pawn stands on its square's spot, and the top's pawns as the layout crowds them", () => {
  const markup = boardMarkup(BOARD);
  const pawns = all(markup, /<g class="pawn" data-square="(\w+)" data-seat="(\d)"[^>]*><circle[^>]*\/><circle class="pawn-outline" cx="([\d.]+)" cy="([\d.]+)"/g);
  assert.deepEqual(pawns.map(([square, seat]) => [square, seat]), [["c2", "1"], ["a6", "0"], ["top", "0"], ["top", "0"]]);
  const spots = [centre("c2"), centre("a6"), ...topSpots(2)];
  pawns.forEach(([, , x, y], i) => {
    assert.ok(Math.abs(Number(x) - spots[i][0]) <= 0.05 && Math.abs(Number(y) - spots[i][1]) <= 0.05, `pawn ${i} on its spot`);
  });
  assert.equal(topSpots(GEOMETRY.top.crowds.length - 1).length, GEOMETRY.top.crowds.length - 1);
});

test("the last play's mark outlines its squares as the layout insets them", () => {
  const markup = lastMoveMarkup({ seat: 0, notation: "R1 3+1 c3-d3", card: "R1", rotation: { ring: 3, amount: 1 }, moves: [{ seat: 0, from: "c3", to: "d3" }] });
  assert.deepEqual(all(markup, /<path d="([^"]+)"/g).map(([d]) => d), [GEOMETRY.squares.c3.outline, GEOMETRY.squares.c3.outline, GEOMETRY.squares.d3.outline, GEOMETRY.squares.d3.outline]);
  assert.match(markup, /class="mark-ring" data-ring="3"/);
});
