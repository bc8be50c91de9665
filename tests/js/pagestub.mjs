// What the page's modules touch of a browser on import and on a language switch, stood in for
// Node's test runner (imported first by a test of such a module). `fetch` reads the static
// folder as the server serves it, so the real catalogues load.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The web client's static folder. */
export const STATIC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../src/polis/server/static",
);

globalThis.window = { addEventListener: () => {} };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.sessionStorage = globalThis.localStorage;
globalThis.document = {
  documentElement: {},
  querySelectorAll: () => [],
  addEventListener: () => {},
};
globalThis.fetch = async (url) => {
  const file = path.join(STATIC, String(url).replace(/^\/static\//, ""));
  return { ok: true, json: async () => JSON.parse(readFileSync(file, "utf-8")) };
};
