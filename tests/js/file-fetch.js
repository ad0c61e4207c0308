// @ts-check
/// <reference types="node" />
// Node's fetch reads no file: URLs, and a page module fetches the data that lies beside it
// (centrix/geometry.js, the board's layout): a test that imports one imports this first, and
// the module's file: URL is read from disk. Anything else is fetched as before.
import { readFile } from "node:fs/promises";

const fetchElsewhere = globalThis.fetch;

/** @param {RequestInfo | URL} input @param {RequestInit} [init] */
globalThis.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.protocol !== "file:") return fetchElsewhere(input, init);
  return new Response(await readFile(url), { headers: { "content-type": "application/json" } });
};
