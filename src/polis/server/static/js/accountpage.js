// #/account: the signed-in account's own page. Its name and profile; a new password; passkeys
// (listed, added through passkeys.js, removed); turn notifications for every seat bound to the
// account (the browser's push subscription, turnpush.js); the data kept, as a download; the
// people blocked and muted (each can be taken off); and deleting the account, which asks the
// password again and says what stays (the games, the account's seats shown as "deleted player").
import { h, clear } from "./dom.js";
import { t, language } from "./i18n.js";
import { api, send, toast, ApiError, csrfToken } from "./ui.js";
import {
  me,
  session,
  people,
  setPerson,
  refreshSession,
  errorLine as errorText,
} from "./session.js";
import {
  field,
  errorLine,
  showError,
  clearError,
  doneLine,
  signInFirst,
  askDialog,
  pageTitle,
  when,
} from "./forms.js";
import { passwordProblem, passwordRules } from "./signin.js";
import { pushSupported, subscription } from "./turnpush.js";
import { forgetSessionKeys } from "./tokens.js";

const PUSH_KEY = "polis:push:account";

// A passkey told apart from the others by the start of its id.
function passkeyName(k) {
  return `${k.name || t("passkey.unnamed")} ${String(k.id).slice(0, 8)}…`;
}

function section(id, title, parts) {
  return h("section", { class: "panel account-section", id, "aria-labelledby": `${id}-title` }, [
    h("h2", { id: `${id}-title`, text: title }),
    ...parts,
  ]);
}

// env: {root}
export function accountPage(env) {
  const { root } = env;
  let keys = null; // the passkeys listed (null: not asked yet; false: none to be had here)
  let passkeysHere = true; // this page can make passkeys (a secure context with WebAuthn)
  let known = { blocked: [], muted: [] };
  let destroyed = false;

  async function load() {
    known = await people();
    passkeysHere = (await import("./passkeys.js").catch(() => null))?.passkeysSupported() ?? false;
    try {
      const data = await api("/api/account/passkeys", { cache: "no-store" });
      keys = Array.isArray(data) ? data : (data.passkeys ?? []);
    } catch (err) {
      keys = err instanceof ApiError && err.status === 404 ? false : [];
    }
    if (!destroyed) draw();
  }

  function draw() {
    pageTitle(t("account.title"));
    const name = me();
    if (!name) {
      signInFirst(root, t("account.title"), t("account.needed"));
      return;
    }
    clear(root).append(
      h("h1", { class: "page-title", id: "account-title", text: t("account.heading", { name }) }),
      h("p", { class: "row" }, [
        h("a", {
          class: "button",
          href: `#/player/${encodeURIComponent(name)}`,
          id: "account-profile",
          text: t("account.profile"),
        }),
        h("a", { class: "button", href: "#/my", text: t("my.title") }),
      ]),
      passwordSection(),
      passkeySection(),
      pushSection(),
      peopleSection(),
      dataSection(),
    );
  }

  function passwordSection() {
    const error = errorLine("password-error");
    const done = doneLine("password-done");
    const form = h(
      "form",
      {
        id: "password-form",
        novalidate: true,
        on: {
          submit: async (e) => {
            e.preventDefault();
            const old = form.querySelector("#password-old").value;
            const fresh = form.querySelector("#password-new").value;
            const again = form.querySelector("#password-again").value;
            done.textContent = "";
            const problem =
              passwordProblem(fresh, me() ?? "") ?? (fresh !== again ? t("signup.mismatch") : null);
            if (!old) return showError(error, t("signin.fill"));
            if (problem) return showError(error, problem);
            clearError(error);
            try {
              await send("/api/account/password", { old, new: fresh });
              form.reset();
              done.textContent = t("account.passwordChanged");
            } catch (err) {
              showError(error, err, { unauthorized: t("account.wrongPassword") });
            }
          },
        },
      },
      [
        // the name, for password managers (not shown)
        h("input", {
          type: "text",
          autocomplete: "username",
          value: me(),
          hidden: true,
          readonly: true,
          "aria-hidden": "true",
          tabindex: "-1",
        }),
        field({
          id: "password-old",
          label: t("account.oldPassword"),
          type: "password",
          autocomplete: "current-password",
          maxlength: 256,
        }),
        h("div", { class: "field" }, [
          h("label", { for: "password-new", text: t("account.newPassword") }),
          h("input", {
            id: "password-new",
            type: "password",
            autocomplete: "new-password",
            maxlength: 256,
            "aria-describedby": "new-password-rules",
          }),
          passwordRules("new-password-rules"),
        ]),
        field({
          id: "password-again",
          label: t("signup.again"),
          type: "password",
          autocomplete: "new-password",
          maxlength: 256,
        }),
        error,
        done,
        h("button", {
          id: "password-submit",
          type: "submit",
          class: "primary",
          text: t("account.changePassword"),
        }),
      ],
    );
    return section("password", t("account.passwordTitle"), [
      h("p", { class: "hint", text: t("account.passwordHint") }),
      form,
    ]);
  }

  function passkeySection() {
    const error = errorLine("passkey-error");
    const parts = [h("p", { class: "hint", text: t("passkey.hint") })];
    if (keys === null) {
      parts.push(h("p", { class: "muted", text: "…" }));
    } else if (keys === false) {
      parts.push(h("p", { class: "muted", text: t("passkey.unavailable") }));
    } else {
      parts.push(
        keys.length
          ? h(
              "ul",
              { class: "plain-list", id: "passkey-list" },
              keys.map((k) =>
                h("li", { dataset: { id: k.id } }, [
                  h("span", { class: "passkey-name", text: passkeyName(k) }),
                  k.created
                    ? h("span", {
                        class: "muted",
                        text: t("passkey.added", { when: when(k.created, false) }),
                      })
                    : "",
                  h("button", {
                    type: "button",
                    class: "remove-passkey",
                    text: t("passkey.remove"),
                    "aria-label": t("passkey.removeNamed", { name: passkeyName(k) }),
                    on: {
                      click: async () => {
                        try {
                          await send("/api/account/passkeys/delete", { id: k.id });
                          keys = keys.filter((other) => other.id !== k.id);
                          draw();
                          document.getElementById("passkey-add")?.focus();
                        } catch (err) {
                          showError(error, err);
                        }
                      },
                    },
                  }),
                ]),
              ),
            )
          : h("p", { class: "muted", id: "passkey-none", text: t("passkey.none") }),
      );
      if (!passkeysHere)
        parts.push(
          h("p", { class: "muted", id: "passkey-unsupported", text: t("passkey.unsupported") }),
        );
      parts.push(
        error,
        h("button", {
          id: "passkey-add",
          type: "button",
          disabled: !passkeysHere,
          text: t("passkey.add"),
          on: {
            click: async () => {
              clearError(error);
              try {
                const passkeys = await import("./passkeys.js");
                await passkeys.addPasskey(csrfToken());
                toast(t("passkey.addedToast"), "info");
                await load();
                document.getElementById("passkey-add")?.focus();
              } catch (err) {
                showError(error, err);
              }
            },
          },
        }),
      );
    }
    return section("passkeys", t("passkey.title"), parts);
  }

  function pushSection() {
    const status = h("p", { id: "account-push-status", role: "status" });
    const on = !!localStorage.getItem(PUSH_KEY);
    const parts = [h("p", { class: "hint", text: t("account.pushHint") })];
    if (!pushSupported()) {
      parts.push(h("p", { class: "muted", text: t("push.unsupported") }));
    } else {
      parts.push(
        h("button", {
          id: "account-push",
          type: "button",
          text: on ? t("push.off") : t("push.on"),
          on: {
            click: async (e) => {
              const button = e.currentTarget;
              button.disabled = true;
              try {
                const sub = (await subscription()).toJSON();
                const body = {
                  subscription: { endpoint: sub.endpoint, keys: sub.keys },
                  lang: language(),
                };
                if (on) {
                  await send("/api/account/push", body, "DELETE");
                  localStorage.removeItem(PUSH_KEY);
                } else {
                  await send("/api/account/push", body);
                  localStorage.setItem(PUSH_KEY, sub.endpoint);
                }
                draw();
                document.getElementById("account-push")?.focus();
                document.getElementById("account-push-status").textContent = on
                  ? ""
                  : t("push.enabled");
              } catch (err) {
                button.disabled = false;
                status.textContent = t("push.failed", { why: errorText(err) });
              }
            },
          },
        }),
      );
    }
    parts.push(status);
    return section("account-push-box", t("account.pushTitle"), parts);
  }

  function personList(kind, names) {
    const id = kind === "block" ? "blocked-list" : "muted-list";
    if (!names.length)
      return h("p", {
        class: "muted",
        id,
        text: kind === "block" ? t("people.noneBlocked") : t("people.noneMuted"),
      });
    return h(
      "ul",
      { class: "plain-list", id },
      names.map((name) =>
        h("li", { dataset: { name } }, [
          h("a", { href: `#/player/${encodeURIComponent(name)}`, text: name }),
          h("button", {
            type: "button",
            class: "remove-person",
            text: kind === "block" ? t("people.unblock") : t("people.unmute"),
            "aria-label": t(kind === "block" ? "people.unblockNamed" : "people.unmuteNamed", {
              name,
            }),
            on: {
              click: async () => {
                try {
                  await setPerson(kind, name, false);
                  known = await people();
                  draw();
                  document
                    .getElementById(`${kind === "block" ? "blocked" : "muted"}-title`)
                    ?.focus();
                } catch (err) {
                  toast(errorText(err));
                }
              },
            },
          }),
        ]),
      ),
    );
  }

  function peopleSection() {
    return section("people", t("people.title"), [
      h("h3", { id: "blocked-title", tabindex: "-1", text: t("people.blocked") }),
      h("p", { class: "hint", text: t("people.blockedHint") }),
      personList("block", known.blocked),
      h("h3", { id: "muted-title", tabindex: "-1", text: t("people.muted") }),
      h("p", { class: "hint", text: t("people.mutedHint") }),
      personList("mute", known.muted),
    ]);
  }

  function dataSection() {
    return section("data", t("account.dataTitle"), [
      h("p", { class: "hint", text: t("account.exportHint") }),
      h(
        "p",
        {},
        h("a", {
          class: "button",
          id: "export",
          href: "/api/account/export",
          download: `polis-${me()}.json`,
          text: t("account.export"),
        }),
      ),
      h("p", { class: "hint", text: t("account.deleteHint") }),
      h(
        "p",
        {},
        h("button", {
          id: "delete-account",
          type: "button",
          class: "danger",
          text: t("account.delete"),
          on: { click: askDelete },
        }),
      ),
    ]);
  }

  function askDelete() {
    askDialog({
      id: "dialog-delete",
      title: t("account.deleteTitle"),
      ok: t("account.deleteOk"),
      danger: true,
      body: [
        h("p", { text: t("account.deleteAsk") }),
        h("input", {
          type: "text",
          autocomplete: "username",
          value: me(),
          hidden: true,
          readonly: true,
          "aria-hidden": "true",
          tabindex: "-1",
        }),
        field({
          id: "delete-password",
          label: t("account.password"),
          type: "password",
          autocomplete: "current-password",
          maxlength: 256,
        }),
      ],
      onOk: async (dialog, error) => {
        const password = dialog.querySelector("#delete-password").value;
        if (!password) {
          showError(error, t("signin.fill"));
          return false;
        }
        try {
          await send("/api/account/delete", { password });
        } catch (err) {
          showError(error, err, { unauthorized: t("account.wrongPassword") });
          return false;
        }
        forgetSessionKeys();
        localStorage.removeItem(PUSH_KEY);
        await refreshSession();
        toast(t("account.deleted"), "info");
        location.hash = "#/";
        return true;
      },
    });
  }

  draw();
  if (me()) load();
  return {
    render: draw,
    destroy() {
      destroyed = true;
    },
    // signed in or out while the page is shown
    session() {
      if (session().account) load();
      else draw();
    },
  };
}
