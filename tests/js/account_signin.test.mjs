// Signing up without a page (static/js/signin.js): the name and password rules the page checks
// before the server (accounts/passwords.py), said in words. Run by tests/cli/test_wording.py
// (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { STATIC } from "./pagestub.mjs";
import { readFileSync } from "node:fs";
import path from "node:path";

const { setLanguage } = await import("/static/js/i18n.js");
const { NAME, MIN_PASSWORD, passwordProblem } = await import("/static/js/signin.js");
await setLanguage("en");

test("a name: 3 to 20 letters, digits, - or _, beginning with a letter", () => {
  for (const name of ["ada", "Ada_Lovelace", "x-1", "Zoë", "Łucja", "José2", "a".repeat(20)])
    assert.ok(NAME.test(name), name);
  for (const name of ["ab", "1ada", "_ada", "-ada", "ada lovelace", "ada!", "a".repeat(21), ""])
    assert.ok(!NAME.test(name), name);
});

test("the server's length is the page's", () => {
  const server = readFileSync(path.resolve(STATIC, "../accounts/passwords.py"), "utf-8");
  assert.match(server, new RegExp(`^MIN_PASSWORD = ${MIN_PASSWORD}$`, "m"));
});

test("a password too short, too plain, or holding the name is refused in words", () => {
  assert.equal(passwordProblem("short1!", "ada"), "at least 10 characters");
  assert.equal(passwordProblem("abababababab", "ada"), "at least 4 different characters");
  assert.equal(passwordProblem("xx-AdA-2026-yy", "ada"), "not containing the name");
  assert.equal(passwordProblem("xx-AdA-2026-yy"), null); // no name typed yet
  assert.equal(passwordProblem("correct horse battery", "ada"), null);
  assert.equal(passwordProblem("a".repeat(MIN_PASSWORD - 1) + "bcd", "zed"), null);
});
