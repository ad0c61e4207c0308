// @ts-check
/// <reference types="node" />
// The pure shared parts of the page: the words' lookup and a change's diff made on its state.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { lookup, ordinal, refusalText, t, useStrings } from "../../src/gamenight/web/static/js/core/i18n.js";
import { patch } from "../../src/gamenight/web/static/js/core/patch.js";

describe("the words' lookup", () => {
  test("the page's language, else English, else the key itself", () => {
    const ko = { hello: "안녕" };
    const en = { hello: "hello", bye: "bye" };
    assert.equal(lookup(ko, en, "hello"), "안녕");
    assert.equal(lookup(ko, en, "bye"), "bye");
    assert.equal(lookup(ko, en, "nothing_here"), "nothing_here");
    assert.equal(lookup(undefined, undefined, "k"), "k");
  });

  test("every {name} is filled in, each time it comes", () => {
    const en = { seat: "{name} sits at {n}; {name} again", empty: "" };
    assert.equal(lookup(undefined, en, "seat", { name: "Ann", n: 2 }), "Ann sits at 2; Ann again");
    assert.equal(lookup(undefined, en, "empty"), "", "an empty text is a text");
    assert.equal(lookup(undefined, en, "seat", { other: 1 }), "{name} sits at {n}; {name} again");
  });

  test("a refusal in words: its rule in the page's language, its seats by name", () => {
    useStrings("en", { error_not_your_turn: "{seat} is to act: {detail}", seat_n: "Seat {n}", centrix: "Centrix", error_game: "No {game}" });
    assert.equal(t("seat_n", { n: 3 }), "Seat 3");
    const refusal = { code: "not_your_turn", message: "server words", params: { seat: 1, words: { en: "wait", ko: "기다려" } } };
    assert.equal(refusalText(refusal, ["Ann", "Bo"]), "Bo is to act: wait");
    assert.equal(refusalText(refusal), "Seat 2 is to act: wait");
    assert.equal(refusalText({ code: "game", message: "", params: { game: "centrix" } }), "No Centrix");
    assert.equal(refusalText({ code: "unknown_code", message: "the server's own" }), "the server's own");
    assert.equal(refusalText({ message: "no code" }), "no code");
  });

  test("places in English", () => {
    assert.deepEqual([1, 2, 3, 4, 11].map(ordinal), ["1st", "2nd", "3rd", "4th", "11th"]);
  });
});

describe("a change's diff made on its state", () => {
  const old = { version: 1, log: ["a"], view: { turn: 0, cells: [1, 2], gone: true }, gone: 1 };

  test("replaced, appended, one level down, removed, as gamenight.web.protocol.patch does", () => {
    const next = patch(old, { version: ["=", 2], log: ["+", ["b", "c"]], view: ["~", { turn: ["=", 1], gone: ["-"] }], gone: ["-"], added: ["=", [0]] });
    assert.deepEqual(next, { version: 2, log: ["a", "b", "c"], view: { turn: 1, cells: [1, 2] }, added: [0] });
  });

  test("the old state is untouched, and what did not change is shared", () => {
    const frozen = structuredClone(old);
    const next = patch(old, { view: ["~", { turn: ["=", 5] }] });
    assert.deepEqual(old, frozen);
    assert.notEqual(next.view, old.view);
    assert.equal(next.log, old.log, "an unchanged part is the same object");
    assert.equal(next.view.cells, old.view.cells);
  });
});
