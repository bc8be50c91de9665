"""``polis review``: a finished game weighed move by move against the strongest level."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from polis.bots.advice import DEFAULT_AGENT, DEFAULT_SAMPLES
from polis.bots.factory import parse_agent_spec
from polis.bots.intervals import LEVEL, Interval
from polis.bots.review import MARKS, MoveReview, points_scale, review_moves
from polis.cli.common import echo_json, fail, game_of, parse_seat, read_json, user_errors
from polis.cli.text import game_wording
from polis.core.errors import InputError
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game
from polis.core.wording import LANGUAGES, WordingError, Words, pick_language, say_reason
from polis.games.text import seat_label


def review(
    file: Annotated[
        str, typer.Argument(help="A finished game's record (formats.md §3); - = stdin.")
    ],
    agent: Annotated[
        str,
        typer.Option(
            help="The searcher whose choice each move is weighed against (an "
            "iteration budget keeps the review reproducible)."
        ),
    ] = DEFAULT_AGENT,
    samples: Annotated[
        int, typer.Option(min=1, max=2000, help="Sampled games per move estimate.")
    ] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option(help="Seed of the samples and the searcher.")] = 0,
    seat: Annotated[
        str | None,
        typer.Option(help="Only this seat's moves: A-D or 1-4 (A = 1 = the first player)."),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of a table.")
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            help=f"The language of the marked moves' explanations: {', '.join(LANGUAGES)} "
            "(default: POLIS_LANG, else the locale's, else en).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Weigh every move of a finished game against the move the searcher would have chosen.

    Each move is judged from the view its player had at that moment (nothing they could not
    see): the searcher's choice, the estimated win share and points of both moves over the
    same sampled games, and the loss with its 95% interval. The worst moves are marked
    (inaccuracy, mistake, blunder) where their whole interval lies past the mark's threshold:
    more samples, narrower intervals (a move whose estimate is past a mark but not sure gets
    a second look on three times its samples more). Each marked move is explained in a
    sentence, from the game's own reasons (the web review's words). Same record, agent,
    samples and seed: the same review.

    Example: polis review game.json --agent mcts:400i --samples 48
    """
    try:
        language = pick_language(lang)
    except WordingError as exc:
        fail(str(exc))
    with user_errors():
        parse_agent_spec(agent)
        record = read_json(file)
        game = get_game(game_of(record))
        final = game.from_record(record)
        if not final.is_terminal():
            raise InputError("the game is not over: a review is given only for finished games")
        opening = {k: v for k, v in record.items() if k not in ("result", "authors", "taken_back")}
        start = game.from_record({**opening, "moves": []})
        seats = None if seat is None else {parse_seat(seat, final.num_players)}
        console = Console(stderr=True)
        with console.status("reviewing ...") as status:

            def progress(done: int, total: int) -> None:
                status.update(f"reviewing move {done} of {total} ...")

            reviews = review_moves(
                game, start, list(final.history), agent=agent, samples=samples, seed=seed,
                seats=seats, progress=progress if sys.stderr.isatty() else None,
            )  # fmt: skip
    names = [n if isinstance(n, str) else "" for n in record.get("names") or []]
    if json_out:
        echo_json(as_json(game, final, reviews, agent, samples, seed))
    else:
        print_review(final, reviews, names, game_wording(game, language))


def as_json(
    game: Game, final: GameState, reviews: list[MoveReview], agent: str, samples: int, seed: int
) -> dict[str, Any]:
    """The review as JSON: one entry per weighed move."""
    return {
        "game": game.name,
        "mode": final.mode,
        "agent": agent,
        "samples": samples,
        "seed": seed,
        "interval_level": LEVEL,
        "moves": [r.to_json() for r in reviews],
    }


def print_review(
    final: GameState, reviews: list[MoveReview], names: list[str], say: Words | None = None
) -> None:
    """A table of the weighed moves (forced ones left out), the marked ones last; every
    loss with its 95% interval in brackets, and each marked move's reason in ``say``'s
    language (the game's catalogue, as the browser words it)."""
    console = Console()
    table = Table(title="Review: each move against the searcher's choice", expand=False)
    for head, justify in (
        ("#", "right"), ("seat", "left"), ("played", "left"), ("best", "left"),
        ("win % lost", "right"), ("points lost", "right"), ("", "left"),
    ):  # fmt: skip
        table.add_column(head, justify=justify)  # type: ignore[arg-type]
    for r in reviews:
        if r.forced:
            continue
        same = r.best is r.played
        table.add_row(
            str(r.index + 1),
            _seat(r.player, names),
            str(r.played),
            "=" if same else str(r.best),
            "0" if same else f"{100 * _difference(r):.0f} {_percent(r.loss_interval)}",
            "0" if same else f"{r.points_loss:+.1f} {_points(r.points_interval)}",
            r.mark,
        )
    console.print(table)
    counts = [r.best_estimate.samples for r in reviews if r.best_estimate]
    samples = min(counts, default=0)
    looked = sum(n > samples for n in counts)
    thresholds = ", ".join(
        f"{100 * win:.0f}% of a win or {worth:g}x a move's worth of points ({name})"
        for name, win, worth in reversed(MARKS)
    )
    scale = points_scale(final.result().scores, len(final.history), final.num_players)
    console.print(
        f"In brackets: the {100 * LEVEL:.0f}% interval over {samples} sampled games"
        + (f" ({max(counts)} for {looked} moves given a second look)" if looked else "")
        + ". A move is "
        f"marked where the low end of its interval lies past {thresholds}; one move is "
        f"worth {scale:.1f} points in this game.",
        markup=False,
        highlight=False,
    )
    marked = [r for r in reviews if r.mark]
    if not marked:
        console.print("No move surely lost much: nothing marked.")
    for r in sorted(marked, key=lambda r: r.index):
        console.print(
            f"{r.mark.capitalize()} at move {r.index + 1} ({_seat(r.player, names)}): "
            f"{r.played} instead of {r.best} gave away about "
            f"{100 * r.win_share_loss:.0f}% of a win {_percent(r.loss_interval)} and "
            f"{r.points_loss:.1f} points {_points(r.points_interval)}.",
            markup=False,
            highlight=False,
        )
        if r.reason is not None and say is not None:
            console.print(f"  {say_reason(say, r.reason)}", markup=False, highlight=False)


def _difference(r: MoveReview) -> float:
    """The win share lost as measured, before it is clipped at 0 (negative: the played move
    did better on these samples), the middle of the interval shown next to it."""
    if r.best_estimate is None or r.played_estimate is None:
        return r.win_share_loss
    return r.best_estimate.win_share - r.played_estimate.win_share


def _percent(interval: Interval | None) -> str:
    """``[12, 40]``: an interval of win shares in percent."""
    if interval is None:
        return "[?]"
    return f"[{100 * interval[0]:.0f}, {100 * interval[1]:.0f}]"


def _points(interval: Interval | None) -> str:
    """``[-1.0, 7.5]``: an interval of points (``[?]`` from a single sample)."""
    if interval is None:
        return "[?]"
    return f"[{interval[0]:.1f}, {interval[1]:.1f}]"


def _seat(player: int, names: list[str]) -> str:
    """The seat as every terminal line names it: ``A (Ann)``, ``B (bot easy)``."""
    name = names[player] if player < len(names) else ""
    return seat_label(player, f"bot {name[4:]}" if name.startswith("bot:") else name)


def register(app: typer.Typer) -> None:
    app.command()(review)
