// @ts-check
// Telling a player what happened when they are not looking at the board: a live region for
// screen readers, the page title, a browser notification and a short sound (both opt-in).
import { prefs } from "./settings.js";

let baseTitle = document.title;
let flagged = false;

// Read `lines` out through the page's live region (polite: never interrupts). Lines that come
// in quick succession (a move and a bot's answer) are read as one announcement.
/** @type {string[]} */
let pending = [];
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
/** @param {string[]} lines */
export function announce(lines) {
  const region = document.getElementById("announce");
  if (!region || !lines.length) return;
  pending.push(...lines);
  clearTimeout(timer);
  region.textContent = "";
  // a fresh text node after a pause: screen readers announce changes, not a text set twice
  timer = setTimeout(() => {
    region.textContent = pending.join(" ");
    pending = [];
  }, 120);
}

/** @param {string} text */
export function setTitle(text) {
  baseTitle = text;
  document.title = flagged ? `● ${baseTitle}` : baseTitle;
}

// It became this browser's turn: flag the title (until the page is seen), and when the tab is
// hidden, notify and chime if the player asked for it.
/**
 * @param {string} title
 * @param {string} body
 */
export function yourTurn(title, body) {
  if (!document.hidden) return;
  flagged = true;
  document.title = `● ${title}`;
  if (prefs.notify && "Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(title, { body, tag: "polis-turn" });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      // some browsers allow notifications only from a service worker: the title still says it
    }
  }
  if (prefs.sound) chime();
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && flagged) {
    flagged = false;
    document.title = baseTitle;
  }
});

/** @type {AudioContext | null} */
let audio = null;
export function chime() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.18);
      osc.stop(now + i * 0.18 + 0.3);
    }
  } catch {
    // no audio device: nothing to play
  }
}
