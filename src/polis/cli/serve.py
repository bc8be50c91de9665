"""``polis serve``: the web app (every game, hot-seat, invite links, bots) on one port.

Everything a person can get wrong (the port, the database URL, its password, a missing
folder) is checked before the "open http://..." line is printed, and each failure is one line
on stderr with exit code 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import threading
import time
import webbrowser
from pathlib import Path
from typing import Annotated, Any

import typer

from polis.cli.common import fail, user_errors
from polis.cli.extras import PSYCOPG, RAY, REDIS, SERVER, Package, require
from polis.core.errors import InputError

#: The databases the store is written for (SQLAlchemy backend names).
BACKENDS = ("sqlite", "postgresql")
URL_HINT = "sqlite:///path/to/file.db or postgresql://user:password@host/database"
#: Seconds to wait for a database server before giving up.
CONNECT_TIMEOUT = 5


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, handed to the server as is: checking the port and then
    binding it again could fail in between."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise InputError(
            f"--host {host!r} is not an address of this machine ({exc.strerror})"
        ) from None
    address_family, kind, proto, _, address = infos[0]
    sock = socket.socket(address_family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        hint = (
            " (another program uses it: try another --port)"
            if exc.errno == errno.EADDRINUSE
            else ""
        )
        raise InputError(f"cannot listen on {host} port {port}: {exc.strerror}{hint}") from None
    sock.set_inheritable(True)
    return sock


def _first_line(exc: BaseException, secret: str | None) -> str:
    """The driver's own words (not SQLAlchemy's wrapper), one line, without the password."""
    orig = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(orig).splitlines() if line.strip()]
    text = " ".join(lines[:2]) or type(orig).__name__
    return text.replace(secret, "***") if secret else text


def check_database(url: str) -> str:
    """Open ``url`` once, as the server will; return it with the password hidden.

    InputError (one line) for a URL that is not one, a database polis cannot use, a SQLite
    file in a folder that does not exist, a server that cannot be reached or refuses the
    user or password.
    """
    from sqlalchemy import create_engine, make_url
    from sqlalchemy.exc import ArgumentError

    from polis.server.store.games import normalise_url

    try:
        shown = make_url(url).render_as_string(hide_password=True)
        parsed = make_url(normalise_url(url))
    except ArgumentError:
        raise InputError(f"--db {url!r} is not a database URL: use {URL_HINT}") from None
    backend = parsed.get_backend_name()
    if backend not in BACKENDS:
        raise InputError(
            f"--db {shown}: polis keeps its games in SQLite or PostgreSQL, not {backend!r} "
            f"(use {URL_HINT})"
        )
    options: dict[str, Any] = {}
    if backend == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            folder = Path(database).expanduser().parent
            if not folder.is_dir():
                raise InputError(f"--db {shown}: the folder {folder} does not exist")
    else:
        options["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT}
    try:
        engine = create_engine(parsed, **options)
        try:
            with engine.connect():
                pass
        finally:
            engine.dispose()
    except Exception as exc:  # any failure to open the database is the URL's, told in one line
        why = _first_line(exc, parsed.password if isinstance(parsed.password, str) else None)
        raise InputError(f"cannot open the database {shown}: {why}") from None
    return shown


def _postgres(url: str) -> bool:
    return url.startswith(("postgresql", "postgres:"))


def needed(url: str, redis: str | None, bots: str | None) -> list[Package]:
    """What the database at ``url``, a Redis URL and the bot backend need beyond the server
    extra."""
    wanted = (_postgres(url), PSYCOPG), (bool(redis), REDIS), (bots == "ray", RAY)
    return [package for asked, package in wanted if asked]


def options_needing(url: str, redis: str | None, bots: str | None) -> list[str]:
    """The options that ask for :func:`needed`'s packages, as a person types them."""
    wanted = (_postgres(url), "--db postgresql://..."), (bool(redis), "--redis")
    return [option for asked, option in (*wanted, (bots == "ray", "--bots ray")) if asked]


def check_redis(url: str) -> str:
    """Reach the Redis server at ``url`` once; return the URL with the password hidden."""
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        raise InputError(f"--redis {url!r} is not a Redis URL (redis://host:6379/0)") from None
    require("polis serve --redis", (REDIS,))
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=CONNECT_TIMEOUT)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # any failure to reach Redis is the URL's, told in one line
        raise InputError(f"cannot reach Redis at {shown}: {_first_line(exc, None)}") from None
    return shown


def start_app(create_app: Any, url: str, shown: str, bot_delay: float, config: Any = None) -> Any:
    """The web app on ``url``; creating its tables can still fail (a read-only file)."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        if config is None:
            return create_app(url, bot_delay=bot_delay)
        return create_app(url, bot_delay=bot_delay, config=config)
    except SQLAlchemyError as exc:
        raise InputError(f"cannot use the database {shown}: {_first_line(exc, None)}") from None


def guard_socket(sock: socket.socket) -> None:
    """Connections accepted on ``sock`` are aborted by the kernel when sent data stays
    unacknowledged (a client that stopped reading) for a minute (Linux only)."""
    option = getattr(socket, "TCP_USER_TIMEOUT", None)
    if option is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, option, 60_000)


def _open_when_ready(server: Any, url: str) -> None:
    """Open the browser once the server accepts connections (a thread; gives up after 30 s)."""

    def wait() -> None:
        deadline = time.monotonic() + 30
        while not getattr(server, "started", False):
            if time.monotonic() > deadline or getattr(server, "should_exit", False):
                return
            time.sleep(0.05)
        webbrowser.open(url)

    threading.Thread(target=wait, name="polis-open-browser", daemon=True).start()


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port, 1 to 65535.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///games.db or postgresql://user:pw@host/db.",
            show_default="a SQLite file in the user data directory, or $POLIS_DB",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(min=0, help="Seconds a bot waits before moving, so people can follow.")
    ] = 0.4,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the address in the web browser.")
    ] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address people use (https://polis.example.org): invite links use it.",
            show_default="the address each request reached, or $POLIS_PUBLIC_URL",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="redis://host:6379/0 shared by several polis serve processes on one "
            "PostgreSQL database.",
            show_default="none (one process), or $POLIS_REDIS_URL",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(help="Where bots think: process or ray.", show_default="process"),
    ] = None,
    bot_workers: Annotated[
        int | None, typer.Option(min=1, help="Bot worker processes.", show_default="2")
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="Address (or network) of a reverse proxy whose X-Forwarded-* headers are "
            "believed; repeat for several.",
            show_default="127.0.0.1 and ::1",
        ),
    ] = None,
) -> None:
    """Serve the web app: open the printed address in a browser.

    Example: polis serve --port 8000 --db postgresql://polis:secret@localhost/polis
    """
    if not 1 <= port <= 65535:
        fail(f"--port must be 1 to 65535, not {port}")
    with user_errors():
        require("polis serve", SERVER)
        import uvicorn

        from polis.server import create_app
        from polis.server.config import ServerConfig
        from polis.server.store.games import default_db_url

        url = db or default_db_url()
        redis = redis or os.environ.get("POLIS_REDIS_URL") or None
        bots = bots or os.environ.get("POLIS_BOTS") or None
        require(
            " ".join(["polis serve", *options_needing(url, redis, bots)]), needed(url, redis, bots)
        )

        config = ServerConfig.from_env(
            public_url=public_url,
            redis_url=redis,
            bot_backend=bots,
            bot_workers=bot_workers,
            bot_delay=bot_delay,
            trusted_proxies=tuple(trusted_proxy) if trusted_proxy else None,
            tune_gc=True,
        )
        sock = listen(host, port)
        try:
            shown = check_database(url)
            if config.redis_url:
                check_redis(config.redis_url)
            application = start_app(create_app, url, shown, bot_delay, config)
        except BaseException:
            sock.close()
            raise
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    address = f"http://{f'[{shown_host}]' if ':' in shown_host else shown_host}:{port}/"
    typer.echo(f"polis: games are kept in {shown}")
    typer.echo(f"polis: open {address} in your browser (Ctrl+C stops)")
    from polis.server.http.header_timeout import guarded_protocol

    guard_socket(sock)
    server = uvicorn.Server(
        uvicorn.Config(
            application,
            log_level="warning",
            ws_max_size=64 * 1024,
            # X-Forwarded-* are read by the app, from the trusted proxies only
            proxy_headers=False,
            http=guarded_protocol(config.limits.header_timeout),
            timeout_keep_alive=5,
            ws_ping_interval=20,
            ws_ping_timeout=20,
            # no compression: CPU per message matters more than bytes for a table's moves
            ws_per_message_deflate=False,
            timeout_graceful_shutdown=5,
        )
    )
    if open_browser:
        _open_when_ready(server, address)
    try:
        server.run(sockets=[sock])
    except OSError as exc:  # pragma: no cover - the socket is bound already
        fail(f"the server stopped: {exc.strerror or exc}")
    finally:
        sock.close()


def register(app: typer.Typer) -> None:
    app.command()(serve)
