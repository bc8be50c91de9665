"""Put a trained policy on a polis server, where people play it: the MaskablePPO policy of
examples/train_maskable_ppo.py as a bot, through the server's bot API.

The policy sees what a seat's player sees: the client rebuilds the seat's view from the state
message the server sends (``polis.client.seat_view``), the game's observation encoder turns it
into the vector the policy was trained on, and the legal moves become its action mask.

    python examples/train_maskable_ppo.py --game metropolys --mode family --minutes 14 \\
        --save ppo.zip                      # also writes ppo.normalize.pkl (its statistics)
    export POLIS_BOT_TOKEN=polis_bot_...    # the bot account's token (its account page)
    python examples/bot_connect.py --server https://polis.example.org --model ppo.zip

or, the same through the command every agent uses (``module:attribute`` names the factory):

    POLIS_PPO_MODEL=ppo.zip polis bot connect --server https://polis.example.org \\
        --agent examples/bot_connect.py:policy

Without a model file it says so and exits (nothing to connect). Needs the ``rl-train`` and
``client`` extras.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from functools import cache
from pathlib import Path
from typing import Any

#: Where the ``polis bot connect --agent examples/bot_connect.py:policy`` factory finds the
#: model (and, beside it, the statistics its observations were standardized with).
MODEL_ENV = "POLIS_PPO_MODEL"


class PolicyAgent:
    """A trained MaskablePPO policy as a polis agent: view and legal moves in, a move out."""

    name = "ppo"

    def __init__(self, model: Any, normalize: Any = None) -> None:
        self.model = model
        self.normalize = normalize

    def act(self, view: Any, legal: Any, game: Any, budget: Any) -> Any:
        import numpy as np

        from polis.research.observations import encoder

        space = game.action_space(view.mode)
        observation = encoder(game, view.mode, view.players).encode(view)
        if self.normalize is not None:  # as in training (VecNormalize's running statistics)
            observation = self.normalize.normalize_obs(observation)
        mask = np.zeros(len(space), dtype=bool)
        mask[[move.id for move in legal]] = True
        action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
        return space.move(int(action))


def statistics_of(model_path: Path) -> Path:
    """Where train_maskable_ppo.py keeps a model's observation statistics."""
    return model_path.with_name(model_path.name.removesuffix(".zip") + ".normalize.pkl")


@cache
def load(path: str) -> PolicyAgent:
    """The policy saved at ``path`` (loaded once: every game shares it; it keeps no memory
    between moves)."""
    from sb3_contrib import MaskablePPO

    model_path = Path(path)
    model = MaskablePPO.load(model_path, device="cpu")
    normalize = None
    stats = statistics_of(model_path)
    if stats.exists():
        with stats.open("rb") as handle:
            normalize = pickle.load(handle)  # the operator's own training file
        normalize.training = False
    return PolicyAgent(model, normalize)


def policy() -> PolicyAgent:
    """The agent factory ``polis bot connect --agent examples/bot_connect.py:policy`` calls
    (the model named by ``$POLIS_PPO_MODEL``)."""
    path = os.environ.get(MODEL_ENV)
    if not path:
        raise RuntimeError(f"set {MODEL_ENV} to the model file train_maskable_ppo.py saved")
    return load(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--server", required=True, help="the server's address")
    parser.add_argument("--model", default=None, help="the .zip train_maskable_ppo.py saved")
    parser.add_argument("--games", type=int, default=None, help="stop after this many games")
    parser.add_argument(
        "--token", default=os.environ.get("POLIS_BOT_TOKEN"), help="default: $POLIS_BOT_TOKEN"
    )
    args = parser.parse_args()
    if not args.model or not Path(args.model).is_file():
        print(f"no trained model (--model {args.model}): nothing to connect")
        return 0
    if not args.token:
        parser.error("the bot account's token: --token or $POLIS_BOT_TOKEN")
    os.environ[MODEL_ENV] = str(Path(args.model).resolve())
    from polis.client import AgentMaker, BotClient, BotRunner

    with BotClient(args.server, args.token) as client:
        runner = BotRunner(client, AgentMaker(f"{__file__}:policy"), games=args.games)
        played = runner.run()
    if runner.refused is not None:
        print(f"the server refused the token: {runner.refused.message}", file=sys.stderr)
        return 2
    print(f"{played} game(s) played to the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
