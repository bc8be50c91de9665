// Hints at the table (see hints.py): every seat sees whether the table allows them; the person
// whose turn it is may press "Suggest a move" and reads the move with why in words. The server
// answers once per position (asking again costs nothing), worked out from this seat's view.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, toast } from "./ui.js";

const signed = (n, digits = 0) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(digits)}`;

// The reason of a hint {key, params} in the chosen language.
export function hintText(reason) {
  const p = { ...reason.params };
  if ("gainWins" in p) p.gainWins = signed(p.gainWins);
  if ("gainPoints" in p) p.gainPoints = signed(p.gainPoints, 1);
  return t(reason.key, p);
}

// The table's setting, for the lobby: possible (and on by default) only where no other person
// sits, i.e. one person against bots or every person's seat on this device (hints.py).
export function hintsChoice(form, alone) {
  return h("div", { class: "row" }, [
    h("label", { class: "inline check" }, [
      h("input", {
        type: "checkbox",
        id: "hints",
        checked: alone && (form.hints ?? true),
        disabled: !alone,
        "aria-describedby": "hints-alone",
        on: { change: (e) => (form.hints = e.target.checked) },
      }),
      t("lobby.hints"),
    ]),
    h("p", { class: "hint", id: "hints-alone", hidden: alone, text: t("lobby.hintsAlone") }),
  ]);
}

// env: {gameId, msg (the shown state), conn (its connection), myTurn, replaying,
//       ui (kept between draws: {answers: {"position:seat": answer}, asking}), redraw(focus)}
export function hintBox(env) {
  const { msg, conn, ui } = env;
  if (msg.finished || env.replaying || msg.hints === undefined) return null;
  const on = !!msg.hints;
  const state = h("span", {
    class: `badge hints-state ${on ? "on" : "off"}`,
    id: "hints-state",
    title: t(on ? "hint.onHelp" : "hint.offHelp"),
    text: t(on ? "hint.on" : "hint.off"),
  });
  if (!on || !env.myTurn || !conn?.token) return h("div", { class: "hint-bar", id: "hint" }, state);
  const key = `${msg.position}:${msg.seat}`;
  const answer = ui.answers[key];
  const parts = [state];
  if (answer) {
    parts.push(
      h("p", { class: "hint-answer", id: "hint-answer", role: "status", tabindex: "-1" }, [
        h("strong", { text: `${t("hint.title")}: ` }),
        hintText(answer.reason),
      ]),
    );
  } else if (ui.asking === key) {
    parts.push(
      h("p", {
        class: "hint-answer muted",
        id: "hint-answer",
        role: "status",
        "aria-busy": "true",
        text: t("hint.working"),
      }),
    );
  } else {
    parts.push(
      h("button", {
        id: "hint-button",
        text: t("hint.button"),
        on: { click: () => ask(env, key) },
      }),
    );
  }
  return h("div", { class: "hint-bar", id: "hint" }, parts);
}

async function ask(env, key) {
  const { ui, conn, msg } = env;
  ui.asking = key;
  env.redraw("#hint-answer");
  try {
    ui.answers[key] = await api(`/api/games/${encodeURIComponent(env.gameId)}/hint`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: conn.token, position: msg.position }),
    });
  } catch (err) {
    toast(`${t("hint.failed")} ${err.message}`);
  } finally {
    ui.asking = null;
  }
  env.redraw(ui.answers[key] ? "#hint-answer" : "#hint-button");
}
