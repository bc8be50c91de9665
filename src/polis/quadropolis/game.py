"""The Quadropolis :class:`~polis.core.protocol.Game`: start, resume, determinize and score.

``GAME`` is the instance the registry hands out. Final scoring is delegated to the exact
scorer (:mod:`polis.quadropolis.scoring`); this module only turns engine cities into its
:class:`~polis.quadropolis.city.Building` tuples.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from polis.core.errors import InputError, PolisError
from polis.core.protocol import JSON, Game, GameResult
from polis.core.rng import seeded_rng
from polis.quadropolis.setup import (
    check_mode_players,
    draw,
    parse_options,
    parse_setup,
)
from polis.quadropolis.state import QuadropolisState
from polis.quadropolis.tiles import FACE_UP, POOLS, ROUNDS, TILE_INDEX, TILES


def final_result(state: QuadropolisState) -> GameResult:
    """§8-§13: every city scored with its best allocation, then ranked with the tie-breaks."""
    from polis.quadropolis.scoring import rank, score_city

    opts = state.rules
    mode = state.mode
    reports = []
    for p in range(state.num_players):
        inh, en = state.resources(p)
        reports.append(
            score_city(
                mode,
                state.city(p),
                inh,
                en,
                playground_absorbs_pollution=opts.playground_absorbs_pollution,
                office_tower_group_cap=opts.office_tower_group_cap,
                empty_squares_after_removal=opts.empty_squares_tie_break == "after_removal",
            )
        )
    ranking = rank(reports)
    return GameResult(
        scores=tuple(r.total for r in reports),
        ranking=tuple(tuple(g) for g in ranking),
        reports=tuple(r.to_json() for r in reports),
    )


class QuadropolisGame(Game):
    """Quadropolis, Classic (4 rounds, 4x4 city) and Expert (5 rounds, 4x5 city)."""

    name = "quadropolis"
    modes = ("classic", "expert")

    def new_game(
        self,
        mode: str,
        players: int,
        *,
        seed: int | None = None,
        setup: Mapping[str, JSON] | None = None,
        options: Mapping[str, JSON] | None = None,
    ) -> QuadropolisState:
        check_mode_players(mode, players)
        opts = parse_options(options)
        if setup is None:
            first, rounds = draw(mode, players, seeded_rng(seed))
        else:
            first, rounds = parse_setup(mode, players, setup)
        return QuadropolisState(mode, players, first, rounds, opts)

    def determinize(self, view: Mapping[str, JSON], rng: random.Random) -> QuadropolisState:
        """Sample the hidden tiles (face-down squares, future rounds), then replay the moves."""
        try:
            mode, players = view["mode"], view["players"]
            public = view["public_rounds"]
            site = view["site"]
            moves = view["moves"]
            first = view["starting_player"]
            finished = view["finished"]
            options = view.get("options")
        except (KeyError, TypeError) as exc:
            raise InputError(f"not a Quadropolis view: missing {exc}") from None
        if view.get("game") != "quadropolis":
            raise InputError("not a Quadropolis view")
        check_mode_players(mode, players)
        up = FACE_UP[players]
        rounds: list[list[str]] = []
        current = len(public) - 1
        for r, pool in enumerate(POOLS[mode]):
            if r >= len(public):
                order = list(pool)
                rng.shuffle(order)
                rounds.append([TILES[i].id for i in order])
                continue
            layout = list(public[r])
            if len(layout) != 25:
                raise InputError(f"view round {r + 1} must list 25 squares")
            hidden = [i for i in pool if not up[i]]
            rng.shuffle(hidden)
            if r == current and not finished:
                # Face-down tiles are still on the site: respect their visible backs.
                for q in range(25):
                    if layout[q] is None:
                        back = site[q].get("back")
                        pick = next((i for i in hidden if TILES[i].back == back), None)
                        if pick is None:
                            raise InputError(f"no face-down tile with back {back!r} is left")
                        hidden.remove(pick)
                        layout[q] = TILES[pick].id
            else:
                for q in range(25):
                    if layout[q] is None:
                        if not hidden:
                            raise InputError(f"view round {r + 1} has too many face-down squares")
                        layout[q] = TILES[hidden.pop()].id
            rounds.append(layout)
        try:
            state = self.new_game(
                mode, players, setup={"first_player": first, "rounds": rounds}, options=options
            )
            for text in moves:
                state.apply_str(text)
        except PolisError as exc:
            raise InputError(f"the view is not a reachable position: {exc}") from None
        return state

    def score_file(self, data: Mapping[str, JSON]) -> dict[str, JSON]:
        from polis.quadropolis.scoring import score_file

        out: dict[str, JSON] = score_file(data)
        return out

    def result_json(self, result: GameResult) -> dict[str, JSON]:
        """``{"game", "mode", "players": [§1.3 report per player], "scores", "ranking"}``."""
        mode = result.reports[0].get("mode") if result.reports else None
        out: dict[str, Any] = {
            "game": self.name,
            "mode": mode,
            "players": [dict(r) for r in result.reports],
            "scores": list(result.scores),
            "ranking": [list(group) for group in result.ranking],
        }
        return out


GAME = QuadropolisGame()
QuadropolisState.game = GAME

__all__ = ["GAME", "ROUNDS", "TILE_INDEX", "QuadropolisGame", "final_result"]
