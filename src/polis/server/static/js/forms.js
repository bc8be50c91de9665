// @ts-check
// What the account pages share: labelled fields, an error line that says in words what the
// server refused, the page shown to a guest where an account is needed, dates in the page's
// language, and a dialog asking one thing.
import { h, clear } from "./dom.js";
import { t, language } from "./i18n.js";
import { errorWords, passkeyWords } from "./session.js";

/** @typedef {import("./session.js").OwnWords} OwnWords */

/**
 * What app.js hands every account page: where to draw, the games served, and the address's
 * arguments ("" when it has none): #/player/{name}, #/challenge/{to},
 * #/leaderboard/{game}/{mode}.
 * @typedef {object} PageEnv
 * @property {HTMLElement} root
 * @property {import("./ui.js").Meta} meta
 * @property {Record<string, import("./ui.js").GameClient>} clients
 * @property {string[]} names  the playable games
 * @property {(game: string) => string} gameTitle
 * @property {(game: string, mode: string) => string} modeName
 * @property {string} name
 * @property {string} to
 * @property {string} game
 * @property {string} mode
 */

/**
 * An account page as app.js drives it: drawn again (a new language), left, and told when who
 * is signed in changes.
 * @typedef {{render: () => void, destroy: () => void, session?: () => void}} Page
 */

/**
 * A labelled input: its id (also its name), label, a hint under it, and the input's attributes.
 * @typedef {{id: string, label: string, hint?: string} & import("./dom.js").Attrs} FieldSpec
 */

/**
 * A modal dialog asking one thing: `body` (elements) above the error line, `ok` the label of
 * its button (`danger`: one that destroys); onOk(dialog, error line) answers true to close.
 * @typedef {{
 *   id: string,
 *   title: string,
 *   body: Node | Node[],
 *   ok: string,
 *   danger?: boolean,
 *   onOk: (dialog: HTMLDialogElement, error: HTMLElement) => boolean | Promise<boolean>,
 * }} Ask
 */

// A labelled input: {id, label, type, autocomplete, ...attributes}.
/** @param {FieldSpec} spec */
export function field({ id, label, hint, ...attrs }) {
  const input = h("input", {
    id,
    name: id,
    ...attrs,
    "aria-describedby": hint ? `${id}-hint` : attrs["aria-describedby"],
  });
  return h("div", { class: "field" }, [
    h("label", { for: id, text: label }),
    input,
    hint ? h("p", { class: "hint", id: `${id}-hint`, text: hint }) : "",
  ]);
}

// The text typed in the input `id` of a form (or dialog).
/**
 * @param {ParentNode} form
 * @param {string} id
 */
export function typedIn(form, id) {
  return /** @type {HTMLInputElement} */ (form.querySelector(`#${id}`)).value;
}

// The error line of a form (an alert, empty until something goes wrong).
/** @param {string} id */
export function errorLine(id) {
  return h("div", { id, class: "form-error", role: "alert" });
}

// Say what went wrong in the error line: the words, then the server's own as detail.
/**
 * @param {HTMLElement} box
 * @param {unknown} err a message, or what was thrown
 * @param {OwnWords} [own]
 */
export function showError(box, err, own = {}) {
  const { text, detail } =
    typeof err === "string"
      ? { text: err, detail: "" }
      : err instanceof Error && err.name === "PasskeyError"
        ? passkeyWords(err, own)
        : errorWords(err, own);
  clear(box).append(
    h("p", { class: "error", text }),
    detail && detail !== text ? h("p", { class: "hint", text: detail }) : "",
  );
}

/** @param {HTMLElement} box */
export function clearError(box) {
  clear(box);
}

// A status line (role=status) for what went right.
/** @param {string} id */
export function doneLine(id) {
  return h("p", { id, class: "done", role: "status" });
}

// For a guest where a page needs an account: what it is for and the way to sign in.
/**
 * @param {HTMLElement} root
 * @param {string} title
 * @param {string} text
 */
export function signInFirst(root, title, text) {
  clear(root).append(
    h(
      "section",
      {
        class: "panel account-page",
        id: "sign-in-first",
        "aria-labelledby": "sign-in-first-title",
      },
      [
        h("h1", { id: "sign-in-first-title", text: title }),
        h("p", { text }),
        h(
          "p",
          {},
          h("a", {
            class: "button primary",
            id: "go-sign-in",
            href: "#/signin",
            text: t("account.signIn"),
            on: { click: () => sessionStorage.setItem("polis:next", location.hash) },
          }),
        ),
      ],
    ),
  );
}

// The server's times are UTC: one written without its zone is read as UTC.
/** @param {string} iso */
export function dateOf(iso) {
  return new Date(iso && !/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? `${iso}Z` : iso);
}

// A date (and time) in the page's language: "29 Nov 2026, 14:05".
/**
 * @param {string | null | undefined} iso
 * @param {boolean} [withTime]
 */
export function when(iso, withTime = true) {
  if (!iso) return "";
  const d = dateOf(iso);
  if (Number.isNaN(d.getTime())) return "";
  /** @type {Intl.DateTimeFormatOptions} */
  const opts = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(language(), opts).format(d);
}

// A modal dialog: {id, title, body (elements), ok (label), danger, onOk(dialog) -> true to close}.
/**
 * @param {Ask} ask
 * @returns {HTMLDialogElement}
 */
export function askDialog({ id, title, body, ok, danger = false, onOk }) {
  document.getElementById(id)?.remove();
  const error = errorLine(`${id}-error`);
  const okButton = h("button", {
    id: `${id}-ok`,
    type: "submit",
    class: danger ? "primary danger" : "primary",
    text: ok,
  });
  const form = h(
    "form",
    {
      method: "dialog",
      on: {
        submit: async (e) => {
          e.preventDefault();
          okButton.disabled = true;
          try {
            if (await onOk(dialog, error)) dialog.close();
          } finally {
            okButton.disabled = false;
          }
        },
      },
    },
    [
      ...[body].flat(),
      error,
      h("div", { class: "row" }, [
        okButton,
        h("button", {
          id: `${id}-cancel`,
          type: "button",
          text: t("ui.cancel"),
          on: { click: () => dialog.close() },
        }),
      ]),
    ],
  );
  const dialog = h("dialog", { id, "aria-labelledby": `${id}-title` }, [
    h("h2", { id: `${id}-title`, text: title }),
    form,
  ]);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

// The page's title in the tab.
/** @param {string} text */
export function pageTitle(text) {
  document.title = `${text} – polis`;
}
