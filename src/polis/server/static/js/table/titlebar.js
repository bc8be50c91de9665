// @ts-check
// The table's title line: the game and its mode, how far it has gone (and "Rated"), and the
// tools: the rules, the legend, leaving the game.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { resignButton } from "../seatclock.js";
import { component } from "./changed.js";

/**
 * @typedef {{
 *   lang: string,
 *   title: string,
 *   progress: string,
 *   rated: boolean,
 *   rules: boolean,
 *   legend: boolean,
 *   standing: number[],
 *   leave: boolean,
 *   level: string,
 *   leaveFinal: boolean,
 * }} TitleProps
 */

/**
 * The title line's props. `standing`: the seats held that a person plays (they may leave);
 * leaving is offered while the game goes on and no replay is shown.
 * @param {{title: string, progress: string, rated: boolean, rules: boolean, legend: boolean,
 *   lang: string, held: number[], seats: import("../seatclock.js").Seat[], finished: boolean,
 *   replaying: boolean, tableRules?: {stand_in?: string, leave_final?: boolean}}} s
 * @returns {TitleProps}
 */
export function titleProps(s) {
  const standing = s.held.filter((seat) => !s.seats[seat]?.stand_in);
  return {
    lang: s.lang,
    title: s.title,
    progress: s.progress,
    rated: s.rated,
    rules: s.rules,
    legend: s.legend,
    standing,
    leave: standing.length > 0 && !s.finished && !s.replaying,
    level: s.tableRules?.stand_in ?? "medium",
    leaveFinal: !!s.tableRules?.leave_final,
  };
}

/**
 * @param {{title: HTMLElement, progress: HTMLElement, tools: HTMLElement}} el
 * @param {{rules: () => void, legend: () => void, resign: (seats: number[]) => void}} act
 * @returns {import("./changed.js").Component<TitleProps>}
 */
export function titleLine(el, act) {
  return component((p) => {
    el.title.textContent = p.title;
    el.progress.textContent = p.progress;
    if (p.rated)
      el.progress.append(
        h("span", {
          class: "badge rated",
          id: "rated-badge",
          title: t("rated.why"),
          text: t("rated.badge"),
        }),
      );
    clear(el.tools);
    if (p.rules)
      el.tools.append(
        h("button", { id: "rules-button", text: t("table.rules"), on: { click: act.rules } }),
      );
    if (p.legend)
      el.tools.append(
        h("button", { id: "legend-button", text: t("table.legend"), on: { click: act.legend } }),
      );
    if (p.leave) el.tools.append(resignButton(p.level, () => act.resign(p.standing), p.leaveFinal));
  });
}
