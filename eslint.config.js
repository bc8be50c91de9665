// Lint for the web client (the browser's ES modules, unbundled) and the Node scripts and tests
// around it: eslint's recommended rules; prettier owns the layout (make test checks both).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["src/polis/server/static/vendor/**", "node_modules/**", ".venv/**", "docs/**"] },
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["src/polis/server/static/js/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/js/**/*.mjs", "scripts/**/*.mjs", "eslint.config.js"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
];
