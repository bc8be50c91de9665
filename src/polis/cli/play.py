"""``polis play``: a terminal game, one human seat against bots; saved after every move."""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import platformdirs
import typer
from rich.columns import Columns
from rich.console import Console

from polis.bots.agent import Agent
from polis.bots.budget import Budget
from polis.bots.factory import make_agent
from polis.cli.common import fail, read_json, user_errors, write_json_atomic
from polis.cli.pad import print_pad
from polis.core.errors import PolisError
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game

HELP_TEXT = (
    "Type a move in notation ({example}), 'moves' to list the legal moves, "
    "'board' to show the position again, 'quit' to stop (the game is saved)."
)
EXAMPLES = {"quadropolis": "3L4 r2c1, 2T5 x, 1R1 -", "metropolys": "7@12, pass"}


def default_record_path(game: str, seed: int) -> Path:
    """Where a terminal game is saved when no ``--record`` is given: never lose a game."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return platformdirs.user_data_path("polis") / "games" / f"{game}-{stamp}-{seed}.json"


def grouped_moves(state: GameState) -> list[str]:
    """Legal moves in notation, grouped by their first word (``3L4: r2c1 r2c2 x``)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for move in state.legal_moves():
        text = state.move_to_str(move)
        head, _, tail = text.partition(" ")
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
        while not self.state.is_terminal():
            player = self.state.current_player()
            if player == self.seat:
                if not self.human_turn():
                    self.save()
                    return False
            else:
                agent, budget = self.bots[player]
                view = self.state.view(player)
                move = agent.act(view, self.state.legal_moves(), self.game, budget)
                text = self.state.move_to_str(move)
                self.state.apply(move)
                self.console.print(f"[cyan]{self.names[player]}[/cyan] plays [bold]{text}[/bold]")
            self.save()
            if self.state.current_player() == self.seat:
                self.show()
        self.console.print(self.state.render_text(None))
        print_pad(self.game.result_json(self.state.result()), self.names)
        return True

    def show(self) -> None:
        self.console.print(self.state.render_text(self.seat))

    def human_turn(self) -> bool:
        example = EXAMPLES.get(self.game.name, "")
        self.console.print(Columns(grouped_moves(self.state), padding=(0, 3)), style="dim")
        while True:
            try:
                text = self.ask("Your move").strip()
            except (EOFError, KeyboardInterrupt):
                return False
            if text in {"quit", "exit", "q"}:
                return False
            if text in {"help", "?"}:
                self.console.print(HELP_TEXT.format(example=example))
                continue
            if text == "moves":
                self.console.print(Columns(grouped_moves(self.state), padding=(0, 3)))
                continue
            if text == "board":
                self.show()
                continue
            try:
                self.state.apply_str(text)
            except PolisError as exc:
                self.console.print(f"[red]Not allowed:[/red] {exc}")
                continue
            return True


def play(
    game: Annotated[str, typer.Argument(help="quadropolis or metropolys")],
    mode: Annotated[str, typer.Option(help="classic/expert or family/expert")] = "",
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
    """Play in the terminal against bots; moves are typed in notation.

    Example: polis play quadropolis --mode expert --players 3 --seat 2 --record my-game.json
    """
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
            state = engine.new_game(mode or engine.modes[0], players, seed=seed)
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
    app.command()(play)
