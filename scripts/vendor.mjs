// Builds the browser libraries polis vendors (run with `make vendor`, after `npm ci`):
// intl-messageformat, which formats the ICU MessageFormat catalogues in the browser, bundled
// with its dependencies into one ES module under src/polis/server/static/vendor/. The page
// loads it from its own origin (the CSP allows scripts from 'self' only); the licence of
// every bundled package heads the file. The versions are pinned in package.json and
// package-lock.json.
import { readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

const OUT = "src/polis/server/static/vendor/intl-messageformat.js";
const BUNDLED = [
  "intl-messageformat",
  "@formatjs/icu-messageformat-parser",
  "@formatjs/icu-skeleton-parser",
  "@formatjs/fast-memoize",
];

function licence(name) {
  const meta = JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf-8"));
  const text = readFileSync(`node_modules/${name}/LICENSE.md`, "utf-8").trim();
  return `${meta.name} ${meta.version} (${meta.license})\n\n${text}`;
}

const header = [
  "Vendored by scripts/vendor.mjs (make vendor): do not edit; rebuild instead.",
  "It bundles these packages from the npm registry, under their licences:",
  ...BUNDLED.map(licence),
].join("\n\n");

const result = await build({
  stdin: {
    contents: 'export { IntlMessageFormat } from "intl-messageformat";',
    resolveDir: ".",
    loader: "js",
  },
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  legalComments: "none",
  write: false,
});
const code = result.outputFiles[0].text;
const comment = `/*!\n${header
  .split("\n")
  .map((l) => ` * ${l}`.trimEnd())
  .join("\n")}\n */\n`;
writeFileSync(OUT, comment + code);
console.log(`${OUT}: ${(comment + code).length} bytes`);
