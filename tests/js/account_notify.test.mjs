// Telling a player what happened without a page (static/js/notify.js): lines said in quick
// succession are read out as one announcement, and the title is flagged on your turn only
// while the tab is hidden, until it is seen again. Run by tests/cli/test_wording.py (node
// --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";

const region = { textContent: "" };
const listeners = {};
globalThis.window = { addEventListener: () => {} };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const page = {
  title: "polis",
  hidden: false,
  documentElement: { dataset: {} },
  querySelectorAll: () => [],
  getElementById: (id) => (id === "announce" ? region : null),
  addEventListener: (type, fn) => (listeners[type] = fn),
};
globalThis.document = page;

const { announce, setTitle, yourTurn } = await import("/static/js/notify.js");
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

test("lines said together are read as one announcement, after a moment of silence", async () => {
  announce(["Ada builds a tower."]);
  assert.equal(region.textContent, ""); // emptied first: the new text is a change
  await pause(50);
  announce(["Bot 2 takes a park.", "Your turn."]);
  assert.equal(region.textContent, "");
  await pause(200);
  assert.equal(region.textContent, "Ada builds a tower. Bot 2 takes a park. Your turn.");
  announce([]); // nothing to say: the last announcement stays
  await pause(200);
  assert.equal(region.textContent, "Ada builds a tower. Bot 2 takes a park. Your turn.");
  announce(["Game over."]);
  await pause(200);
  assert.equal(region.textContent, "Game over.");
});

test("your turn flags the title only while the tab is hidden, until it is seen", () => {
  setTitle("Quadropolis");
  assert.equal(page.title, "Quadropolis");
  yourTurn("Your turn", "Quadropolis: build");
  assert.equal(page.title, "Quadropolis"); // the player is looking
  page.hidden = true;
  yourTurn("Your turn", "Quadropolis: build");
  assert.equal(page.title, "● Your turn");
  setTitle("Quadropolis · move 12");
  assert.equal(page.title, "● Quadropolis · move 12");
  page.hidden = false;
  listeners.visibilitychange();
  assert.equal(page.title, "Quadropolis · move 12");
});
