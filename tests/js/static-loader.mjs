// A module resolve hook: the page's absolute "/static/..." imports point into
// src/polis/server/static, as the server maps them.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const STATIC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../src/polis/server/static",
);

export async function resolve(specifier, context, next) {
  if (specifier.startsWith("/static/")) {
    return next(pathToFileURL(path.join(STATIC, specifier.slice("/static/".length))).href, context);
  }
  return next(specifier, context);
}
