"""``polis play``: a terminal game, one human seat against bots; saved after every move."""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import platformdirs
import typer
from rich.columns import Columns
from rich.console import Console
from rich.markup import escape

from polis.bots.agent import Agent, agent_seat
from polis.bots.budget import Budget
from polis.bots.factory import make_agent
from polis.cli.common import (
    example_game,
    fail,
    game_help,
    mode_help,
    read_json,
    user_errors,
    write_json_atomic,
)
from polis.cli.pad import print_pad
from polis.core.errors import PolisError
from polis.core.events import Event
from polis.core.match import Seat, Turn, play_match
from polis.core.moves import Move
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game

HELP_TEXT = (
    "Type a move in notation ({example}), 'moves' to list the legal moves, "
    "'board' to show the position again, 'quit' to stop (the game is saved)."
)


class Quit(Exception):
    """The person at the terminal stopped the game (it is saved)."""


def default_record_path(game: str, seed: int) -> Path:
    """Where a terminal game is saved when no ``--record`` is given: never lose a game."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return platformdirs.user_data_path("polis") / "games" / f"{game}-{stamp}-{seed}.json"


def grouped_moves(legal: Sequence[Move]) -> list[str]:
    """Legal moves in notation, grouped by their first word (``3L4: r2c1 r2c2 x``)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for move in legal:
        head, _, tail = move.text.partition(" ")
        groups[head].append(tail)
    return [f"{head}: {' '.join(tails)}" if any(tails) else head for head, tails in groups.items()]


class TerminalGame:
    """Drives one game between a human at ``seat`` and bots in a terminal.

    Bots see only their own view and the legal moves (the agent protocol of polis.bots).
    """

    def __init__(
        self,
        game: Game,
        state: GameState,
        seat: int,
        names: list[str],
        seed: int | None,
        record: Path | None,
        ask: Callable[[str], str],
        console: Console,
        bot: str = "random",
        bot_seed: int = 0,
    ) -> None:
        self.game, self.state, self.seat, self.names = game, state, seat, names
        self.seed, self.record, self.ask, self.console = seed, record, ask, console
        self.bots: dict[int, tuple[Agent, Budget]] = {
            p: make_agent(bot, bot_seed + p) for p in range(state.num_players) if p != seat
        }

    def save(self) -> None:
        if self.record is not None:
            write_json_atomic(self.record, self.state.to_record(self.names, self.seed))

    def run(self) -> bool:
        """Play until the end (True) or until the human quits (False)."""
        self.show()
        seats: list[Seat] = []
        for p in range(self.state.num_players):
            if p == self.seat:
                seats.append(self.human_turn)
            else:
                agent, budget = self.bots[p]
                seats.append(agent_seat(agent, budget, self.game))
        try:
            play_match(self.state, seats, on_move=self.moved)
        except Quit:
            self.save()
            return False
        self.console.print(self.state.render_text(None))
        result = self.state.result()
        print_pad(self.game, self.state.mode, result.players, self.names, result.ranking)
        return True

    def moved(self, player: int, move: Move, events: tuple[Event, ...]) -> None:
        """After every move: say what a bot played, save, show the board on the human's turn."""
        if player != self.seat:
            self.console.print(
                f"[cyan]{escape(self.names[player])}[/cyan] plays [bold]{move}[/bold]"
            )
        self.save()
        if self.state.current_player() == self.seat:
            self.show()

    def show(self) -> None:
        self.console.print(self.state.render_text(self.seat), markup=False)

    def human_turn(self, turn: Turn) -> Move:
        """Ask until a legal move is typed; raises :class:`Quit` to stop."""
        example = ", ".join(self.game.notation_examples)
        self.console.print(Columns(grouped_moves(turn.legal), padding=(0, 3)), style="dim")
        while True:
            try:
                text = self.ask("Your move").strip()
            except (EOFError, KeyboardInterrupt):
                raise Quit from None
            if text in {"quit", "exit", "q"}:
                raise Quit
            if text in {"help", "?"}:
                self.console.print(HELP_TEXT.format(example=example))
                continue
            if text == "moves":
                self.console.print(Columns(grouped_moves(turn.legal), padding=(0, 3)))
                continue
            if text == "board":
                self.show()
                continue
            try:
                move = self.state.parse_move(text)
                if move not in turn.legal:
                    self.state.clone().apply(move)  # raises IllegalMove naming the rule
            except PolisError as exc:
                self.console.print(f"[red]Not allowed:[/red] {escape(str(exc))}")
                continue
            return move


def play(
    game: Annotated[str, typer.Argument(help=game_help())],
    mode: Annotated[str, typer.Option(help=mode_help())] = "",
    players: Annotated[int, typer.Option(min=2, max=4, help="Number of players.")] = 2,
    seat: Annotated[int, typer.Option(min=1, max=4, help="Your seat (1 = first).")] = 1,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the set-up (random if omitted).")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Save the game record here after every move "
            "(default: a new file in your user data folder)."
        ),
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue the game saved in this record.")
    ] = None,
    name: Annotated[str, typer.Option(help="Your name.")] = "you",
    bot: Annotated[
        str, typer.Option(help="The bots' level or agent: random, easy, medium, hard, mcts:2s ...")
    ] = "easy",
) -> None:
    """Play in the terminal against bots; moves are typed in notation."""
    console = Console()
    with user_errors():
        engine = get_game(game)
        names: list[str]
        if resume is not None:
            data: Any = read_json(str(resume))
            state = engine.from_record(data)
            names = list(data.get("names") or [])
            seed = data.get("seed")
            record = record or resume
            seat = 1 + next((i for i, n in enumerate(names) if not n.startswith("bot:")), 0)
            bot = next((n[4:] for n in names if n.startswith("bot:")), bot)
        else:
            if seat > players:
                fail(f"seat {seat} does not exist in a {players}-player game")
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
            state = engine.new_game(mode or engine.default_mode, players, seed=seed)
            names = [name if i == seat - 1 else f"bot:{bot}" for i in range(players)]
            record = record or default_record_path(engine.name, seed)
        session = TerminalGame(
            engine,
            state,
            seat - 1,
            names,
            seed,
            record,
            ask=lambda prompt: console.input(f"[bold]{prompt}[/bold]> "),
            console=console,
            bot=bot,
            bot_seed=seed or 0,
        )
    console.print(f"Saving the game to {record} after every move.")
    finished = session.run()
    console.print(f"Game record saved to {record}")
    if not finished:
        console.print(f"Game stopped; continue it with: polis play {game} --resume {record}")


def register(app: typer.Typer) -> None:
    g = example_game()
    example = f"polis play {g.name} --mode {g.modes[-1]} --players 3 --seat 2 --record my-game.json"
    app.command(help=f"{play.__doc__}\n\nExample: {example}")(play)
