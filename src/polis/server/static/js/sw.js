// The service worker (served as /sw.js): shows the server's turn notices (Web Push) in the
// player's language and opens the table when one is tapped. A notice holds only what anyone
// watching the table sees: the game's title, who is to move, the table's address.
const LANGS = ["en", "de", "pl", "it"];
const FALLBACK = { "push.title": "Your turn: {title}", "push.body": "{name}, it is your turn." };

async function strings(lang) {
  try {
    const resp = await fetch(`/static/i18n/${LANGS.includes(lang) ? lang : "en"}.json`);
    if (resp.ok) return await resp.json();
  } catch {
    // offline: the English fallback
  }
  return {};
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

self.addEventListener("push", (event) => {
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null;
  }
  if (!data || data.type !== "turn") return;
  event.waitUntil(
    (async () => {
      const catalogue = await strings(data.lang);
      const say = (key) => fill(catalogue[key] ?? FALLBACK[key], data);
      const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
      await self.registration.showNotification(say("push.title"), {
        body: say("push.body"),
        tag: `polis-turn-${data.game_id}`,
        renotify: true,
        data: { url },
      });
    })(),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = open.find((c) => c.url === url && "focus" in c);
      return same ? same.focus() : self.clients.openWindow(url);
    })(),
  );
});
