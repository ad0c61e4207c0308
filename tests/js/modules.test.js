// @ts-check
/// <reference types="node" />
// Every module of the page starts with // @ts-check, has at most MAX_LINES lines and no
// function longer than MAX_FUNCTION_LINES (measured with TypeScript's own parser: a
// function's lines from its first to its last, nested functions included).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const JS = join(ROOT, "src/gamenight/web/static/js");
export const MAX_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

/** Every .js file under ``dir``, its path from ``JS``. @param {string} dir @returns {string[]} */
function modules(dir = JS) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith(".js") ? [relative(JS, path)] : [];
  });
}

/** Each function of ``source`` longer than ``max`` lines: "name (line): n lines".
 * @param {string} name @param {string} source @param {number} max @returns {string[]} */
export function longFunctions(name, source, max) {
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** @type {string[]} */
  const long = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) {
        const named = /** @type {{name?: ts.Node}} */ (node).name;
        long.push(`${named ? named.getText(file) : "(anonymous)"} (line ${first + 1}): ${lines} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return long;
}

const all = modules();

for (const name of all) {
  const source = readFileSync(join(JS, name), "utf8");
  test(`${name} starts with // @ts-check`, () => {
    assert.ok(source.startsWith("// @ts-check\n"), `${name}: its first line is not // @ts-check`);
  });
  test(`${name} has at most ${MAX_LINES} lines and no function over ${MAX_FUNCTION_LINES}`, () => {
    const lines = source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
    const long = longFunctions(name, source, MAX_FUNCTION_LINES);
    const problems = [...(lines > MAX_LINES ? [`${lines} lines`] : []), ...long];
    assert.deepEqual(problems, [], `${name}: ${problems.join("; ")}`);
  });
}

test("a function's length is counted from its first line to its last", () => {
  const source = "function a() {\n  return 1;\n}\nconst b = () => {\n\n\n};\n";
  assert.deepEqual(longFunctions("x.js", source, 3), ["(anonymous) (line 4): 4 lines"]);
  assert.deepEqual(longFunctions("x.js", source, 4), []);
});
