"""How one server process is set up: where it is reached, who shares its games, how its bots
run, and the limits that keep one client from holding up the others.

Every knob has a default that suits one person running ``polis serve`` on their machine;
a deployment sets them through ``polis serve`` options or ``POLIS_*`` environment variables
(:meth:`ServerConfig.from_env`), so each of several processes behind a proxy gets the same
settings from one place.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from polis.core.errors import InputError

BotBackend = Literal["process", "ray"]


def require(module: str, what: str, extra: str) -> None:
    """InputError (one line, naming the install line) when ``what``, a feature the server is
    set up to use, needs ``module`` of the ``extra`` extra and it is not installed: the
    server imports psycopg, redis and pywebpush only where they are used, so a single
    process on SQLite runs without them."""
    if importlib.util.find_spec(module) is None:
        raise InputError(
            f"{what} needs the '{extra}' extra of polis ({module} missing): "
            f"install with pip install -e '.[server,{extra}]'"
        )


@dataclass(frozen=True, slots=True)
class Limits:
    """Abuse limits. Rates are strings such as ``"20/second"``, ``"5/10seconds"`` or
    ``"10 per minute"`` (:func:`polis.server.http.rates.parse_rate`).

    Counted per client address (the peer, or the address a trusted proxy forwards): players
    of one game sit at different addresses, an abuser at one.
    """

    #: Open WebSockets from one address (all games).
    connections_per_address: int = 64
    #: Spectators of one game (people holding a seat token always get in).
    spectators_per_game: int = 100
    #: Open WebSockets of one seat (a player's tabs and devices).
    connections_per_seat: int = 8
    #: New WebSockets per address.
    connect_rate: str = "60/10seconds"
    #: Messages per address over its WebSockets.
    message_rate: str = "30/second"
    #: Games created per address.
    create_rate: str = "20/minute"
    #: Chat lines per connection, and per address (all its connections and tables).
    chat_rate: str = "5/10seconds"
    chat_address_rate: str = "30/minute"
    #: Seconds a new WebSocket has to say hello.
    hello_timeout: float = 10.0
    #: Messages waiting to be sent to one connection before it counts as not reading.
    send_queue: int = 32
    #: Largest HTTP request body, in bytes.
    max_body: int = 64 * 1024
    #: Seconds a client has to send the headers of a request (once connected).
    header_timeout: float = 10.0


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything about a server process except its database and its games."""

    #: The address people use (``https://polis.example.org``): invite links are built from it.
    #: Unset: the address the request reached (the server's own socket address, or what a
    #: trusted proxy forwards), never the request's Host header.
    public_url: str | None = None
    #: ``redis://host:6379/0``: move fan-out and bot leases shared by several processes.
    redis_url: str | None = None
    #: Where bots think: worker processes of this server, or a Ray cluster.
    bot_backend: BotBackend = "process"
    #: Bot worker processes (or Ray actors).
    bot_workers: int = 2
    #: Niceness of bot worker processes: the web process wins the processor when both want it.
    bot_nice: int = 10
    #: Ray address (``auto``, ``ray://host:10001``); unset with the Ray backend: a local Ray.
    ray_address: str | None = None
    #: Seconds a bot waits before moving, so people can follow.
    bot_delay: float = 0.4
    #: Extra seconds a bot gets beyond its wall-clock cap (3x its CPU budget) before it
    #: counts as stuck.
    bot_grace: float = 3.0
    #: The searcher behind a table's hints and the sampled games each move is weighed on
    #: (:mod:`polis.server.table.hints`; an iteration budget keeps them reproducible).
    hint_agent: str = "mcts:400i"
    hint_samples: int = 48
    #: The same for the post-game review (:mod:`polis.server.table.reviews`): smaller than the
    #: terminal's ``polis review``, so a game is reviewed in seconds.
    review_agent: str = "mcts:200i"
    review_samples: int = 24
    #: Seconds a room with nobody connected and no bot thinking stays in memory.
    room_idle: float = 300.0
    #: Seconds between checks of the positions of loaded rooms against the database
    #: (catches moves made by another process when Redis is down or absent); 0: never.
    #: ``None``: every 2 s on PostgreSQL (every 15 s while Redis is up), never on SQLite.
    sync_interval: float | None = None
    #: Seconds between housekeeping rounds (evict idle rooms, resume waiting bots).
    housekeeping_interval: float = 10.0
    #: Seconds a store call is retried (database restarting) before the client is told.
    store_patience: float = 20.0
    #: Seconds an HTTP request waits for the store in all before it answers 503 (a socket
    #: waits ``store_patience``): :func:`~polis.server.store.faults.hurry`.
    http_patience: float = 1.5
    #: Addresses of reverse proxies whose X-Forwarded-* headers are believed.
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    #: Tune the garbage collector for a long-running server when the app starts (``polis
    #: serve`` does; an app embedded in another program leaves its process alone).
    tune_gc: bool = False
    #: A PEM file with the server's VAPID key (Web Push), made on first use if missing.
    #: Unset: the key is kept in the store, the same for every process sharing it.
    vapid_key_file: str | None = None
    #: Who runs the server, told to push services (VAPID ``sub``): a ``mailto:`` address or
    #: an https URL. Unset: the public URL if it is https, else ``mailto:polis@localhost``.
    vapid_subject: str | None = None
    #: Push services a browser's subscription may name (host names, or suffixes of them);
    #: an entry starting with ``http://`` allows plain HTTP to that host (a local service).
    push_services: tuple[str, ...] = (
        "fcm.googleapis.com",
        "push.services.mozilla.com",
        "push.apple.com",
        "notify.windows.com",
    )
    #: Seconds one push may take before it is given up (it never holds up a table).
    push_timeout: float = 10.0
    #: Check every message sent, heard and published against the wire contract, failing loudly
    #: on a mismatch (:mod:`polis.server.wire.check`): for tests, off by default (it costs a
    #: validation per message). ``POLIS_CHECK_WIRE=1`` turns it on, for a server made
    #: without :meth:`from_env` too.
    check_wire: bool = field(default_factory=lambda: os.environ.get("POLIS_CHECK_WIRE") == "1")
    #: This process's name on the bus (unique per process).
    instance: str = field(default_factory=lambda: secrets.token_hex(6))
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **given: Any) -> ServerConfig:
        """The defaults, then ``POLIS_*`` variables, then ``given`` (options of the command).

        ``POLIS_PUBLIC_URL``, ``POLIS_REDIS_URL``, ``POLIS_BOTS`` (process or ray),
        ``POLIS_BOT_WORKERS``, ``POLIS_RAY_ADDRESS``, ``POLIS_BOT_DELAY``,
        ``POLIS_HINT_AGENT``, ``POLIS_HINT_SAMPLES``, ``POLIS_REVIEW_AGENT``,
        ``POLIS_REVIEW_SAMPLES``,
        ``POLIS_TRUSTED_PROXIES`` (comma-separated), ``POLIS_ROOM_IDLE``,
        ``POLIS_SYNC_INTERVAL``, ``POLIS_STORE_PATIENCE``, ``POLIS_HTTP_PATIENCE``,
        ``POLIS_VAPID_KEY_FILE``,
        ``POLIS_VAPID_SUBJECT``, ``POLIS_PUSH_SERVICES`` (comma-separated), and ``POLIS_LIMITS``
        (``name=value,...`` over :class:`Limits`, e.g.
        ``message_rate=50/second,connections_per_address=200``). ``POLIS_CHECK_WIRE=1`` (tests)
        is read by :attr:`check_wire`'s default, here as in a config made without this.
        """
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        simple = {
            "POLIS_PUBLIC_URL": ("public_url", str),
            "POLIS_REDIS_URL": ("redis_url", str),
            "POLIS_BOTS": ("bot_backend", str),
            "POLIS_BOT_WORKERS": ("bot_workers", int),
            "POLIS_RAY_ADDRESS": ("ray_address", str),
            "POLIS_BOT_DELAY": ("bot_delay", float),
            "POLIS_HINT_AGENT": ("hint_agent", str),
            "POLIS_HINT_SAMPLES": ("hint_samples", int),
            "POLIS_REVIEW_AGENT": ("review_agent", str),
            "POLIS_REVIEW_SAMPLES": ("review_samples", int),
            "POLIS_ROOM_IDLE": ("room_idle", float),
            "POLIS_SYNC_INTERVAL": ("sync_interval", float),
            "POLIS_STORE_PATIENCE": ("store_patience", float),
            "POLIS_HTTP_PATIENCE": ("http_patience", float),
            "POLIS_VAPID_KEY_FILE": ("vapid_key_file", str),
            "POLIS_VAPID_SUBJECT": ("vapid_subject", str),
        }
        for var, (name, kind) in simple.items():
            raw = env.get(var, "").strip()
            if raw:
                try:
                    values[name] = kind(raw)
                except ValueError:
                    raise InputError(f"{var}={raw!r} is not a {kind.__name__}") from None
        proxies = env.get("POLIS_TRUSTED_PROXIES", "").strip()
        if proxies:
            values["trusted_proxies"] = tuple(p.strip() for p in proxies.split(",") if p.strip())
        services = env.get("POLIS_PUSH_SERVICES", "").strip()
        if services:
            values["push_services"] = tuple(s.strip() for s in services.split(",") if s.strip())
        values["limits"] = parse_limits(env.get("POLIS_LIMITS", ""))
        values.update({k: v for k, v in given.items() if v is not None})
        config = cls(**values)
        config.check()
        return config

    def check(self) -> None:
        """InputError (one line) for a setting that cannot work."""
        if self.bot_backend not in ("process", "ray"):
            raise InputError(f"bots run in 'process' or 'ray', not {self.bot_backend!r}")
        if self.bot_workers < 1:
            raise InputError(f"bot workers must be at least 1, not {self.bot_workers}")
        from polis.bots.factory import parse_agent_spec

        for agent in (self.hint_agent, self.review_agent):
            parse_agent_spec(agent)  # InputError naming the problem
        if min(self.hint_samples, self.review_samples) < 1:
            raise InputError("hints and reviews need at least one sampled game per move")
        if self.public_url is not None and not self.public_url.startswith(("http://", "https://")):
            raise InputError(
                f"the public URL must start with http:// or https://: {self.public_url}"
            )
        if self.redis_url is not None and not self.redis_url.startswith(
            ("redis://", "rediss://", "unix://")
        ):
            raise InputError(f"the Redis URL must start with redis://: {self.redis_url}")
        if self.redis_url is not None:
            require("redis", "Redis (--redis, POLIS_REDIS_URL)", "cluster")
        if self.vapid_key_file is not None or self.vapid_subject is not None:
            require("pywebpush", "sending turn notifications (POLIS_VAPID_*)", "push")
        if self.vapid_subject is not None and not self.vapid_subject.startswith(
            ("mailto:", "https://")
        ):
            subject = self.vapid_subject
            raise InputError(f"the VAPID subject must be mailto: or an https URL: {subject}")

    @property
    def push_subject(self) -> str:
        """The VAPID ``sub`` claim of this server's pushes."""
        if self.vapid_subject:
            return self.vapid_subject
        if self.public_url and self.public_url.startswith("https://"):
            return self.public_url.rstrip("/")
        return "mailto:polis@localhost"


def parse_limits(text: str) -> Limits:
    """:class:`Limits` from ``name=value,...`` (unknown names and bad values: InputError)."""
    from polis.server.http.rates import parse_rate

    known = {f.name: f for f in fields(Limits)}
    changes: dict[str, Any] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, _, raw = part.partition("=")
        name, raw = name.strip(), raw.strip()
        if name not in known:
            raise InputError(f"unknown limit {name!r}: choose from {', '.join(known)}")
        default = getattr(Limits(), name)
        try:
            if isinstance(default, str):
                parse_rate(raw)
                changes[name] = raw
            else:
                changes[name] = type(default)(raw)
        except ValueError:
            raise InputError(f"bad value for limit {name}: {raw!r}") from None
    return Limits(**changes)
