// @ts-check
// #/signin: sign in (a name and a password, or a passkey) and sign up (a name and a password,
// with the rules shown before anyone types). Accounts are optional: the page says so. What the
// server refuses is said in words (session.js errorWords), beside the form it concerns.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { me, signIn, refreshSession } from "./session.js";
import { field, errorLine, showError, clearError, pageTitle, typedIn } from "./forms.js";
import { toast } from "./ui.js";

// The server's rules (accounts/passwords.py), checked here first to say them in words.
export const NAME = /^[\p{L}][\p{L}\p{M}\p{N}_-]{2,19}$/u;
export const MIN_PASSWORD = 10;

// Why `password` cannot be `name`'s (null: the server will judge; it also refuses common ones).
/**
 * @param {string} password
 * @param {string} [name]
 * @returns {string | null}
 */
export function passwordProblem(password, name) {
  if (password.length < MIN_PASSWORD) return t("signup.rule.length", { n: MIN_PASSWORD });
  const folded = password.toLocaleLowerCase();
  if (new Set(folded).size < 4) return t("signup.rule.varied");
  if (name && folded.includes(name.toLocaleLowerCase())) return t("signup.rule.name");
  return null;
}

// The rules, as a list the password field points at.
/** @param {string} id */
export function passwordRules(id) {
  return h("ul", { class: "rules", id }, [
    h("li", { text: t("signup.rule.length", { n: MIN_PASSWORD }) }),
    h("li", { text: t("signup.rule.common") }),
    h("li", { text: t("signup.rule.varied") }),
    h("li", { text: t("signup.rule.name") }),
  ]);
}

// Where to go once signed in: the page that sent the guest here (signInFirst), else My games.
function next() {
  const to = sessionStorage.getItem("polis:next");
  sessionStorage.removeItem("polis:next");
  return to && to.startsWith("#/") && !to.startsWith("#/signin") ? to : "#/my";
}

/**
 * @param {import("./forms.js").PageEnv} env
 * @returns {import("./forms.js").Page}
 */
export function signInPage(env) {
  const { root } = env;
  const typed = { name: "", newName: "" }; // kept through a language switch

  function draw() {
    pageTitle(t("account.signIn"));
    if (me()) {
      clear(root).append(
        h(
          "section",
          { class: "panel account-page", id: "signed-in", "aria-labelledby": "signed-in-title" },
          [
            h("h1", { id: "signed-in-title", text: t("signin.already", { name: me() }) }),
            h("p", { class: "row" }, [
              h("a", { class: "button primary", href: "#/my", text: t("my.title") }),
              h("a", { class: "button", href: "#/account", text: t("account.title") }),
            ]),
          ],
        ),
      );
      return;
    }
    clear(root).append(
      h("h1", { class: "visually-hidden", text: t("account.signIn") }),
      h("p", { class: "panel intro", id: "accounts-intro", text: t("signin.intro") }),
      h("div", { class: "account-forms" }, [signInForm(), signUpForm()]),
    );
  }

  function signInForm() {
    const error = errorLine("signin-error");
    const button = h("button", {
      id: "signin-submit",
      type: "submit",
      class: "primary",
      text: t("account.signIn"),
    });
    const form = h(
      "form",
      {
        id: "signin-form",
        class: "panel account-form",
        "aria-labelledby": "signin-title",
        novalidate: true,
        on: {
          submit: async (e) => {
            e.preventDefault();
            const name = typedIn(form, "signin-name").trim();
            const password = typedIn(form, "signin-password");
            if (!name || !password) {
              showError(error, t("signin.fill"));
              return;
            }
            button.disabled = true;
            clearError(error);
            try {
              await signIn("/api/account/login", { name, password });
              toast(t("signin.welcome", { name: me() ?? name }), "info");
              location.hash = next();
            } catch (err) {
              showError(error, err, { unauthorized: t("signin.wrong") });
              button.disabled = false;
            }
          },
        },
      },
      [
        h("h2", { id: "signin-title", text: t("account.signIn") }),
        field({
          id: "signin-name",
          label: t("account.name"),
          autocomplete: "username",
          maxlength: 40,
          required: true,
          value: typed.name,
          on: { input: (e) => (typed.name = e.target.value) },
        }),
        field({
          id: "signin-password",
          label: t("account.password"),
          type: "password",
          autocomplete: "current-password",
          maxlength: 256,
          required: true,
        }),
        error,
        h("div", { class: "row" }, [
          button,
          h("button", {
            id: "passkey-signin",
            type: "button",
            text: t("signin.passkey"),
            on: { click: () => passkeySignIn(form, error) },
          }),
        ]),
      ],
    );
    return form;
  }

  // (passkeys.js: the browser's dialogue, then a new session as with a password)
  /**
   * @param {HTMLFormElement} form
   * @param {HTMLElement} error
   */
  async function passkeySignIn(form, error) {
    clearError(error);
    const name = typedIn(form, "signin-name").trim();
    try {
      const passkeys = await import("./passkeys.js");
      await passkeys.signInWithPasskey(name ? { name } : {});
      await refreshSession();
      if (!me()) throw new Error(t("signin.passkeyFailed"));
      toast(t("signin.welcome", { name: me() }), "info");
      location.hash = next();
    } catch (err) {
      showError(error, err, {
        unauthorized: t("signin.passkeyFailed"),
        not_found: t("signin.passkeyFailed"),
      });
    }
  }

  function signUpForm() {
    const error = errorLine("signup-error");
    const button = h("button", {
      id: "signup-submit",
      type: "submit",
      class: "primary",
      text: t("signup.submit"),
    });
    const form = h(
      "form",
      {
        id: "signup-form",
        class: "panel account-form",
        "aria-labelledby": "signup-title",
        novalidate: true,
        on: {
          submit: async (e) => {
            e.preventDefault();
            const name = typedIn(form, "signup-name").trim();
            const password = typedIn(form, "signup-password");
            const again = typedIn(form, "signup-again");
            const problem = !NAME.test(name)
              ? t("signup.rule.nameForm")
              : (passwordProblem(password, name) ??
                (password !== again ? t("signup.mismatch") : null));
            if (problem) {
              showError(error, problem);
              return;
            }
            button.disabled = true;
            clearError(error);
            try {
              await signIn("/api/account/signup", { name, password });
              toast(t("signup.welcome", { name: me() ?? name }), "info");
              location.hash = next();
            } catch (err) {
              showError(error, err, { name_taken: t("signup.taken", { name }) });
              button.disabled = false;
            }
          },
        },
      },
      [
        h("h2", { id: "signup-title", text: t("signup.title") }),
        field({
          id: "signup-name",
          label: t("account.name"),
          autocomplete: "username",
          maxlength: 20,
          required: true,
          hint: t("signup.rule.nameForm"),
          value: typed.newName,
          on: { input: (e) => (typed.newName = e.target.value) },
        }),
        h("div", { class: "field" }, [
          h("label", { for: "signup-password", text: t("signup.password") }),
          h("input", {
            id: "signup-password",
            name: "signup-password",
            type: "password",
            autocomplete: "new-password",
            maxlength: 256,
            required: true,
            "aria-describedby": "password-rules",
          }),
          h("p", { class: "hint", id: "password-rules-title", text: t("signup.rules") }),
          passwordRules("password-rules"),
        ]),
        field({
          id: "signup-again",
          label: t("signup.again"),
          type: "password",
          autocomplete: "new-password",
          maxlength: 256,
          required: true,
        }),
        h("p", { class: "hint", text: t("signup.kept") }),
        error,
        h("div", { class: "row" }, button),
      ],
    );
    return form;
  }

  draw();
  return { render: draw, destroy() {} };
}
