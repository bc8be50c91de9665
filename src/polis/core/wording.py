"""Catalogues in ICU MessageFormat, read in Python as the browser reads them.

Each game words its events, prompts and scoring-pad rows once, in its web catalogues
(``polis/games/<game>/web/i18n/<lang>.json``, package data); the terminal's own words, which
name no game, are in ``polis/games/i18n/<lang>.json`` (:func:`polis.games.text.game_words`
reads both). Messages use ICU MessageFormat: ``{name}`` arguments, and
``plural`` (CLDR rules: Polish one/few/many), ``selectordinal`` and ``select``. The browser
formats them with intl-messageformat (``static/js/i18n.js``); here pyicumessageformat parses
them and Babel's CLDR data picks the plural form, so both sides give the same text (the tests
compare them on sample events). A simple argument is its value as text, as in the browser;
``#`` and ``{n, number}`` are numbers in the language's format.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Any

#: Every language a catalogue must have (the browser's languages, in its order).
LANGUAGES = ("en", "de", "pl", "it")
DEFAULT = "en"


class WordingError(ValueError):
    """A message that does not parse, or that asks for an argument it was not given."""


def pick_language(asked: str | None = None) -> str:
    """The language to use: ``asked`` if given, else ``POLIS_LANG``, else the locale's
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English. Raises on an unknown ``asked``."""
    if asked:
        code = asked.strip().lower()
        if code not in LANGUAGES:
            raise WordingError(f"no language {asked!r}: choose one of {', '.join(LANGUAGES)}")
        return code
    for var in ("POLIS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        code = value[:2].lower()
        if code in LANGUAGES:
            return code
        if value and var == "POLIS_LANG":
            raise WordingError(f"POLIS_LANG={value}: choose one of {', '.join(LANGUAGES)}")
    return DEFAULT


@cache
def _parser() -> Any:
    from pyicumessageformat import Parser  # type: ignore[import-untyped]

    # tags stay text (the browser's formatter is told to ignore them too)
    return Parser({"allow_tags": False, "require_other": True})


@lru_cache(maxsize=8192)
def parse(message: str) -> tuple[Any, ...]:
    """The message's syntax tree (pyicumessageformat's), cached."""
    try:
        return tuple(_parser().parse(message))
    except Exception as exc:  # the parser raises SyntaxError and others
        raise WordingError(f"not ICU MessageFormat: {message!r} ({exc})") from exc


@cache
def _locale(lang: str) -> Any:
    from babel import Locale

    return Locale.parse(lang)


def plural_form(lang: str, n: float, ordinal: bool = False) -> str:
    """CLDR's plural category of ``n`` in ``lang`` (``one``, ``few``, ``many``, ``other`` ...)."""
    locale = _locale(lang)
    form: str = locale.ordinal_form(n) if ordinal else locale.plural_form(n)
    return form


#: Languages whose CLDR ``minimumGroupingDigits`` is 2 (``1000`` but ``12 345``), which the
#: browser's Intl.NumberFormat follows and Babel's number patterns do not say.
SPARSE_GROUPING = frozenset({"pl", "it", "es", "pt"})


def number(value: float, lang: str) -> str:
    """A number as the language writes it (``1.000`` in German), as Intl.NumberFormat does."""
    from babel.numbers import format_decimal

    group = not (lang in SPARSE_GROUPING and abs(value) < 10000)
    return str(format_decimal(value, locale=_locale(lang), group_separator=group))


def names_list(names: Sequence[str], lang: str) -> str:
    """``A, B and C`` in the language (CLDR's list pattern, as Intl.ListFormat gives it)."""
    from babel.lists import format_list

    return str(format_list(list(names), locale=_locale(lang))) if names else ""


def arguments(message: str) -> dict[str, str]:
    """Every argument the message uses, with its type (``""`` for a simple one)."""
    found: dict[str, str] = {}

    def walk(nodes: Sequence[Any]) -> None:
        for node in nodes:
            if isinstance(node, dict):
                if not node.get("hash"):
                    found.setdefault(node["name"], node.get("type", ""))
                for sub in node.get("options", {}).values():
                    walk(sub)

    walk(parse(message))
    return found


def format_message(message: str, params: Mapping[str, Any], lang: str) -> str:
    """``message`` with its arguments filled from ``params``, in ``lang``."""
    return _render(parse(message), params, lang, None)


def _text(value: Any) -> str:
    """A simple argument as the browser shows it (``String(value)``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _render(nodes: Sequence[Any], params: Mapping[str, Any], lang: str, hashed: Any) -> str:
    out: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
            continue
        if node.get("hash"):
            out.append(number(hashed, lang))
            continue
        name, kind = node["name"], node.get("type")
        if name not in params:
            raise WordingError(f"no value for {{{name}}}")
        value = params[name]
        if kind is None:
            out.append(_text(value))
        elif kind == "number":
            out.append(number(value, lang))
        elif kind in ("plural", "selectordinal"):
            options = node["options"]
            shown = value - node.get("offset", 0)
            exact = f"={value}"
            if exact in options:
                chosen = options[exact]
            else:
                form = plural_form(lang, shown, ordinal=kind == "selectordinal")
                chosen = options.get(form, options["other"])
            out.append(_render(chosen, params, lang, shown))
        elif kind == "select":
            options = node["options"]
            out.append(_render(options.get(_text(value), options["other"]), params, lang, hashed))
        else:
            raise WordingError(f"{{{name}, {kind}}}: polis formats no {kind} arguments")
    return "".join(out)


@cache
def load(package: str, folder: str, lang: str) -> dict[str, str]:
    """The catalogue ``<folder>/<lang>.json`` of ``package`` (package data), ``{}`` if none."""
    path = resources.files(package).joinpath(*folder.split("/"), f"{lang}.json")
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


class Words:
    """A translator: ``say(key, **params)`` formats the key's message in one language.

    Catalogues are looked up in order, the chosen language first and English after it (as
    the browser falls back); a key found nowhere is returned as it is (the tests make sure
    none is missing).
    """

    __slots__ = ("catalogues", "fallbacks", "lang")

    def __init__(self, lang: str, sources: Sequence[tuple[str, str]]) -> None:
        self.lang = lang
        self.catalogues = [load(package, folder, lang) for package, folder in sources]
        self.fallbacks = [load(package, folder, DEFAULT) for package, folder in sources]

    def message(self, key: str) -> str | None:
        """The key's message in this language (or English), unformatted."""
        for catalogue in (*self.catalogues, *self.fallbacks):
            if key in catalogue:
                return catalogue[key]
        return None

    def __call__(self, key: str, params: Mapping[str, Any] | None = None, /, **more: Any) -> str:
        """The key's message filled from ``params`` and keyword arguments."""
        text = self.message(key)
        if text is None:
            return key
        return format_message(text, {**(params or {}), **more}, self.lang)

    def names(self, names: Sequence[str]) -> str:
        """Names joined as the language lists them."""
        return names_list(names, self.lang)


def say_reason(say: Words, reason: Mapping[str, Any]) -> str:
    """A reason (:data:`polis.core.parts.Reason`: ``{"key", "params"}``, a param itself a
    reason where nested) in ``say``'s language, its nested reasons formatted first, as the
    browser's review does."""
    params = {
        name: say_reason(say, value) if isinstance(value, Mapping) else value
        for name, value in reason.get("params", {}).items()
    }
    return say(reason["key"], params)


@cache
def words(lang: str, *sources: tuple[str, str]) -> Words:
    """The (cached) translator of ``lang`` over the catalogues ``(package, folder)``."""
    return Words(lang, sources)


__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "WordingError",
    "Words",
    "arguments",
    "format_message",
    "load",
    "names_list",
    "parse",
    "pick_language",
    "plural_form",
    "say_reason",
    "words",
]
