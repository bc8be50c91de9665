"""benchmarks/fit_value.py: each position is labelled for both seats, one mirroring the other."""

from __future__ import annotations

from .scripts import load_script


def test_labels_are_values_mirrored_for_the_other_seat() -> None:
    fit_value = load_script("fit_value")
    xs, ys = fit_value.labelled(seed=3, games=1, per_game=3, iterations=40)
    assert len(xs) == len(ys) and len(ys) % 2 == 0 and ys
    for i in range(0, len(ys), 2):
        assert ys[i] == -ys[i + 1] and -0.5 <= ys[i] <= 0.5
        assert xs[i] == [-x for x in xs[i + 1]]
