"""The wire contract as pydantic adapters and as one JSON Schema, both built from the types of
:mod:`~polis.server.wire.to_client`, :mod:`~polis.server.wire.from_client`,
:mod:`~polis.server.wire.bus`, each game's ``wire`` part and the HTTP request bodies.

Every object of the contract is closed (a key its type does not name is an error) and
strict (``"1"`` is no number, ``1`` no boolean): the schema says so (``additionalProperties:
false``), and the adapters, which the checks use (:mod:`~polis.server.wire.check`), validate
so. The ``state`` message's view and choices are those of the games served: the adapters
are built per game; the schema's ``StateMessage`` holds every installed game's types, told
apart by the view's ``game``.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import inspect
import operator
import re
import textwrap
from collections.abc import Iterable, Iterator, Mapping
from importlib.metadata import entry_points
from typing import Annotated, Any, get_args, get_origin

from pydantic import Field, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode
from typing_extensions import is_typeddict

from polis.core.errors import InputError
from polis.core.parts import WIRE
from polis.core.protocol import Game
from polis.server.wire.bot import BotAnswer, BotEvent
from polis.server.wire.bus import BusBye, BusChange, BusChat, BusRematch, BusSeats, BusTakeback
from polis.server.wire.events import EventAnswer
from polis.server.wire.from_client import (
    ClientChat,
    ClientHello,
    ClientMove,
    ClientPing,
    ClientTakeback,
    ClientTakebackAnswer,
)
from polis.server.wire.to_client import (
    CONFIG,
    ChatMessage,
    ErrorBody,
    ErrorMessage,
    PongMessage,
    RematchMessage,
    SeatsMessage,
    StateMessage,
    StoreBackMessage,
    StoreUnavailableMessage,
    TakebackDeclinedMessage,
    TakebackDoneMessage,
    TurnPush,
    WelcomeMessage,
)

#: The draft of the schema pydantic writes.
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def tagged(types: Iterable[Any], key: str) -> Any:
    """The union of ``types`` (TypedDicts), told apart by their ``key`` (a ``Literal``)."""
    found = tuple(types)
    if len(found) == 1:
        return found[0]
    return Annotated[union(found), Field(discriminator=key)]


def union(types: Iterable[Any]) -> Any:
    """``A | B | ...`` of ``types``, made at run time."""
    return functools.reduce(operator.or_, types)


def wire_types(game: Game) -> tuple[Any, Any]:
    """The types of ``game``'s view and choices JSON (its ``wire`` part); an open object for
    a game without one."""
    try:
        part = game.plugin(WIRE)
    except InputError:
        return dict[str, Any], dict[str, Any]
    return part.VIEW, part.CHOICES


def state_type(games: Iterable[Game]) -> Any:
    """The ``state`` message of ``games``: their views told apart by ``game``."""
    views: list[Any] = []
    choices: list[Any] = []
    for game in games:
        view, choice = wire_types(game)
        views.append(view)
        if choice is not None and choice not in choices:
            choices.append(choice)
    view_type = tagged(views, "game") if all(map(_tagged_view, views)) else union(views)
    choice_type: Any = union(choices) if choices else None
    return StateMessage[view_type, choice_type]  # type: ignore[valid-type]


def _tagged_view(view: Any) -> bool:
    return "game" in getattr(view, "__annotations__", {})


def to_client_type(games: Iterable[Game]) -> Any:
    """Every message a client gets on the WebSocket, for a server serving ``games``."""
    store = tagged([StoreUnavailableMessage, StoreBackMessage], "status")
    return tagged(
        [
            WelcomeMessage,
            state_type(games),
            SeatsMessage,
            ChatMessage,
            ErrorMessage,
            store,
            TakebackDoneMessage,
            TakebackDeclinedMessage,
            RematchMessage,
            PongMessage,
        ],
        "type",
    )


FROM_CLIENT = tagged(
    [ClientHello, ClientMove, ClientTakeback, ClientTakebackAnswer, ClientChat, ClientPing], "type"
)
BUS = tagged([BusChange, BusSeats, BusTakeback, BusChat, BusRematch, BusBye], "t")
#: A line of the bot API's event stream (:mod:`polis.server.wire.bot`).
BOT_EVENT = tagged(get_args(BotEvent), "type")


def adapter(kind: Any) -> TypeAdapter[Any]:
    """A pydantic adapter of ``kind`` (a union, or a TypedDict with :data:`CONFIG` of its
    own: pydantic takes no config for it) read as the contract reads every type."""
    if is_typeddict(kind):
        return TypeAdapter(kind)
    return TypeAdapter(kind, config=CONFIG)


@functools.cache
def to_client_adapter(game: Game | None = None) -> TypeAdapter[Any]:
    """The adapter of every message to a client of ``game`` (None: of any installed game)."""
    return adapter(to_client_type(installed_games() if game is None else [game]))


@functools.cache
def from_client_adapter() -> TypeAdapter[Any]:
    return adapter(FROM_CLIENT)


@functools.cache
def bus_adapter() -> TypeAdapter[Any]:
    return adapter(BUS)


@functools.cache
def bot_event_adapter() -> TypeAdapter[Any]:
    return adapter(BOT_EVENT)


@functools.cache
def bot_answer_adapter(kind: Any) -> TypeAdapter[Any]:
    """The adapter of one of the bot API's answers (:data:`~polis.server.wire.bot.BotAnswer`)."""
    return adapter(kind)


@functools.cache
def error_body_adapter() -> TypeAdapter[Any]:
    return adapter(ErrorBody)


@functools.cache
def push_adapter() -> TypeAdapter[Any]:
    return adapter(TurnPush)


def installed_games() -> list[Game]:
    """The games installed as ``polis.games`` entry points (never those only registered at
    run time, as the tests' toy game): the committed schema is the same everywhere."""
    from polis.core.registry import get_game

    names = sorted({point.name for point in entry_points(group="polis.games")})
    return [get_game(name) for name in names]


class _Generator(GenerateJsonSchema):
    """pydantic's JSON Schema without a title on every field (its name already says it)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


#: The roots of the contract: (the name of its definition, the type, what it is).
def roots(games: Iterable[Game]) -> list[tuple[str, Any, str]]:
    return [
        ("ToClient", to_client_type(games), "A message the server sends on the WebSocket."),
        ("FromClient", FROM_CLIENT, "A message a client sends on the WebSocket."),
        ("BusMessage", BUS, "A message between server processes (Redis)."),
        ("ErrorBody", ErrorBody, "The body of every HTTP answer other than 2xx."),
        ("TurnPush", TurnPush, "The payload of a turn notification (Web Push)."),
        ("BotEvent", BOT_EVENT, "A line of the bot API's event stream (`GET /api/bot/stream`)."),
        ("BotAnswer", BotAnswer, "The body of a 2xx answer of the bot API and the token routes."),
        ("EventAnswer", EventAnswer, "The body of a 2xx answer of the event routes."),
    ]


def contract_schema(
    games: Iterable[Game] | None = None,
    requests: Mapping[str, type[Any]] | None = None,
) -> dict[str, Any]:
    """The whole contract as one JSON Schema: every type under ``$defs``, the roots
    (:func:`roots`) among them, the HTTP request bodies by route under
    ``x-http-requests``; the schema itself accepts anything one of the roots accepts."""
    from polis.server.wire.http import request_models

    served = installed_games() if games is None else list(games)
    bodies = request_models() if requests is None else dict(requests)
    named = roots(served)
    inputs: list[tuple[str, JsonSchemaMode, TypeAdapter[Any]]] = [
        (name, "validation", adapter(kind)) for name, kind, _what in named
    ]
    inputs += [(route, "validation", TypeAdapter(model)) for route, model in bodies.items()]
    mapping, top = TypeAdapter.json_schemas(
        inputs, ref_template="#/$defs/{model}", schema_generator=_Generator
    )
    defs: dict[str, Any] = dict(top.get("$defs", {}))
    for name, _kind, what in named:
        schema = mapping[(name, "validation")]
        if schema.get("$ref") == f"#/$defs/{name}":
            defs[name] = {**defs[name], "description": what}  # a TypedDict of that name
        else:
            defs[name] = {"description": what, **schema}
    http = {route: mapping[(route, "validation")] for route in bodies}
    schema = {
        "$schema": DIALECT,
        "title": "The polis server's wire contract",
        "description": (
            "Generated from the types of polis.server.wire and the games' wire parts by "
            "`python -m polis.server.wire.docs`; do not edit. See docs/server-api.md."
        ),
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name, _kind, _what in named],
        "x-http-requests": http,
        "$defs": dict(sorted(defs.items())),
    }
    renamed = _renamed(schema)
    models = {m for model in bodies.values() for m in _models_in(model)}
    _described(renamed["$defs"], served, models)
    plain: dict[str, Any] = _plain(renamed)
    return plain


def _described(
    defs: dict[str, Any], games: Iterable[Game], models: Iterable[type[Any]] = ()
) -> None:
    """Give every field the docstring its TypedDict, or a TypedDict it extends, writes under it
    (pydantic reads only the class's own)."""
    from polis.server.wire import bot, bus, events, from_client, to_client

    modules: list[Any] = [to_client, from_client, bus, bot, events]
    for game in games:
        with contextlib.suppress(InputError):
            modules.append(game.plugin(WIRE))
    classes = {
        value.__name__: value
        for module in modules
        for value in vars(module).values()
        if is_typeddict(value)
    }
    classes |= {model.__name__: model for model in models}
    for name, node in defs.items():
        cls = classes.get(name)
        if cls is None:
            continue
        docs = field_docs(cls)
        for field, spec in node.get("properties", {}).items():
            if "description" not in spec and field in docs:
                spec["description"] = docs[field]


def field_docs(cls: Any) -> dict[str, str]:
    """What the source says of each field of ``cls`` (a TypedDict or a pydantic model) and of
    the classes it extends: the docstring under the field, else the ``#:`` comment above it."""
    docs: dict[str, str] = {}
    for base in [*getattr(cls, "__orig_bases__", ()), *getattr(cls, "__bases__", ())]:
        origin = get_origin(base) or base
        if origin is not cls and (is_typeddict(origin) or _model(origin)):
            docs |= field_docs(origin)
    try:
        lines, _start = inspect.getsourcelines(cls)
    except (OSError, TypeError):  # made by a call (no source of its own)
        return docs
    source = textwrap.dedent("".join(lines))
    tree = ast.parse(source)
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    text = source.splitlines()
    for index, field in enumerate(body):
        if not (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)):
            continue
        after = body[index + 1] if index + 1 < len(body) else None
        if (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[field.target.id] = inspect.cleandoc(after.value.value)
            continue
        comment: list[str] = []
        row = field.lineno - 2
        while row >= 0 and text[row].strip().startswith("#:"):
            comment.insert(0, text[row].strip().removeprefix("#:").strip())
            row -= 1
        if comment:
            docs[field.target.id] = " ".join(comment)
    return docs


def _models_in(model: type[Any]) -> Iterator[type[Any]]:
    """``model`` and the models its fields hold, at any depth."""
    yield model
    for field in getattr(model, "model_fields", {}).values():
        for inner in _annotations(field.annotation):
            if _model(inner):
                yield from _models_in(inner)


def _annotations(kind: Any) -> Iterator[Any]:
    yield kind
    for arg in get_args(kind):
        yield from _annotations(arg)


def _model(cls: Any) -> bool:
    from pydantic import BaseModel

    return isinstance(cls, type) and issubclass(cls, BaseModel) and cls is not BaseModel


_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


def _plain(node: Any, key: str = "") -> Any:
    """Every description in plain words: Sphinx roles and double backquotes as single
    backquotes (Markdown's code), the lines of a paragraph joined."""
    if isinstance(node, dict):
        return {k: _plain(v, k) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(item) for item in node]
    if key == "description" and isinstance(node, str):
        text = _ROLE.sub(r"`\1`", node).replace("``", "`")
        return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))
    return node


def _renamed(schema: dict[str, Any]) -> dict[str, Any]:
    """Definitions pydantic named after a generic's arguments (``StateMessage_Annotated_...``)
    renamed to their title, with every reference to them."""
    defs = schema["$defs"]
    renames = {
        key: value["title"]
        for key, value in defs.items()
        if isinstance(value.get("title"), str)
        and key != value["title"]
        and value["title"] not in defs
    }
    if not renames:
        return schema

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {key: walk(value) for key, value in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        if isinstance(node, str) and node.startswith("#/$defs/"):
            name = node.removeprefix("#/$defs/")
            return f"#/$defs/{renames.get(name, name)}"
        return node

    walked: dict[str, Any] = walk(schema)
    walked["$defs"] = dict(
        sorted((renames.get(key, key), value) for key, value in walked["$defs"].items())
    )
    return walked
