// @ts-check
// The header's account entry: "Sign in" for a guest; the account's name with a menu (My games
// with the tables waiting for a move, the profile, the leaderboard, the account, signing out)
// once signed in. Drawn again when who is signed in, the count or the language changes.
import { h, s, clear } from "./dom.js";
import { t } from "./i18n.js";
import { me, session, signOut } from "./session.js";
import { toast } from "./ui.js";

// A head and shoulders, drawn in the header's ink (no emoji: not every device has its font).
function personIcon() {
  return s(
    "svg",
    {
      class: "account-icon",
      viewBox: "0 0 20 20",
      width: 18,
      height: 18,
      "aria-hidden": "true",
      focusable: "false",
    },
    [
      s("circle", { cx: 10, cy: 6.5, r: 3.6, fill: "currentColor" }),
      s("path", { d: "M2.5 18.5c0-4.2 3.4-7 7.5-7s7.5 2.8 7.5 7z", fill: "currentColor" }),
    ],
  );
}

function slot() {
  return document.getElementById("account-slot");
}

export function drawAccountMenu() {
  const root = slot();
  if (!root) return;
  const name = me();
  root.setAttribute("aria-label", t("account.nav"));
  if (!session().loaded) {
    clear(root);
    return;
  }
  if (!name) {
    clear(root).append(
      h("a", {
        id: "sign-in-link",
        class: "header-link",
        href: "#/signin",
        text: t("account.signIn"),
      }),
    );
    return;
  }
  const turns = session().turns ?? 0;
  const close = () => (menu.open = false);
  /**
   * @param {string} id
   * @param {string} href
   * @param {string} text
   * @param {Node | null} [extra]
   */
  const link = (id, href, text, extra) =>
    h("a", { id, href, class: "menu-item", on: { click: close } }, [text, extra ?? ""]);
  const menu = h("details", { id: "account-menu", class: "settings account-menu" }, [
    h(
      "summary",
      {
        "aria-label": turns
          ? t("account.menuTurns", { name, n: turns })
          : t("account.menu", { name }),
      },
      [
        personIcon(),
        h("span", { class: "account-name", text: name }),
        turns
          ? h("span", { class: "badge turn-count", "aria-hidden": "true", text: String(turns) })
          : "",
      ],
    ),
    h("div", { class: "settings-panel menu-panel", id: "account-panel" }, [
      link(
        "menu-my",
        "#/my",
        t("my.title"),
        turns
          ? h("span", { class: "badge turn-count", text: t("my.turnBadge", { n: turns }) })
          : null,
      ),
      link("menu-profile", `#/player/${encodeURIComponent(name)}`, t("account.profile")),
      link("menu-leaderboard", "#/leaderboard", t("board.title")),
      link("menu-account", "#/account", t("account.title")),
      h("button", {
        id: "sign-out",
        type: "button",
        class: "menu-item",
        text: t("account.signOut"),
        on: {
          click: async () => {
            close();
            try {
              await signOut();
              toast(t("account.signedOut"), "info");
              location.hash = "#/";
            } catch (err) {
              toast(/** @type {Error} */ (err).message);
            }
          },
        },
      }),
    ]),
  ]);
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary")?.focus();
    }
  });
  const hadFocus =
    root.contains(document.activeElement) && document.activeElement?.tagName === "SUMMARY";
  clear(root).append(menu);
  if (hadFocus) menu.querySelector("summary")?.focus();
}

// a click elsewhere closes the menu
document.addEventListener("click", (e) => {
  const menu = /** @type {HTMLDetailsElement | null} */ (document.getElementById("account-menu"));
  if (menu?.open && !menu.contains(/** @type {Node} */ (e.target))) menu.open = false;
});
