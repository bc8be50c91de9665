// @ts-check
// #/account: the signed-in account's own page. Its name and profile; a new password; passkeys
// (listed, added through passkeys.js, removed); turn notifications for every seat bound to the
// account (the browser's push subscription, turnpush.js); the data kept, as a download; the
// people blocked and muted (each can be taken off); the bot account (making one, its API tokens
// and the commands that connect a program); and deleting the account, which asks the password
// again and says what stays (the games, the account's seats shown as "deleted player").
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
  typedIn,
} from "./forms.js";
import { passwordProblem, passwordRules } from "./signin.js";
import { pushSupported, subscription } from "./turnpush.js";
import { forgetSessionKeys } from "./tokens.js";

/** @typedef {import("./passkeys.js").PasskeyInfo} PasskeyInfo */

/**
 * One of a bot account's API tokens (wire/bot.py's BotTokenJSON): `created` ISO 8601, the
 * others seconds since the epoch (null: never used, still working).
 * @typedef {{
 *   id: string,
 *   label: string,
 *   scope: string,
 *   created: string,
 *   last_used: number | null,
 *   revoked: number | null,
 * }} BotToken
 */

/**
 * A token just made (POST /api/account/tokens, wire/bot.py's BotTokenMade): its secret is
 * shown this once.
 * @typedef {{id: string, label: string, token: string}} FreshToken
 */

/**
 * A dialog of the bot section (botDialog): as askDialog's, but onOk(error line) answers false
 * to stay open, or what to do once the dialog has closed.
 * @typedef {Omit<import("./forms.js").Ask, "onOk"> & {
 *   onOk: (error: HTMLElement) => Promise<false | (() => void)>,
 * }} BotAsk
 */

const PUSH_KEY = "polis:push:account";

// A passkey told apart from the others by the start of its id (the server keeps no name).
/** @param {PasskeyInfo} k */
function passkeyName(k) {
  return `${t("passkey.unnamed")} ${String(k.id).slice(0, 8)}…`;
}

/**
 * @param {string} id
 * @param {string} title
 * @param {import("./dom.js").Child[]} parts
 */
function section(id, title, parts) {
  return h("section", { class: "panel account-section", id, "aria-labelledby": `${id}-title` }, [
    h("h2", { id: `${id}-title`, text: title }),
    ...parts,
  ]);
}

// The account's name in a hidden field beside a password field, for password managers.
function hiddenName() {
  return h("input", {
    type: "text",
    autocomplete: "username",
    value: me(),
    hidden: true,
    readonly: true,
    "aria-hidden": "true",
    tabindex: "-1",
  });
}

/**
 * @param {import("./forms.js").PageEnv} env
 * @returns {import("./forms.js").Page}
 */
export function accountPage(env) {
  const { root } = env;
  // the passkeys listed (null: not asked yet; false: none to be had here)
  /** @type {PasskeyInfo[] | false | null} */
  let keys = null;
  let passkeysHere = true; // this page can make passkeys (a secure context with WebAuthn)
  /** @type {import("./session.js").People} */
  let known = { blocked: [], muted: [] };
  /** @type {BotToken[] | null} */
  let tokens = null; // a bot account's API tokens (null: not asked yet)
  /** @type {FreshToken | null} */
  let fresh = null; // the token just made: its secret is shown this once
  /** @type {unknown} */
  let refusal = null; // why the server would not make this a bot account (kept over redraws)
  let destroyed = false;

  async function load() {
    known = await people();
    passkeysHere = (await import("./passkeys.js").catch(() => null))?.passkeysSupported() ?? false;
    try {
      /** @type {{passkeys?: PasskeyInfo[]} | PasskeyInfo[]} */
      const data = await api("/api/account/passkeys", { cache: "no-store" });
      keys = Array.isArray(data) ? data : (data.passkeys ?? []);
    } catch (err) {
      keys = err instanceof ApiError && err.status === 404 ? false : [];
    }
    await loadTokens();
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
      botSection(),
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
            const old = typedIn(form, "password-old");
            const fresh = typedIn(form, "password-new");
            const again = typedIn(form, "password-again");
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
        hiddenName(),
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
    /** @type {HTMLElement[]} */
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
                          keys = (keys || []).filter((other) => other.id !== k.id);
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
    /** @type {HTMLElement[]} */
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
                const subscribed = await subscription();
                const sub = subscribed.toJSON();
                const body = {
                  subscription: { endpoint: sub.endpoint, keys: sub.keys },
                  lang: language(),
                };
                if (on) {
                  await send("/api/account/push", body, "DELETE");
                  localStorage.removeItem(PUSH_KEY);
                } else {
                  await send("/api/account/push", body);
                  localStorage.setItem(PUSH_KEY, subscribed.endpoint);
                }
                draw();
                document.getElementById("account-push")?.focus();
                const shown = document.getElementById("account-push-status");
                if (shown) shown.textContent = on ? "" : t("push.enabled");
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

  /**
   * @param {"block" | "mute"} kind
   * @param {string[]} names
   */
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

  // -- the bot account: made from an account that has played no game; its API tokens -------------
  const isBot = () => !!session().account?.bot;

  async function loadTokens() {
    if (!isBot()) {
      tokens = null;
      return;
    }
    try {
      /** @type {{tokens?: BotToken[]}} */
      const data = await api("/api/account/tokens", { cache: "no-store" });
      tokens = data.tokens ?? [];
    } catch {
      tokens = tokens ?? [];
    }
  }

  // The server's times: ISO text (created) or seconds since the epoch (last used, revoked).
  /** @param {string | number | null} x */
  const moment = (x) => (typeof x === "number" ? new Date(x * 1000).toISOString() : x);

  function botSection() {
    if (!isBot()) {
      const error = errorLine("bot-error");
      if (refusal) showError(error, refusal, { forbidden: t("bot.refused") });
      return section("bot", t("bot.title"), [
        h("p", { class: "hint", id: "bot-offer", text: t("bot.offer") }),
        error,
        h("button", {
          id: "make-bot",
          type: "button",
          "aria-describedby": "bot-offer",
          text: t("bot.make"),
          on: { click: askMakeBot },
        }),
      ]);
    }
    return section("bot", t("bot.title"), [
      h("p", { id: "bot-is", text: t("bot.is") }),
      h("h3", { id: "tokens-title", tabindex: "-1", text: t("bot.tokens") }),
      tokenList(),
      tokenForm(),
      fresh ? freshToken(fresh) : "",
      h("h3", { id: "bot-connect-title", text: t("bot.connect") }),
      h("p", { class: "hint", id: "bot-connect-hint", text: t("bot.connectHint") }),
      h(
        "pre",
        { class: "bot-commands", id: "bot-commands", "aria-labelledby": "bot-connect-title" },
        [h("code", { text: commands() })],
      ),
      copyButton("bot-commands-copy", t("bot.copyCommands"), commands, () =>
        document.getElementById("bot-commands"),
      ),
      h("p", { class: "done", id: "bot-commands-copy-status", role: "status" }),
    ]);
  }

  // The three commands that connect a program (the README's words, with this server's address).
  function commands() {
    return [
      "pip install 'polis-boardgames[client]'",
      `export POLIS_BOT_TOKEN=${fresh?.token ?? "polis_bot_..."}`,
      `polis bot connect --server ${location.origin} --agent easy`,
    ].join("\n");
  }

  // A dialog of the bot section whose onOk(error) answers false to stay open, or what to do once
  // it has closed (the page under a modal dialog is inert: it takes no focus, and a screen
  // reader does not read it while the dialog is open).
  /** @param {BotAsk} options */
  function botDialog(options) {
    /** @type {(() => void) | null} */
    let then = null;
    const dialog = askDialog({
      ...options,
      onOk: async (_shown, error) => {
        const done = await options.onOk(error);
        if (done) then = done;
        return !!done;
      },
    });
    dialog.addEventListener("close", () => then?.());
  }

  /** @param {string} id */
  const focusOn = (id) => () => document.getElementById(id)?.focus();

  function askMakeBot() {
    botDialog({
      id: "dialog-bot",
      title: t("bot.makeTitle"),
      ok: t("bot.makeOk"),
      body: h("p", { text: t("bot.makeAsk", { name: me() }) }),
      onOk: async () => {
        try {
          await send("/api/account/bot", {});
        } catch (err) {
          // after a first game the server refuses: its words stay under the button
          refusal = err;
          return () => {
            if (!destroyed) draw();
            focusOn("make-bot")();
          };
        }
        refusal = null;
        await refreshSession();
        await loadTokens();
        if (!destroyed) draw();
        toast(t("bot.made"), "info");
        return focusOn("token-label");
      },
    });
  }

  function tokenList() {
    if (tokens === null) return h("p", { class: "muted", text: "…" });
    if (!tokens.length) return h("p", { class: "muted", id: "token-none", text: t("bot.none") });
    return h(
      "ul",
      { class: "plain-list", id: "token-list", "aria-labelledby": "tokens-title" },
      tokens.map((k) =>
        h("li", { class: "token", dataset: { id: k.id, revoked: k.revoked ? "yes" : "no" } }, [
          h("div", { class: "token-info" }, [
            h("strong", { class: "token-label", text: k.label }),
            h("span", {
              class: "muted",
              text: t("bot.created", { when: when(moment(k.created)) }),
            }),
            h("span", {
              class: "muted token-used",
              text: k.last_used
                ? t("bot.lastUsed", { when: when(moment(k.last_used)) })
                : t("bot.neverUsed"),
            }),
            k.revoked
              ? h("span", {
                  class: "badge token-revoked",
                  text: t("bot.revoked", { when: when(moment(k.revoked)) }),
                })
              : "",
          ]),
          k.revoked
            ? ""
            : h("button", {
                type: "button",
                class: "revoke-token danger",
                text: t("bot.revoke"),
                "aria-label": t("bot.revokeNamed", { label: k.label }),
                on: { click: () => askRevoke(k) },
              }),
        ]),
      ),
    );
  }

  /** @param {BotToken} k */
  function askRevoke(k) {
    botDialog({
      id: "dialog-revoke",
      title: t("bot.revokeTitle", { label: k.label }),
      ok: t("bot.revoke"),
      danger: true,
      body: h("p", { text: t("bot.revokeAsk") }),
      onOk: async (error) => {
        try {
          await send(`/api/account/tokens/${encodeURIComponent(k.id)}/revoke`, {});
        } catch (err) {
          showError(error, err);
          return false;
        }
        if (fresh?.id === k.id) fresh = null;
        await loadTokens();
        if (!destroyed) draw();
        toast(t("bot.revokedToast", { label: k.label }), "info");
        return focusOn("tokens-title");
      },
    });
  }

  function tokenForm() {
    const error = errorLine("token-error");
    const button = h("button", { id: "token-create", type: "submit", text: t("bot.newToken") });
    const form = h(
      "form",
      {
        id: "token-form",
        novalidate: true,
        on: {
          submit: async (e) => {
            e.preventDefault();
            const label = typedIn(form, "token-label").trim();
            if (!label) return showError(error, t("bot.needLabel"));
            clearError(error);
            button.disabled = true;
            try {
              /** @type {FreshToken} */
              const made = await send("/api/account/tokens", { label });
              fresh = { id: made.id, label: made.label, token: made.token };
            } catch (err) {
              button.disabled = false;
              showError(error, err, { rate_limited: t("bot.tooMany") });
              return;
            }
            await loadTokens();
            if (destroyed) return;
            draw();
            document.getElementById("token-secret")?.focus();
          },
        },
      },
      [
        field({
          id: "token-label",
          label: t("bot.label"),
          hint: t("bot.labelHint"),
          maxlength: 40,
          autocomplete: "off",
        }),
        error,
        button,
      ],
    );
    return form;
  }

  // The token just made: shown this once, with a way to copy it.
  /** @param {FreshToken} made */
  function freshToken(made) {
    const input = h("input", {
      id: "token-secret",
      readonly: true,
      value: made.token,
      spellcheck: false,
      autocomplete: "off",
      "aria-describedby": "token-once",
      on: { focus: (e) => e.target.select() },
    });
    return h(
      "div",
      { class: "token-new", id: "token-new", role: "group", "aria-labelledby": "token-new-title" },
      [
        h("p", { id: "token-new-title" }, [
          h("strong", { text: t("bot.freshTitle", { label: made.label }) }),
        ]),
        h("p", { class: "token-once", id: "token-once", text: t("bot.once") }),
        h("div", { class: "field" }, [
          h("label", { for: "token-secret", text: t("bot.secret") }),
          h("div", { class: "invite" }, [
            input,
            copyButton(
              "token-copy",
              t("lobby.copy"),
              () => fresh?.token ?? input.value,
              () => input,
            ),
          ]),
        ]),
        h("p", { class: "done", id: "token-copy-status", role: "status" }),
        h("button", {
          id: "token-hide",
          type: "button",
          text: t("bot.hide"),
          on: {
            click: () => {
              fresh = null;
              draw();
              focusOn("tokens-title")();
            },
          },
        }),
      ],
    );
  }

  // A Copy button (id) whose status line (id-status, role=status) says whether it copied; where
  // the browser will not write the clipboard, the text is selected for the person to copy.
  /**
   * @param {string} id
   * @param {string} label
   * @param {() => string} text
   * @param {() => HTMLElement | null} target
   */
  function copyButton(id, label, text, target) {
    return h("button", {
      id,
      type: "button",
      class: "copy",
      text: label,
      on: {
        click: async () => {
          const status = document.getElementById(`${id}-status`);
          let done = false;
          try {
            await navigator.clipboard.writeText(text());
            done = true;
          } catch {
            selectAll(target());
          }
          if (status) status.textContent = done ? t("bot.copied") : t("lobby.copyManual");
        },
      },
    });
  }

  /** @param {HTMLElement | null} el */
  function selectAll(el) {
    if (!el) return;
    el.focus();
    if (el instanceof HTMLInputElement) {
      el.select();
      return;
    }
    const range = document.createRange();
    range.selectNodeContents(el);
    const chosen = window.getSelection();
    chosen?.removeAllRanges();
    chosen?.addRange(range);
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
        hiddenName(),
        field({
          id: "delete-password",
          label: t("account.password"),
          type: "password",
          autocomplete: "current-password",
          maxlength: 256,
        }),
      ],
      onOk: async (dialog, error) => {
        const password = typedIn(dialog, "delete-password");
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
      // another account's token or refusal is never shown to the next
      fresh = null;
      refusal = null;
      tokens = null;
      if (session().account) load();
      else draw();
    },
  };
}
