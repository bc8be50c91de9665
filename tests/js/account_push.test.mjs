// Turn notifications without a page (static/js/turnpush.js): the server's public key, sent as
// base64url without padding, read back to the bytes the browser subscribes with. Run by
// tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { keyBytes } from "/static/js/turnpush.js";

const bytes = (text) => Array.from(keyBytes(text));

test("a key of every length is read whatever padding it lacks", () => {
  for (let n = 0; n <= 8; n++) {
    const raw = Buffer.from(Array.from({ length: n }, (_, i) => (i * 97 + 251) % 256));
    assert.deepEqual(bytes(raw.toString("base64url")), Array.from(raw), `${n} bytes`);
  }
});

test("the URL-safe letters stand for + and /", () => {
  assert.deepEqual(bytes("-_-_"), [0xfb, 0xff, 0xbf]);
  assert.deepEqual(bytes("__8"), [0xff, 0xff]);
});

test("a VAPID public key (65 bytes, uncompressed P-256 point) comes back whole", () => {
  const raw = Buffer.alloc(65, 0xfe);
  raw[0] = 4;
  const key = raw.toString("base64url");
  assert.equal(key.length, 87); // no padding: as the server sends it
  assert.deepEqual(bytes(key), Array.from(raw));
});
