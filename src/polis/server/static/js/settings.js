// @ts-check
// The player's settings, kept in this browser: colour theme, confirming moves (on touch
// screens by default), notifications and sound on your turn, animations (as the system:
// none where it asks for reduced motion; see motion.js).
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

/**
 * The settings: the colour theme, confirming moves, notifications, sound, and what others add.
 * @typedef {{theme: string, confirm: boolean, notify: boolean, sound: boolean, [key: string]: any}} Prefs
 */

const KEY = "polis:prefs";
const coarse = () => window.matchMedia?.("(pointer: coarse)").matches ?? false;
const defaults = () => ({
  theme: "auto",
  motion: "auto",
  confirm: coarse(),
  notify: false,
  sound: false,
});

/** @returns {Prefs} */
function load() {
  try {
    return { ...defaults(), ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return defaults();
  }
}

export const prefs = load();
// the running score beside each player's name (game clients): shown unless turned off
prefs.runningScore ??= true;
/** @type {((key: string, value: any) => void)[]} */
const listeners = [];

// Call fn(key, value) on every change; returns the function that stops it.
/**
 * @param {(key: string, value: any) => void} fn
 * @returns {() => void}
 */
export function onPrefs(fn) {
  listeners.push(fn);
  return () => listeners.splice(listeners.indexOf(fn), 1);
}

/**
 * @param {string} key
 * @param {any} value
 */
export function setPref(key, value) {
  prefs[key] = value;
  localStorage.setItem(KEY, JSON.stringify(prefs));
  applyTheme();
  for (const fn of listeners) fn(key, value);
}

export function applyTheme() {
  const root = document.documentElement;
  if (prefs.theme === "light" || prefs.theme === "dark") root.dataset.theme = prefs.theme;
  else delete root.dataset.theme;
  // the running score beside each player's name (game clients' `.running-score`): style.css
  // hides it during the game while this is "hidden"
  root.dataset.runningScore = prefs.runningScore === false ? "hidden" : "shown";
}

// The settings panel (in the page header), drawn again on a language switch.
export function drawSettings() {
  const panel = document.getElementById("settings-panel");
  if (!panel) return;
  /**
   * @param {string} key
   * @param {string} label
   * @param {(on: boolean, box: HTMLInputElement) => void} [onTick]
   */
  const check = (key, label, onTick) =>
    h("label", {}, [
      h("input", {
        type: "checkbox",
        id: `pref-${key}`,
        checked: prefs[key],
        on: {
          change: (e) => {
            setPref(key, e.target.checked);
            onTick?.(e.target.checked, e.target);
          },
        },
      }),
      label,
    ]);
  const theme = h(
    "select",
    { id: "pref-theme", on: { change: (e) => setPref("theme", e.target.value) } },
    ["auto", "light", "dark"].map((v) =>
      h("option", { value: v, selected: prefs.theme === v, text: t(`settings.theme.${v}`) }),
    ),
  );
  const motion = h(
    "select",
    { id: "pref-motion", on: { change: (e) => setPref("motion", e.target.value) } },
    ["auto", "on", "off"].map((v) =>
      h("option", { value: v, selected: prefs.motion === v, text: t(`settings.motion.${v}`) }),
    ),
  );
  clear(panel).append(
    h("label", {}, [t("settings.theme"), " ", theme]),
    h("label", {}, [t("settings.motion"), " ", motion]),
    check("confirm", t("settings.confirm")),
    check("notify", t("settings.notify"), async (on, box) => {
      if (!on || !("Notification" in window)) return;
      const answer =
        Notification.permission === "default"
          ? await Notification.requestPermission()
          : Notification.permission;
      if (answer !== "granted") {
        setPref("notify", false);
        box.checked = false;
      }
    }),
    check("sound", t("settings.sound")),
    check("runningScore", t("settings.runningScore")),
    h("p", { class: "hint", text: t("settings.hint") }),
  );
}

applyTheme();
