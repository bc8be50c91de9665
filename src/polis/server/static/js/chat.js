// @ts-check
// The table's chat: a log of lines (a screen reader reads new ones out: role="log") and, for
// the seats, a line to write in. Every name and text is set as text, never as HTML.
//
// The server sends the last lines in each connection's "welcome" ({read, write, lines}) and
// every new line as a "chat" message; several held seats get the same lines, kept once by id.
// Refusals come as errors whose code starts with "chat_" and are shown here, in an alert.
//
// A signed-in reader may mute the account of a seat (its lines are hidden, at every table,
// with a note saying how many) or report one of its lines to the server's operator.
import { h, clear } from "./dom.js";
import { t, language } from "./i18n.js";
import { me, people, setPerson, errorLine as errorText } from "./session.js";
import { send as sendJson, toast } from "./ui.js";
import { field, askDialog, showError as formError } from "./forms.js";

export const MAX_CHAT = 300;

/**
 * One line of the chat (wire/to_client: ChatLineJSON; a "chat" message is one with its type).
 * @typedef {{id: number, seat: number, name: string, text: string, at: string}} ChatLine
 */

/**
 * A welcome's `chat` (wire/to_client: ChatBacklog): what the connection may do, and the last
 * lines if it may read them.
 * @typedef {{read: boolean, write: boolean, lines?: ChatLine[]}} ChatBacklog
 */

/**
 * What the panel is built with.
 * @typedef {object} ChatEnv
 * @property {(text: string) => boolean} send  says a line (false: not connected)
 * @property {(seat: number) => Node} marker  the seat's marker
 * @property {(seat: number) => string | null} [accountOf]  the account bound to the seat
 * @property {string} gameId
 */

/**
 * @typedef {object} ChatPanel
 * @property {HTMLElement} element
 * @property {HTMLButtonElement} jump  the button at the top that goes to the chat
 * @property {(chat: ChatBacklog | null | undefined) => void} welcome  a connection's welcome
 * @property {(msg: ChatLine) => void} line  a new line
 * @property {(msg: {code: string, message: string}) => void} refused  an error for the chat
 * @property {() => void} render
 * @property {() => void} people  who is signed in, or the seats' accounts, changed
 */

/**
 * @param {ChatEnv} env
 * @returns {ChatPanel}
 */
export function chatPanel(env) {
  /** @type {Map<number, ChatLine>} */
  const lines = new Map(); // id -> line
  /** @type {Set<string>} */
  let muted = new Set(); // accounts whose lines are hidden
  /** @type {{read: boolean, write: boolean} | null} */
  let access = null; // once a welcome came
  let lastSent = "";
  let unread = 0;
  const title = h("h3", { id: "chat-title" });
  // quiet until the last lines said before this page came are in: only new lines are read out
  const log = h("ol", {
    id: "chat-log",
    class: "chat-log",
    role: "log",
    "aria-live": "off",
    tabindex: "0",
    "aria-labelledby": "chat-title",
  });
  const note = h("p", { id: "chat-note", class: "hint" });
  const hiddenNote = h("p", { id: "chat-hidden", class: "hint", hidden: true });
  const error = h("p", { id: "chat-error", class: "error", role: "alert", hidden: true });
  const input = h("input", {
    id: "chat-input",
    type: "text",
    maxlength: MAX_CHAT,
    autocomplete: "off",
    enterkeyhint: "send",
    "aria-describedby": "chat-error",
    on: { input: () => (error.hidden = true) },
  });
  const label = h("label", { for: "chat-input", class: "visually-hidden", id: "chat-label" });
  const button = h("button", { id: "chat-send", type: "submit" });
  const form = h("form", { class: "chat-form", id: "chat-form", on: { submit: send } }, [
    label,
    input,
    button,
  ]);
  const root = h("section", { class: "box chat", id: "chat", "aria-labelledby": "chat-title" }, [
    title,
    log,
    hiddenNote,
    note,
    error,
    form,
  ]);
  // on a phone the chat is far below the board: a button at the top goes there (with the lines
  // not seen yet); a button, not a link: the page's address is its route
  const jump = h("button", {
    type: "button",
    id: "chat-jump",
    class: "chat-jump",
    hidden: true, // until its first draw gives it its words
    on: { click: onJump },
  });

  /** @param {Event} e */
  function send(e) {
    e.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    if (!env.send(text)) {
      showError(t("error.offline"));
      return;
    }
    lastSent = text;
    input.value = "";
  }

  function onJump() {
    root.scrollIntoView({ block: "nearest" });
    (access?.write ? input : log).focus();
    unread = 0;
    drawJump();
  }

  /** @param {string} text */
  function showError(text) {
    error.textContent = text;
    error.hidden = false;
  }

  /** @param {string | null} at */
  function timeOf(at) {
    const when = new Date(at ?? "");
    if (Number.isNaN(when.getTime())) return "";
    return when.toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
  }

  /** @param {ChatLine} line */
  function item(line) {
    return h("li", { dataset: { id: line.id, seat: line.seat } }, [
      env.marker(line.seat),
      h("span", { class: "chat-name", text: line.name }),
      ": ",
      h("span", { class: "chat-text", text: line.text }),
      " ",
      h("time", { datetime: line.at, class: "muted", text: timeOf(line.at) }),
      h("span", { class: "line-actions" }),
    ]);
  }

  // Mute and Report on the lines of other accounts' seats (for a signed-in reader), and the
  // lines of muted accounts hidden.
  function applyPeople() {
    const self = me();
    let hidden = 0;
    for (const li of /** @type {HTMLCollectionOf<HTMLLIElement>} */ (log.children)) {
      const line = lines.get(Number(li.dataset.id));
      const account = line ? (env.accountOf?.(line.seat) ?? null) : null;
      const hide = !!account && muted.has(account);
      li.hidden = hide;
      if (hide) hidden++;
      const slot = /** @type {HTMLElement} */ (li.querySelector(".line-actions"));
      const want = self && account && account !== self ? account : "";
      if (slot.dataset.account === want && slot.dataset.lang === language()) continue;
      slot.dataset.account = want;
      slot.dataset.lang = language();
      clear(slot);
      if (!want || !line) continue; // (no account without its line)
      slot.append(
        h("button", {
          type: "button",
          class: "link-button mute",
          text: t("chat.mute"),
          "aria-label": t("chat.muteNamed", { name: want }),
          on: { click: () => mute(want) },
        }),
        h("button", {
          type: "button",
          class: "link-button report",
          text: t("chat.report"),
          "aria-label": t("chat.reportLine", { name: line.name }),
          on: { click: () => report(line) },
        }),
      );
    }
    hiddenNote.textContent = hidden ? t("chat.hidden", { n: hidden }) : "";
    hiddenNote.hidden = !hidden;
  }

  async function loadPeople() {
    muted = new Set(me() ? (await people()).muted : []);
    applyPeople();
  }

  /** @param {string} name */
  async function mute(name) {
    try {
      await setPerson("mute", name, true);
      muted.add(name);
      applyPeople();
      toast(t("chat.muted", { name }), "info");
      input.focus();
    } catch (err) {
      toast(errorText(err));
    }
  }

  /** @param {ChatLine} line */
  function report(line) {
    askDialog({
      id: "dialog-report",
      title: t("chat.reportTitle"),
      ok: t("chat.reportSend"),
      body: [
        h("blockquote", { class: "reported" }, [h("strong", { text: line.name }), ": ", line.text]),
        h("p", { class: "hint", text: t("chat.reportHint") }),
        field({
          id: "report-reason",
          label: t("chat.reportWhy"),
          maxlength: 300,
          autocomplete: "off",
        }),
      ],
      onOk: async (dialog, error) => {
        const input = /** @type {HTMLInputElement} */ (dialog.querySelector("#report-reason"));
        const reason = input.value.trim();
        if (!reason) {
          formError(error, t("chat.reportNeedsWhy"));
          return false;
        }
        try {
          await sendJson("/api/reports", { game_id: env.gameId, chat_id: line.id, reason });
        } catch (err) {
          formError(error, err);
          return false;
        }
        toast(t("chat.reported"), "info");
        return true;
      },
    });
  }

  // Lines in id order: one arriving out of order goes in its place.
  /**
   * @param {ChatLine} line
   * @returns {boolean} whether it was new
   */
  function insert(line) {
    if (lines.has(line.id)) return false;
    lines.set(line.id, line);
    const el = item(line);
    const items = /** @type {HTMLCollectionOf<HTMLLIElement>} */ (log.children);
    const after = [...items].find((li) => Number(li.dataset.id) > line.id);
    log.insertBefore(el, after ?? null);
    while (items.length > 200) {
      lines.delete(Number(items[0].dataset.id));
      items[0].remove();
    }
    return true;
  }

  function scrollDown() {
    requestAnimationFrame(() => (log.scrollTop = log.scrollHeight));
  }

  function seen() {
    const r = root.getBoundingClientRect();
    return !document.hidden && r.top < innerHeight && r.bottom > 0;
  }

  function drawJump() {
    clear(jump).append(t("chat.jump"));
    if (unread) jump.append(h("span", { class: "badge", text: t("chat.unread", { n: unread }) }));
    jump.hidden = !access?.read;
  }

  function render() {
    title.textContent = t("chat.title");
    label.textContent = t("chat.label");
    input.setAttribute("placeholder", t("chat.label"));
    button.textContent = t("chat.send");
    root.hidden = !access;
    if (!access) return;
    note.textContent = !access.read
      ? t("chat.private")
      : !access.write
        ? t("chat.readOnly")
        : !lines.size
          ? t("chat.empty")
          : "";
    note.hidden = !note.textContent;
    log.hidden = !access.read;
    form.hidden = !access.write;
    for (const el of log.querySelectorAll("time"))
      el.textContent = timeOf(el.getAttribute("datetime"));
    applyPeople();
    drawJump();
  }

  render();
  loadPeople();
  // lines read once the panel is in view
  new IntersectionObserver((entries) => {
    if (entries.some((en) => en.isIntersecting) && unread) {
      unread = 0;
      drawJump();
    }
  }).observe(root);

  return {
    element: root,
    jump,
    // a connection's welcome: what it may do, and the last lines
    welcome(chat) {
      if (!chat) return;
      const was = access;
      // several held seats: the widest access any of them has
      access = { read: chat.read || !!was?.read, write: chat.write || !!was?.write };
      for (const line of chat.lines ?? []) insert(line);
      render();
      scrollDown();
      setTimeout(() => log.setAttribute("aria-live", "polite"), 0);
    },
    line(msg) {
      if (!insert(msg)) return;
      const account = env.accountOf?.(msg.seat);
      if (!seen() && !(account && muted.has(account))) unread++;
      render();
      scrollDown();
    },
    // an error for the chat (code chat_*): said here, and the refused text is given back
    refused(msg) {
      const said = { chat_rate_limited: t("chat.tooFast"), chat_forbidden: t("chat.readOnly") }[
        msg.code
      ];
      showError(said ?? t("chat.invalid", { why: msg.message }));
      if (!input.value) input.value = lastSent;
    },
    render,
    // who is signed in, or the seats' accounts, changed
    people: () => loadPeople(),
  };
}
