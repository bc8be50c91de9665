// @ts-check
// Turn notifications by Web Push, opted into per seat from the table: the browser subscribes
// through the service worker (/sw.js) with the server's public key, and the subscription is
// handed to the server once per seat this browser holds. Turning them off tells the server
// to forget it for this game (the browser's subscription stays for its other games).
import { h, clear } from "./dom.js";
import { t, language } from "./i18n.js";
import { api } from "./ui.js";

/**
 * What the table hands the box: its game, the tokens of the seats this browser holds there,
 * and whether to offer notices at all (not for a finished game or a real-time one: its players
 * are expected at the table, the server sends no notices).
 * @typedef {{gameId: string, tokens: () => string[], shown: () => boolean}} PushEnv
 */

/**
 * What this browser keeps of a game's subscription (localStorage): the push service's address.
 * @typedef {{endpoint: string}} Saved
 */

/** @param {string} gameId */
const KEY = (gameId) => `polis:push:${gameId}`;

export function pushSupported() {
  return (
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window &&
    window.isSecureContext
  );
}

// The server's public key (base64url, its padding left off) as bytes.
/** @param {string} text */
export function keyBytes(text) {
  const b64 = (text + "=".repeat((4 - (text.length % 4)) % 4))
    .replace(/-/g, "+")
    .replace(/_/g, "/");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/**
 * @param {string} gameId
 * @returns {Saved | null}
 */
function saved(gameId) {
  try {
    return JSON.parse(localStorage.getItem(KEY(gameId)) || "null");
  } catch {
    return null;
  }
}

/** @returns {Promise<PushSubscription>} */
export async function subscription() {
  // GET /api/push/key: null when the server sends no notices
  /** @type {{key: string | null}} */
  const { key } = await api("/api/push/key");
  if (!key) throw new Error(t("push.unsupported"));
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error(t("push.denied"));
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const found = await registration.pushManager.getSubscription();
  return (
    found ??
    registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(key),
    })
  );
}

/** @param {PushEnv} env */
export function pushBox(env) {
  const { gameId } = env;
  // hidden until its first draw: an empty box would name a heading not there yet
  const box = h("section", {
    class: "box push",
    id: "push",
    "aria-labelledby": "push-title",
    hidden: true,
  });
  const status = h("p", { id: "push-status", role: "status" });
  let busy = false;

  async function on() {
    busy = true;
    draw();
    try {
      const sub = (await subscription()).toJSON();
      for (const token of env.tokens()) {
        await api(`/api/games/${encodeURIComponent(gameId)}/push`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            token,
            subscription: { endpoint: sub.endpoint, keys: sub.keys },
            lang: language(),
          }),
        });
      }
      localStorage.setItem(KEY(gameId), JSON.stringify({ endpoint: sub.endpoint }));
      status.textContent = t("push.enabled");
    } catch (err) {
      status.textContent = t("push.failed", {
        why: /** @type {Error} */ (err).message || String(err),
      });
    }
    busy = false;
    draw(true);
  }

  async function off() {
    const was = saved(gameId);
    busy = true;
    draw();
    try {
      for (const token of env.tokens()) {
        await api(`/api/games/${encodeURIComponent(gameId)}/push`, {
          method: "DELETE",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ token, endpoint: was?.endpoint ?? "" }),
        });
      }
      localStorage.removeItem(KEY(gameId));
      status.textContent = "";
    } catch (err) {
      status.textContent = /** @type {Error} */ (err).message;
    }
    busy = false;
    draw(true);
  }

  function draw(keepStatus = false) {
    const tokens = env.tokens();
    box.hidden = !tokens.length || !env.shown();
    if (box.hidden) return;
    const enabled = !!saved(gameId);
    if (!keepStatus) status.textContent = enabled ? t("push.enabled") : "";
    /** @type {HTMLElement[]} */
    const parts = [h("h3", { id: "push-title", text: t("push.heading") })];
    if (!pushSupported()) {
      parts.push(h("p", { class: "hint", text: t("push.unsupported") }));
    } else {
      parts.push(
        h("p", { class: "hint", text: t("push.hint") }),
        h("button", {
          id: "push-toggle",
          type: "button",
          disabled: busy,
          text: enabled ? t("push.off") : t("push.on"),
          on: { click: () => (enabled ? off() : on()) },
        }),
      );
    }
    parts.push(status);
    const had = document.activeElement?.id === "push-toggle";
    clear(box).append(...parts);
    if (had) /** @type {HTMLElement | null} */ (box.querySelector("#push-toggle"))?.focus();
  }

  return { element: box, render: () => draw() };
}
