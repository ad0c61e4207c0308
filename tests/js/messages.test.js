// @ts-check
/// <reference types="node" />
// The page's types of the server's messages (static/js/core/messages.js) are the ones the
// server's schema gives: `node tests/js/generate-messages.js` writes them again.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { OUTPUT, SCHEMA, generate } from "./generate-messages.js";

test("core/messages.js is generated from the current messages.schema.json", () => {
  const schema = JSON.parse(readFileSync(SCHEMA, "utf8"));
  assert.equal(readFileSync(OUTPUT, "utf8"), generate(schema), "run: node tests/js/generate-messages.js");
});

test("every message of the schema has its type, and the union names them all", () => {
  const schema = JSON.parse(readFileSync(SCHEMA, "utf8"));
  const text = generate(schema);
  for (const name of Object.keys(schema.$defs)) assert.match(text, new RegExp(`@typedef \\{.*\\} ${name} \\*/`));
  const union = text.match(/@typedef \{(.*)\} Outbound \*\//);
  assert.ok(union);
  assert.deepEqual(union[1].split(" | ").sort(), schema.anyOf.map((/** @type {{$ref: string}} */ ref) => ref.$ref.split("/").at(-1)).sort());
});
