// The review's figures without a page (static/js/review.js): a move's losses as each row and
// the worst moves' lines write them, with their 95% intervals. Run by tests/cli/test_wording.py
// (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { signedPct, points, winLost, ranges } from "/static/js/review.js";

const estimate = (win_share, points) => ({
  win_share,
  points,
  samples: 64,
  win_share_interval: null,
  points_interval: null,
});

// a weighed move as GET /api/games/{id}/review lists it
const move = (fields) => ({
  index: 4,
  player: 1,
  played: "a1",
  best: "b2",
  forced: false,
  played_estimate: null,
  best_estimate: null,
  win_share_loss: 0,
  points_loss: 0,
  mark: "",
  win_share_loss_interval: null,
  points_loss_interval: null,
  moves_lost: 0,
  reason: null,
  ...fields,
});

test("a share is a whole percent with a real minus sign", () => {
  assert.equal(signedPct(0.25), "25");
  assert.equal(signedPct(0.004), "0");
  assert.equal(signedPct(0), "0");
  assert.equal(signedPct(-0.126), "−13");
  assert.equal(signedPct(-0.125), "−12"); // halves round up
});

test("points lost: one decimal with a sign; under 0.05 either way is 0", () => {
  assert.equal(points(1.26), "+1.3");
  assert.equal(points(-2), "−2.0");
  assert.equal(points(0.049), "0");
  assert.equal(points(-0.049), "0");
  assert.equal(points(0.05), "+0.1");
});

test("the win share lost is the estimates' difference, which may be negative", () => {
  const m = move({
    best_estimate: estimate(0.5, 30),
    played_estimate: estimate(0.6, 28),
    win_share_loss: 0, // clipped at 0 by the server
  });
  assert.ok(Math.abs(winLost(m) - -0.1) < 1e-9);
  assert.equal(signedPct(winLost(m)), "−10");
});

test("without both estimates the win share lost is the review's own figure", () => {
  assert.equal(winLost(move({ win_share_loss: 0.2, best_estimate: estimate(0.5, 30) })), 0.2);
  assert.equal(winLost(move({ win_share_loss: 0.3 })), 0.3);
});

test("a move's intervals in the words' arguments; ? where the review has none", () => {
  assert.deepEqual(
    ranges(move({ win_share_loss_interval: [-0.02, 0.31], points_loss_interval: [0.5, 4.25] })),
    { winLow: "−2", winHigh: "31", pointsLow: "+0.5", pointsHigh: "+4.3" },
  );
  assert.deepEqual(ranges(move({})), {
    winLow: "?",
    winHigh: "?",
    pointsLow: "?",
    pointsHigh: "?",
  });
});
