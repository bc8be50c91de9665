// The account pages' words and dates without a page (static/js/session.js and forms.js): a
// refusal of the server said in the page's language with the server's words as detail, a
// passkey's refusal, and the server's UTC times. Run by tests/cli/test_wording.py (node --test
// tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import "./pagestub.mjs";

// a zone away from UTC, so that a time read as local instead of UTC is seen
process.env.TZ = "Asia/Kolkata";

const { setLanguage } = await import("/static/js/i18n.js");
const { ApiError } = await import("/static/js/ui.js");
const { errorWords, errorLine, passkeyWords } = await import("/static/js/session.js");
const { dateOf, when } = await import("/static/js/forms.js");
await setLanguage("en");

test("a known refusal in the page's words, the server's own as detail", () => {
  const err = new ApiError("not signed in", 401, "unauthorized");
  assert.deepEqual(errorWords(err), { text: "Sign in first.", detail: "not signed in" });
  assert.equal(errorLine(err), "Sign in first. (not signed in)");
});

test("a page's own words for a code come before the common ones", () => {
  const err = new ApiError("bad password", 401, "unauthorized");
  const own = { unauthorized: "Wrong name or password." };
  assert.deepEqual(errorWords(err, own), { text: own.unauthorized, detail: "bad password" });
});

test("an unknown code, or no code, leaves the server's words alone", () => {
  assert.deepEqual(errorWords(new ApiError("it broke", 500, "boom")), {
    text: "it broke",
    detail: "",
  });
  assert.deepEqual(errorWords(new ApiError("Not Found", 404)), { text: "Not Found", detail: "" });
  assert.equal(errorLine(new ApiError("it broke", 500, "boom")), "it broke");
});

test("what is not the server's refusal: its message, or itself written out", () => {
  assert.deepEqual(errorWords(new TypeError("Failed to fetch")), {
    text: "Failed to fetch",
    detail: "",
  });
  assert.deepEqual(errorWords("offline"), { text: "offline", detail: "" });
  assert.deepEqual(errorWords(null), { text: "null", detail: "" });
});

test("a passkey's refusal: cancelled says no more; the others give the browser's words", () => {
  assert.deepEqual(passkeyWords({ code: "cancelled", message: "NotAllowedError" }), {
    text: "The passkey was not used.",
    detail: "",
  });
  assert.deepEqual(passkeyWords({ code: "failed", message: "no authenticator" }), {
    text: "The browser could not use a passkey.",
    detail: "no authenticator",
  });
  assert.deepEqual(passkeyWords({ code: "unauthorized", message: "unknown passkey" }), {
    text: "Sign in first.",
    detail: "unknown passkey",
  });
  const own = { cancelled: "Never mind." };
  assert.equal(passkeyWords({ code: "cancelled", message: "x" }, own).text, "Never mind.");
  assert.deepEqual(passkeyWords({ message: "odd" }), { text: "odd", detail: "" });
});

test("the server's times are UTC: one without its zone is read as UTC, a zone is kept", () => {
  assert.equal(dateOf("2026-11-29T14:05:00").toISOString(), "2026-11-29T14:05:00.000Z");
  assert.equal(dateOf("2026-11-29T14:05:00.250").toISOString(), "2026-11-29T14:05:00.250Z");
  assert.equal(dateOf("2026-11-29T14:05:00Z").toISOString(), "2026-11-29T14:05:00.000Z");
  assert.equal(dateOf("2026-11-29T14:05:00+02:00").toISOString(), "2026-11-29T12:05:00.000Z");
  assert.equal(dateOf("2026-11-29T14:05:00-0130").toISOString(), "2026-11-29T15:35:00.000Z");
});

test("a date in the page's language and the reader's zone; nothing for no date", () => {
  // 14:05 UTC is 19:35 in Kolkata (UTC+5:30)
  assert.match(when("2026-11-29T14:05:00"), /^Nov 29, 2026, 7:35\sPM$/);
  assert.equal(when("2026-11-29T14:05:00", false), "Nov 29, 2026");
  assert.equal(when("2026-11-29T20:00:00Z", false), "Nov 30, 2026");
  assert.equal(when(null), "");
  assert.equal(when(undefined), "");
  assert.equal(when(""), "");
  assert.equal(when("not a date"), "");
});
