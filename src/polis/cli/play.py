"""``polis play``: a terminal game, one human seat against bots; saved after every move."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import platformdirs
import typer
from rich.console import Console
from rich.markup import escape

from polis.bots.advice import Advice, advise, alternatives
from polis.bots.agent import Agent, agent_seat
from polis.bots.budget import Budget
from polis.bots.factory import make_agent
from polis.cli.common import (
    example_game,
    fail,
    game_help,
    mode_default,
    mode_help,
    parse_seat,
    read_json,
    user_errors,
    write_json_atomic,
)
from polis.cli.pad import print_pad
from polis.cli.text import text_parts
from polis.core.errors import PolisError
from polis.core.events import Event
from polis.core.match import Seat, Turn, derive_seed, play_match
from polis.core.moves import Move
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game
from polis.core.wording import DEFAULT, LANGUAGES, WordingError, Words, pick_language, words
from polis.games.text import LETTERS, seat_label

#: The searcher behind ``hint`` (about half a second) and how many moves it is compared with.
HINT_AGENT = "mcts:400i"
HINT_ALTERNATIVES = 3
#: Exit code after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


class Quit(Exception):
    """The person at the terminal stopped the game (it is saved)."""


def default_record_path(game: str, seed: int) -> Path:
    """Where a terminal game is saved when no ``--record`` is given: never lose a game."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return platformdirs.user_data_path("polis") / "games" / f"{game}-{stamp}-{seed}.json"


class TerminalGame:
    """Drives one game between a person at ``seat`` and bots in an 80x24 terminal.

    Bots see only their own view and the legal moves (the agent protocol of polis.bots);
    every move is told in words from the engine's events, and the board is drawn again
    when it is the person's turn. The record is saved after every move.
    """

    def __init__(
        self,
        game: Game,
        state: GameState,
        seat: int,
        names: list[str],
        seed: int | str | None,
        record: Path | None,
        ask: Callable[[str], str],
        console: Console,
        bot: str = "random",
        bot_seed: int = 0,
        lang: str = DEFAULT,
    ) -> None:
        self.game, self.state, self.seat, self.names = game, state, seat, names
        self.seed, self.record, self.ask, self.console = seed, record, ask, console
        self.lang = lang
        self.say_words = terminal_words(lang)
        self.text = text_parts(game)
        self.labels = [display_name(n) for n in names]
        #: Did Ctrl-C stop the game (rather than ``quit``)?
        self.interrupted = False
        self.bots: dict[int, tuple[Agent, Budget]] = {
            p: make_agent(bot, derive_seed(bot_seed, "bot", p))
            for p in range(state.num_players)
            if p != seat
        }

    def save(self) -> None:
        if self.record is not None:
            write_json_atomic(self.record, self.state.to_record(self.names, self.seed))

    def run(self) -> bool:
        """Play until the end (True) or until the person quits or presses Ctrl-C (False;
        :attr:`interrupted` tells which). A game that is over already is shown once, with
        its result."""
        self.say(self.text.legend(self.lang), style="dim")
        if not self.state.is_terminal():
            self.say(self.say_words("term.you_are", seat=LETTERS[self.seat]))
            self.show()
            self.save()  # the record exists from the start: the --resume line names it
            seats: list[Seat] = []
            for p in range(self.state.num_players):
                seats.append(self.human_turn if p == self.seat else self.bot_seat(p))
            try:
                play_match(self.state, seats, on_move=self.moved, events=True)
            except Quit:
                self.save()
                return False
            except KeyboardInterrupt:  # while a bot thinks: the record is saved at every move
                self.interrupted = True
                return False
        self.show(None)
        result = self.state.result()
        best = [seat_label(p, self.labels[p]) for p in result.ranking[0]]
        winners = self.say_words("term.winner", names=self.say_words.names(best), count=len(best))
        self.console.print(winners, style="bold", markup=False, highlight=False)
        heads = [seat_label(p, self.labels[p]) for p in range(self.state.num_players)]
        print_pad(
            self.game,
            self.state.mode,
            result.players,
            heads,
            result.ranking,
            self.console,
            lang=self.lang,
        )
        return True

    def say(self, text: str, style: str | None = None, whole: bool = False) -> None:
        """Print plain text (never read as Rich markup: boards hold brackets); ``whole``:
        never broken into lines by Rich (a path or a command to copy, wrapped by the
        terminal only)."""
        self.console.print(text, style=style, markup=False, highlight=False, soft_wrap=whole)

    def bot_seat(self, player: int) -> Seat:
        """A bot's seat, with a "thinking" indicator while it searches."""
        agent, budget = self.bots[player]
        choose = agent_seat(agent, budget, self.game)
        label = self.say_words("term.thinking", seat=LETTERS[player], name=self.labels[player])

        def think(turn: Turn) -> Move:
            with self.console.status(label):
                move: Move = choose(turn)
            return move

        return think

    def moved(self, player: int, move: Move, events: tuple[Event, ...]) -> None:
        """After every move: tell what happened, save, show the board on the person's turn."""
        for event in events:
            if event.visible_to(self.seat):
                line = self.text.narrate(event, self.labels, self.lang)
                if line:
                    self.say(line)
        self.save()
        if self.state.current_player() == self.seat:
            self.show()

    def show(self, seat: int | None = -1) -> None:
        view = self.state.view(self.seat if seat == -1 else seat)
        self.say(self.text.board(view, self.labels, min(self.console.width, 100), self.lang))

    def human_turn(self, turn: Turn) -> Move:
        """Ask until a legal move is typed; raises :class:`Quit` to stop."""
        view = turn.view
        example = self.text.example(view, turn.legal)
        prompt = self.say_words(
            "term.your_move",
            seat=LETTERS[self.seat],
            help=self.text.prompt_help(view, self.lang),
            example=example,
        )
        while True:
            try:
                text = self.ask(prompt).strip()
            except EOFError:
                raise Quit from None
            except KeyboardInterrupt:
                self.interrupted = True
                raise Quit from None
            command, _, rest = text.partition(" ")
            if not text:
                continue
            if text in {"quit", "exit", "q"}:
                raise Quit
            if text in {"help", "?"}:
                self.say(self.say_words("term.commands", example=example))
                continue
            if command == "moves":
                self.say(self.text.moves_text(view, turn.legal, rest, self.lang))
                continue
            if text == "board":
                self.show()
                continue
            if text == "legend":
                self.say(self.text.legend(self.lang))
                continue
            if text == "hint":
                self.say(self.hint(turn))
                continue
            try:
                move = self.state.parse_move(text)
                if move not in turn.legal:
                    self.state.clone().apply(move)  # raises IllegalMove naming the rule
            except PolisError as exc:
                refused = escape(self.say_words("term.not_allowed"))
                self.console.print(f"[red]{refused}[/red] {escape(str(exc))}")
                continue
            return move

    def hint(self, turn: Turn) -> str:
        """A move suggested from the person's own view, with what it gains in words."""
        view, legal = turn.view, turn.legal
        seed = derive_seed(0, "hint", len(self.state.history))
        with self.console.status(self.say_words("term.looking")):
            others = alternatives(self.game, view, legal, HINT_ALTERNATIVES, seed)
            advice = advise(self.game, view, legal, also=others, agent=HINT_AGENT, seed=seed)
        return hint_text(advice, self.say_words)


def terminal_words(lang: str = DEFAULT) -> Words:
    """The terminal's own words (``polis/games/i18n``), in ``lang``."""
    return words(lang, ("polis.games", "i18n"))


def hint_text(advice: Advice, say: Words | None = None) -> str:
    """What a hint says: of the searcher's move and the others weighed on the same sampled
    games, the one that did best, how often it wins, and what it gains over the next."""
    say = say or terminal_words()
    ranked = sorted(advice.estimates, key=lambda e: (-e.win_share, -e.points))
    best = ranked[0]
    line = {
        "move": str(best.move),
        "share": f"{best.win_share * 100:.0f}",
        "samples": best.samples,
        "points": f"{best.points:.0f}",
    }
    if len(ranked) == 1:
        return say("term.hint.only", line)
    runner = ranked[1]
    gain_wins = best.win_share - runner.win_share
    gain_points = best.points - runner.points
    if gain_wins < 0.01 and gain_points < 0.5:
        share = f"{runner.win_share * 100:.0f}"
        return say("term.hint.same", line, other=str(runner.move), other_share=share)
    wins, gain = f"{gain_wins * 100:+.0f}", f"{gain_points:+.1f}"
    return say("term.hint.better", line, wins=wins, gain=gain, other=str(runner.move))


def display_name(name: str) -> str:
    """How a seat is named on screen: ``bot:easy`` is ``bot easy``."""
    return f"bot {name[4:]}" if name.startswith("bot:") else name


def play(
    game: Annotated[str, typer.Argument(help=game_help())],
    mode: Annotated[str, typer.Option(help=mode_help(), show_default=mode_default())] = "",
    players: Annotated[int, typer.Option(min=2, max=4, help="Number of players.")] = 2,
    seat: Annotated[
        str, typer.Option(help="Your seat: A-D or 1-4 (A = 1 = the first player).")
    ] = "A",
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
    name: Annotated[
        str | None, typer.Option(help="Your name.", show_default="you, in the language")
    ] = None,
    bot: Annotated[
        str, typer.Option(help="The bots' level or agent: random, easy, medium, hard, mcts:2s ...")
    ] = "easy",
    lang: Annotated[
        str | None,
        typer.Option(
            help=f"The language of the game: {', '.join(LANGUAGES)} "
            "(default: POLIS_LANG, else the locale's, else en).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play in the terminal against bots; moves are typed in notation.

    Seats are lettered A-D on the board (--seat takes A-D or 1-4). The game is saved after
    every move; 'quit' or Ctrl-C stops it and prints the line that continues it.
    """
    console = Console()
    with user_errors():
        try:
            language = pick_language(lang)
        except WordingError as exc:
            fail(str(exc))
        say = terminal_words(language)
        engine = get_game(game)
        names: list[str]
        if resume is not None:
            data: Any = read_json(str(resume))
            state = engine.from_record(data)
            names = list(data.get("names") or [])
            seed = data.get("seed")
            record = record or resume
            index = next((i for i, n in enumerate(names) if not n.startswith("bot:")), 0)
            bot = next((n[4:] for n in names if n.startswith("bot:")), bot)
        else:
            index = parse_seat(seat, players)
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
            state = engine.new_game(mode or engine.default_mode, players, seed=seed)
            person = name if name is not None else say("term.you")
            names = [person if i == index else f"bot:{bot}" for i in range(players)]
            record = record or default_record_path(engine.name, seed)
        session = TerminalGame(
            engine,
            state,
            index,
            names,
            seed,
            record,
            ask=lambda prompt: console.input(f"[bold]{prompt}[/bold]> "),
            console=console,
            bot=bot,
            bot_seed=int(seed) if isinstance(seed, int) else 0,
            lang=language,
        )
    over = state.is_terminal()
    try:
        if not over:
            session.say(say("term.saving", path=str(record)), whole=True)
        finished = session.run()
    except KeyboardInterrupt:  # between two moves, or while the result is drawn
        finished, session.interrupted = state.is_terminal(), True
    if over:
        return  # a finished game was shown: nothing was saved, nothing to continue
    if session.interrupted:
        console.print()  # after a prompt cut short by Ctrl-C
    session.say(say("term.saved", path=str(record)), whole=True)
    if not finished:
        again = f"polis play {engine.name} --resume {record}"
        session.say(say("term.stopped", command=again), whole=True)
        if session.interrupted:
            raise typer.Exit(INTERRUPTED)


def register(app: typer.Typer) -> None:
    g = example_game()
    example = f"polis play {g.name} --mode {g.modes[-1]} --players 3 --seat B --record my-game.json"
    app.command(help=f"{play.__doc__}\n\nExample: {example}")(play)
