// A player's page without a browser (static/js/profile.js): the rating axis's round steps and
// the history chart drawn into a stand-in of the DOM. Run by tests/cli/test_wording.py (node
// --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import "./pagestub.mjs";

process.env.TZ = "UTC";

// the little of the DOM that dom.js's s() uses: elements with attributes and children
class FakeNode {}
class FakeElement extends FakeNode {
  constructor(tag) {
    super();
    this.tag = tag;
    this.attrs = {};
    this.children = [];
  }
  setAttribute(name, value) {
    this.attrs[name] = value;
  }
  num(name) {
    return Number(this.attrs[name]);
  }
  append(...nodes) {
    this.children.push(...nodes);
  }
  addEventListener() {}
  get text() {
    return this.children.map((c) => (c instanceof FakeElement ? c.text : c.data)).join("");
  }
  all(tag) {
    return this.children
      .filter((c) => c instanceof FakeElement)
      .flatMap((c) => [...(c.tag === tag ? [c] : []), ...c.all(tag)]);
  }
}
globalThis.Node = FakeNode;
globalThis.document = {
  documentElement: {},
  querySelectorAll: () => [],
  addEventListener: () => {},
  createElementNS: (_ns, tag) => new FakeElement(tag),
  createTextNode: (data) => Object.assign(new FakeNode(), { data }),
};

const { setLanguage } = await import("/static/js/i18n.js");
const { ticks, ratingChart } = await import("/static/js/profile.js");
await setLanguage("en");

test("the rating axis: the smallest round step giving at most 5 lines, all inside", () => {
  assert.deepEqual(ticks(981, 1019), [990, 1000, 1010]);
  assert.deepEqual(ticks(950, 1060), [950, 975, 1000, 1025, 1050]);
  assert.deepEqual(ticks(951, 1060), [975, 1000, 1025, 1050]);
  assert.deepEqual(ticks(800, 1210), [800, 900, 1000, 1100, 1200]);
  assert.deepEqual(ticks(20, 1900), [500, 1000, 1500]);
  for (const [low, high] of [
    [0, 5000],
    [1234.5, 1301.2],
    [-250, -10],
  ]) {
    const found = ticks(low, high);
    assert.ok(found.length <= 5, `${low}..${high}`);
    assert.ok(
      found.every((v) => v >= low && v <= high),
      `${low}..${high}`,
    );
  }
  assert.deepEqual(ticks(0, 10000), [0, 10000]); // no round step fits: the ends
});

const point = (rating, at) => ({ rating, at });

test("the chart: a point per game, a line through them, higher ratings drawn higher", () => {
  const points = [
    point(1000, "2026-11-01T10:00:00+00:00"),
    point(1040, "2026-11-05T10:00:00+00:00"),
    point(1010, "2026-11-09T10:00:00+00:00"),
  ];
  const chart = ratingChart(points, "Quadropolis", "c1", 500);
  assert.equal(chart.attrs.viewBox, "0 0 500 220");
  assert.equal(chart.attrs["aria-labelledby"], "c1-title c1-desc");
  const dots = chart.all("circle");
  assert.equal(dots.length, 3);
  const ys = dots.map((d) => d.num("cy"));
  assert.ok(ys[1] < ys[2] && ys[2] < ys[0], String(ys));
  const xs = dots.map((d) => d.num("cx"));
  assert.ok(xs[0] < xs[1] && xs[1] < xs[2], String(xs));
  for (const d of dots) {
    assert.ok(d.num("cx") >= 0 && d.num("cx") <= 500 && d.num("cy") >= 0 && d.num("cy") <= 220);
  }
  assert.equal(chart.all("polyline").length, 1);
  assert.equal(chart.all("desc")[0].text, "From 1000 to 1010 over 3 rated games; highest 1040.");
  // the first and last games' dates under the axis
  const stamps = chart.all("text").filter((el) => el.num("y") === 220 - 34 + 18);
  assert.deepEqual(
    stamps.map((el) => el.text),
    ["Nov 1, 2026", "Nov 9, 2026"],
  );
});

test("the chart of one day's games says their times; one game is a point in the middle", () => {
  const day = [point(1000, "2026-11-01T10:05:00+00:00"), point(990, "2026-11-01T16:40:00+00:00")];
  const stamps = ratingChart(day, "x", "c2")
    .all("text")
    .filter((el) => el.num("y") === 204)
    .map((el) => el.text);
  assert.equal(stamps.length, 2);
  assert.match(stamps[0], /^10:05\sAM$/);
  assert.match(stamps[1], /^4:40\sPM$/);

  const one = ratingChart([point(1000, "2026-11-01T10:05:00+00:00")], "x", "c3", 400);
  assert.equal(one.all("polyline").length, 0);
  const [dot] = one.all("circle");
  assert.equal(dot.num("cx"), 52 + (400 - 52 - 16) / 2);
  assert.ok(Number.isFinite(dot.num("cy")));
});

test("the chart's width stays between 280 and 640 pixels whatever its box", () => {
  const points = [point(1000, "2026-11-01T10:00:00+00:00")];
  assert.equal(ratingChart(points, "x", "a", 100).attrs.viewBox, "0 0 280 220");
  assert.equal(ratingChart(points, "x", "b", 2000).attrs.viewBox, "0 0 640 220");
  assert.equal(ratingChart(points, "x", "c", 333.4).attrs.viewBox, "0 0 333 220");
});
