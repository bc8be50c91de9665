// @ts-check
// Passkeys (WebAuthn) for the account pages: add one while signed in, sign in with one (no
// name or password typed), list and delete the account's own. The server hands out the
// options as JSON (base64url for the binary fields) and takes the browser's answer back as
// JSON (PublicKeyCredential.toJSON()); this module converts both ways, for browsers that lack
// PublicKeyCredential.parseCreationOptionsFromJSON / toJSON too. It draws nothing: the account
// pages call it and show its errors, by their `code`, in the reader's language.
//
// Browsers allow WebAuthn only in a secure context: over https, or on http://localhost. A
// server reached at http://127.0.0.1 keeps its passkeys for "localhost": its pages must be
// opened at http://localhost:<port> (a PasskeyError "wrong_host" says where).

const BASE = "/api/account/passkeys";

/**
 * @typedef {{id: string, created: string, sign_count: number}} PasskeyInfo
 *   One of the account's passkeys, as the server lists it.
 * @typedef {{account: import("./session.js").Account, csrf: string}} SignedIn
 *   The signed-in account, as /api/account/login answers (csrf: for X-CSRF-Token).
 * @typedef {"unsupported" | "wrong_host" | "cancelled" | "exists" | "failed" | string} PasskeyErrorCode
 *   "unsupported": no WebAuthn here (an insecure page, an old browser); "wrong_host": the page is
 *   not on the address the passkeys are for; "cancelled": the person (or the timeout) dismissed the
 *   browser's dialogue; "exists": this authenticator already holds a passkey of the account;
 *   "failed": the browser refused for another reason; anything else: the server's error code
 *   (bad_request, unauthorized, forbidden, rate_limited, not_found ...).
 */

/** A refusal, by the browser or the server (`code` to branch on, `message` in English). */
export class PasskeyError extends Error {
  /**
   * @param {string} message
   * @param {PasskeyErrorCode} code
   * @param {number} [status] the HTTP status (0: the browser refused)
   */
  constructor(message, code, status = 0) {
    super(message);
    this.name = "PasskeyError";
    this.code = code;
    this.status = status;
  }
}

// -- base64url <-> bytes --------------------------------------------------------------------

/**
 * @param {string} text base64url, padded or not
 * @returns {ArrayBuffer}
 */
export function fromBase64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/**
 * @param {ArrayBuffer | ArrayBufferView} data
 * @returns {string} base64url without padding
 */
export function toBase64url(data) {
  const bytes =
    data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// -- options and answers --------------------------------------------------------------------

/**
 * @typedef {{id: string, type: "public-key", transports?: string[]}} DescriptorJSON
 * @typedef {{rp: {id?: string, name: string}, user: {id: string, name: string, displayName: string},
 *   challenge: string, pubKeyCredParams: PublicKeyCredentialParameters[], timeout?: number,
 *   excludeCredentials?: DescriptorJSON[], authenticatorSelection?: AuthenticatorSelectionCriteria,
 *   attestation?: AttestationConveyancePreference}} CreationOptionsJSON
 * @typedef {{challenge: string, rpId?: string, timeout?: number, allowCredentials?: DescriptorJSON[],
 *   userVerification?: UserVerificationRequirement}} RequestOptionsJSON
 */

/**
 * @param {DescriptorJSON[] | undefined} list
 * @returns {PublicKeyCredentialDescriptor[]}
 */
function descriptors(list) {
  return (list || []).map((c) => ({
    type: c.type,
    id: fromBase64url(c.id),
    ...(c.transports ? { transports: /** @type {AuthenticatorTransport[]} */ (c.transports) } : {}),
  }));
}

/**
 * The server's registration options as navigator.credentials.create wants them.
 * @param {CreationOptionsJSON} json
 * @returns {PublicKeyCredentialCreationOptions}
 */
export function creationOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials),
  };
}

/**
 * The server's sign-in options as navigator.credentials.get wants them.
 * @param {RequestOptionsJSON} json
 * @returns {PublicKeyCredentialRequestOptions}
 */
export function requestOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    allowCredentials: descriptors(json.allowCredentials),
  };
}

/**
 * A credential made or used by the browser, as the server takes it (the JSON of toJSON()).
 * @param {PublicKeyCredential} credential
 * @returns {Record<string, any>}
 */
export function credentialJSON(credential) {
  const response = credential.response;
  /** @type {Record<string, any>} */
  const out = { clientDataJSON: toBase64url(response.clientDataJSON) };
  if ("attestationObject" in response) {
    const attestation = /** @type {AuthenticatorAttestationResponse} */ (response);
    out.attestationObject = toBase64url(attestation.attestationObject);
    out.transports =
      typeof attestation.getTransports === "function" ? attestation.getTransports() : [];
  } else {
    const assertion = /** @type {AuthenticatorAssertionResponse} */ (response);
    out.authenticatorData = toBase64url(assertion.authenticatorData);
    out.signature = toBase64url(assertion.signature);
    out.userHandle = assertion.userHandle ? toBase64url(assertion.userHandle) : null;
  }
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: out,
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    clientExtensionResults: credential.getClientExtensionResults(),
  };
}

// -- where passkeys work --------------------------------------------------------------------

/** @returns {boolean} whether this page can use passkeys at all (a secure context with WebAuthn) */
export function passkeysSupported() {
  return (
    typeof window !== "undefined" &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential === "function" &&
    typeof navigator.credentials?.create === "function"
  );
}

/** @returns {Promise<boolean>} whether the browser can offer passkeys in a name field's autofill */
export async function autofillSupported() {
  if (!passkeysSupported()) return false;
  const check = /** @type {any} */ (window.PublicKeyCredential).isConditionalMediationAvailable;
  return typeof check === "function"
    ? Boolean(await check.call(window.PublicKeyCredential))
    : false;
}

/**
 * A PasskeyError when this page is not where the server's passkeys live.
 * @param {string | undefined} rpId
 */
function checkHost(rpId) {
  if (!passkeysSupported()) {
    throw new PasskeyError(
      "this page cannot use passkeys: it needs https (or localhost) and a recent browser",
      "unsupported",
    );
  }
  const host = location.hostname;
  if (rpId && host !== rpId && !host.endsWith(`.${rpId}`)) {
    const where = `${location.protocol}//${rpId}${location.port ? `:${location.port}` : ""}${location.pathname}`;
    throw new PasskeyError(`passkeys of this server are for ${rpId}: open ${where}`, "wrong_host");
  }
}

/**
 * The browser's refusal as a PasskeyError.
 * @param {unknown} err
 * @returns {PasskeyError}
 */
function browserError(err) {
  if (err instanceof PasskeyError) return err;
  const name = err instanceof Error ? err.name : "";
  const message = err instanceof Error ? err.message : String(err);
  if (name === "NotAllowedError" || name === "AbortError")
    return new PasskeyError(message, "cancelled");
  if (name === "InvalidStateError") return new PasskeyError(message, "exists");
  if (name === "SecurityError") return new PasskeyError(message, "wrong_host");
  if (name === "NotSupportedError") return new PasskeyError(message, "unsupported");
  return new PasskeyError(message, "failed");
}

// -- the server -----------------------------------------------------------------------------

/**
 * @param {string} path
 * @param {{body?: unknown, csrf?: string | null, method?: string}} [how]
 * @returns {Promise<any>}
 */
async function call(path, how = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (how.body !== undefined) headers["Content-Type"] = "application/json";
  if (how.csrf) headers["X-CSRF-Token"] = how.csrf;
  const resp = await fetch(path, {
    method: how.method ?? (how.body === undefined ? "GET" : "POST"),
    headers,
    credentials: "same-origin",
    body: how.body === undefined ? undefined : JSON.stringify(how.body),
  });
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    throw new PasskeyError(
      data?.error?.message || resp.statusText,
      data?.error?.code || "failed",
      resp.status,
    );
  }
  return data;
}

/**
 * Add a passkey to the signed-in account: the browser asks the person to make one.
 * @param {string | null} csrf the session's CSRF token (GET /api/account)
 * @returns {Promise<PasskeyInfo>}
 */
export async function addPasskey(csrf) {
  if (!passkeysSupported()) checkHost(undefined);
  const json = /** @type {CreationOptionsJSON} */ (
    await call(`${BASE}/register/options`, { body: {}, csrf })
  );
  checkHost(json.rp.id);
  let credential;
  try {
    credential = await navigator.credentials.create({ publicKey: creationOptions(json) });
  } catch (err) {
    throw browserError(err);
  }
  if (!credential) throw new PasskeyError("the browser made no passkey", "cancelled");
  const answer = credentialJSON(/** @type {PublicKeyCredential} */ (credential));
  return call(`${BASE}/register`, { body: { credential: answer }, csrf });
}

/**
 * Sign in with a passkey: a new session starts (its cookie set), as with a password.
 * @param {{name?: string, mediation?: CredentialMediationRequirement, signal?: AbortSignal}} [how]
 *   name: offer only that account's passkeys; mediation "conditional": wait for the person to
 *   pick a passkey in a name field's autofill (<input autocomplete="username webauthn">), until
 *   `signal` aborts it.
 * @returns {Promise<SignedIn>}
 */
export async function signInWithPasskey(how = {}) {
  if (!passkeysSupported()) checkHost(undefined);
  const body = how.name ? { name: how.name } : {};
  const json = /** @type {RequestOptionsJSON} */ (await call(`${BASE}/login/options`, { body }));
  checkHost(json.rpId);
  let credential;
  try {
    credential = await navigator.credentials.get({
      publicKey: requestOptions(json),
      ...(how.mediation ? { mediation: how.mediation } : {}),
      ...(how.signal ? { signal: how.signal } : {}),
    });
  } catch (err) {
    throw browserError(err);
  }
  if (!credential) throw new PasskeyError("no passkey was chosen", "cancelled");
  const answer = credentialJSON(/** @type {PublicKeyCredential} */ (credential));
  return call(`${BASE}/login`, { body: { credential: answer } });
}

/**
 * The signed-in account's passkeys, oldest first.
 * @returns {Promise<PasskeyInfo[]>}
 */
export async function listPasskeys() {
  const data = await call(BASE);
  return data.passkeys;
}

/**
 * Delete one of the signed-in account's passkeys (the authenticator keeps its copy, unused).
 * @param {string} id the passkey's id (PasskeyInfo.id)
 * @param {string | null} csrf the session's CSRF token
 * @returns {Promise<void>}
 */
export async function deletePasskey(id, csrf) {
  await call(`${BASE}/delete`, { body: { id }, csrf });
}
