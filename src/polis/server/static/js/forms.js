// What the account pages share: labelled fields, an error line that says in words what the
// server refused, the page shown to a guest where an account is needed, dates in the page's
// language, and a dialog asking one thing.
import { h, clear } from "./dom.js";
import { t, language } from "./i18n.js";
import { errorWords, passkeyWords } from "./session.js";

// A labelled input: {id, label, type, autocomplete, ...attributes}.
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

// The error line of a form (an alert, empty until something goes wrong).
export function errorLine(id) {
  return h("div", { id, class: "form-error", role: "alert" });
}

// Say what went wrong in the error line: the words, then the server's own as detail.
export function showError(box, err, own = {}) {
  const { text, detail } =
    typeof err === "string"
      ? { text: err, detail: "" }
      : err?.name === "PasskeyError"
        ? passkeyWords(err, own)
        : errorWords(err, own);
  clear(box).append(
    h("p", { class: "error", text }),
    detail && detail !== text ? h("p", { class: "hint", text: detail }) : "",
  );
}

export function clearError(box) {
  clear(box);
}

// A status line (role=status) for what went right.
export function doneLine(id) {
  return h("p", { id, class: "done", role: "status" });
}

// For a guest where a page needs an account: what it is for and the way to sign in.
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
export function dateOf(iso) {
  return new Date(iso && !/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? `${iso}Z` : iso);
}

// A date (and time) in the page's language: "29 Nov 2026, 14:05".
export function when(iso, withTime = true) {
  const d = dateOf(iso);
  if (Number.isNaN(d.getTime())) return "";
  const opts = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(language(), /** @type {any} */ (opts)).format(d);
}

// A modal dialog: {id, title, body (elements), ok (label), danger, onOk(dialog) -> true to close}.
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
export function pageTitle(text) {
  document.title = `${text} – polis`;
}
