// The SDK of game clients (issue 40, item 7): a game's web/client.js imports from the page only
// through /static/js/sdk.js, and the SDK exports exactly what the clients import, so the page's
// other modules can change without breaking a game. Run by tests/cli/test_wording.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./catalogue.mjs";
import * as sdk from "/static/js/sdk.js";

const GAMES = path.join(ROOT, "src/polis/games");
const clients = readdirSync(GAMES)
  .map((game) => path.join(GAMES, game, "web/client.js"))
  .filter((file) => existsSync(file));

// Every `import {a, b as c} from "<source>"` of a module: [source, [a, b]].
function imports(text) {
  return [...text.matchAll(/^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";/gm)].map((m) => [
    m[2],
    m[1]
      .split(",")
      .map((name) => name.trim().split(/\s+as\s+/)[0])
      .filter(Boolean),
  ]);
}

test("game clients import from the page only through the SDK", () => {
  assert.ok(clients.length >= 2, clients);
  for (const file of clients) {
    const text = readFileSync(file, "utf-8");
    const hostImports = imports(text).filter(([source]) => source.startsWith("/static/"));
    assert.ok(hostImports.length, file);
    for (const [source] of hostImports) assert.equal(source, "/static/js/sdk.js", file);
    // no other way in: a dynamic import or a bare import of a page module
    assert.doesNotMatch(text.replace(/"\/static\/js\/sdk\.js"/g, ""), /["']\/static\/js\//, file);
  }
});

test("the SDK exports exactly what the game clients import", () => {
  const used = new Set();
  for (const file of clients)
    for (const [source, names] of imports(readFileSync(file, "utf-8")))
      if (source === "/static/js/sdk.js") for (const name of names) used.add(name);
  assert.deepEqual([...used].sort(), Object.keys(sdk).sort());
  for (const name of Object.keys(sdk)) assert.equal(typeof sdk[name], "function", name);
});
