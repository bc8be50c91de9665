// Take-backs at the table (see takebacks.py): a "Take back my move" button with a confirmation
// for the seat that may take back now, the waiting note of a request, and the accept/decline
// prompt for the other people. A request whose answering seats this browser also holds (a
// hot-seat table) is accepted at once: the same person asked.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// env: {msg (the shown state), names, conns, ui (kept between draws: {confirming, answered})}
export function takeBackBox(env) {
  const { msg, names, conns, ui } = env;
  const tb = msg.take_back;
  if (!tb || msg.finished) return null;
  const connFor = (seat) => conns.find((c) => c.state && c.state.seat === seat);
  const request = tb.request;
  if (request) {
    const mine = request.waiting.filter((s) => connFor(s));
    if (connFor(request.seat)) {
      for (const seat of mine) {
        const key = `${request.position}:${seat}`;
        if (ui.answered.has(key)) continue;
        ui.answered.add(key);
        connFor(seat).send({ type: "takeback_answer", position: request.position, accept: true });
      }
      if (mine.length === request.waiting.length) return null;
      return h(
        "div",
        { class: "box takeback", id: "takeback", role: "status" },
        h("p", { text: t("takeback.waiting") }),
      );
    }
    if (!mine.length) return null;
    const answer = (accept) => {
      for (const seat of mine)
        connFor(seat).send({ type: "takeback_answer", position: request.position, accept });
    };
    return h(
      "div",
      {
        class: "box takeback",
        id: "takeback",
        role: "alertdialog",
        "aria-labelledby": "takeback-ask",
      },
      [
        h("p", {
          id: "takeback-ask",
          text: t("takeback.request", { name: names[request.seat] ?? "" }),
        }),
        h("div", { class: "row" }, [
          h("button", {
            id: "takeback-accept",
            class: "primary",
            text: t("takeback.accept"),
            on: { click: () => answer(true) },
          }),
          h("button", {
            id: "takeback-decline",
            text: t("takeback.decline"),
            on: { click: () => answer(false) },
          }),
        ]),
      ],
    );
  }
  const conn = tb.seat === null ? null : connFor(tb.seat);
  if (!conn) return null;
  if (ui.confirming !== msg.position) {
    return h(
      "div",
      { class: "takeback-bar", id: "takeback" },
      h("button", {
        id: "takeback-button",
        text: t("takeback.button"),
        on: { click: () => env.redraw({ confirming: msg.position, focus: "#takeback-ok" }) },
      }),
    );
  }
  const others = msg.seats.some(
    (s) => s.kind === "human" && s.seat !== tb.seat && !connFor(s.seat),
  );
  return h(
    "div",
    { class: "box takeback", id: "takeback", role: "group", "aria-labelledby": "takeback-confirm" },
    [
      h("p", { id: "takeback-confirm", text: t("takeback.ask") }),
      others ? h("p", { class: "hint", text: t("takeback.askPeople") }) : "",
      h("div", { class: "row" }, [
        h("button", {
          id: "takeback-ok",
          class: "primary",
          text: t("takeback.ok"),
          on: {
            click: () => {
              conn.send({ type: "takeback", position: conn.state.position });
              env.redraw({ confirming: null, focus: "#status" });
            },
          },
        }),
        h("button", {
          id: "takeback-keep",
          text: t("takeback.keep"),
          on: { click: () => env.redraw({ confirming: null, focus: "#takeback-button" }) },
        }),
      ]),
    ],
  );
}
