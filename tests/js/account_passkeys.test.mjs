// Passkeys without a browser's authenticator (static/js/passkeys.js): base64url both ways, the
// server's options turned into what navigator.credentials wants, and a credential turned back
// into the JSON the server takes. Run by tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  fromBase64url,
  toBase64url,
  creationOptions,
  requestOptions,
  credentialJSON,
  PasskeyError,
  passkeysSupported,
} from "/static/js/passkeys.js";

const bytes = (buffer) => Array.from(new Uint8Array(buffer));
const sample = (n) => Uint8Array.from({ length: n }, (_, i) => (i * 73 + 250) % 256);

test("base64url: unpadded, URL-safe, and read back padded or not", () => {
  for (let n = 0; n <= 9; n++) {
    const raw = sample(n);
    const text = toBase64url(raw);
    assert.equal(text, Buffer.from(raw).toString("base64url"), `${n} bytes`);
    assert.doesNotMatch(text, /[+/=]/);
    assert.deepEqual(bytes(fromBase64url(text)), Array.from(raw));
    assert.deepEqual(bytes(fromBase64url(Buffer.from(raw).toString("base64"))), Array.from(raw));
  }
  assert.equal(toBase64url(Uint8Array.from([0xfb, 0xff, 0xbf])), "-_-_");
});

test("base64url of a view writes only the view's bytes, of a buffer all of it", () => {
  const whole = sample(8);
  const view = new Uint8Array(whole.buffer, 2, 3);
  assert.deepEqual(bytes(fromBase64url(toBase64url(view))), Array.from(whole.slice(2, 5)));
  assert.deepEqual(bytes(fromBase64url(toBase64url(whole.buffer))), Array.from(whole));
  const data = new DataView(whole.buffer, 6);
  assert.deepEqual(bytes(fromBase64url(toBase64url(data))), Array.from(whole.slice(6)));
});

test("registration options: the challenge, the user's id and the excluded keys as bytes", () => {
  const json = {
    rp: { id: "localhost", name: "polis" },
    user: { id: toBase64url(sample(4)), name: "ada", displayName: "ada" },
    challenge: toBase64url(sample(16)),
    pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    timeout: 60000,
    excludeCredentials: [{ id: toBase64url(sample(5)), type: "public-key", transports: ["usb"] }],
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  };
  const options = creationOptions(json);
  assert.deepEqual(bytes(options.challenge), Array.from(sample(16)));
  assert.deepEqual(bytes(options.user.id), Array.from(sample(4)));
  assert.equal(options.user.name, "ada");
  assert.deepEqual(options.rp, json.rp);
  assert.equal(options.timeout, 60000);
  assert.deepEqual(options.pubKeyCredParams, json.pubKeyCredParams);
  assert.equal(options.excludeCredentials.length, 1);
  assert.deepEqual(bytes(options.excludeCredentials[0].id), Array.from(sample(5)));
  assert.deepEqual(options.excludeCredentials[0].transports, ["usb"]);
  assert.equal(json.challenge, toBase64url(sample(16)), "the server's JSON is left as it was");
});

test("sign-in options: no keys listed is an empty list; a key without transports has none", () => {
  const open = requestOptions({ challenge: toBase64url(sample(16)), rpId: "localhost" });
  assert.deepEqual(open.allowCredentials, []);
  assert.equal(open.rpId, "localhost");
  const named = requestOptions({
    challenge: toBase64url(sample(16)),
    allowCredentials: [{ id: toBase64url(sample(3)), type: "public-key" }],
  });
  assert.equal(named.allowCredentials.length, 1);
  assert.ok(!("transports" in named.allowCredentials[0]));
  assert.deepEqual(bytes(named.allowCredentials[0].id), Array.from(sample(3)));
});

test("a credential made: its attestation and transports, in base64url", () => {
  const made = {
    id: "cred-1",
    rawId: sample(6).buffer,
    type: "public-key",
    authenticatorAttachment: "platform",
    response: {
      clientDataJSON: sample(7).buffer,
      attestationObject: sample(9).buffer,
      getTransports: () => ["internal"],
    },
    getClientExtensionResults: () => ({ credProps: { rk: true } }),
  };
  assert.deepEqual(credentialJSON(made), {
    id: "cred-1",
    rawId: toBase64url(sample(6)),
    type: "public-key",
    response: {
      clientDataJSON: toBase64url(sample(7)),
      attestationObject: toBase64url(sample(9)),
      transports: ["internal"],
    },
    authenticatorAttachment: "platform",
    clientExtensionResults: { credProps: { rk: true } },
  });
  // a browser without getTransports: none said
  delete made.response.getTransports;
  assert.deepEqual(credentialJSON(made).response.transports, []);
});

test("a credential used: its signature and user handle (null when the browser gives none)", () => {
  const used = {
    id: "cred-1",
    rawId: sample(6).buffer,
    type: "public-key",
    response: {
      clientDataJSON: sample(7).buffer,
      authenticatorData: sample(37).buffer,
      signature: sample(70).buffer,
      userHandle: sample(4).buffer,
    },
    getClientExtensionResults: () => ({}),
  };
  const json = credentialJSON(used);
  assert.equal(json.response.authenticatorData, toBase64url(sample(37)));
  assert.equal(json.response.signature, toBase64url(sample(70)));
  assert.equal(json.response.userHandle, toBase64url(sample(4)));
  assert.equal(json.authenticatorAttachment, null);
  assert.ok(!("attestationObject" in json.response));
  used.response.userHandle = null;
  assert.equal(credentialJSON(used).response.userHandle, null);
});

test("a refusal keeps its code and status; outside a browser passkeys are not offered", () => {
  const err = new PasskeyError("no", "rate_limited", 429);
  assert.ok(err instanceof Error);
  assert.equal(err.name, "PasskeyError");
  assert.equal(err.code, "rate_limited");
  assert.equal(err.status, 429);
  assert.equal(new PasskeyError("no", "cancelled").status, 0);
  assert.equal(passkeysSupported(), false);
});
