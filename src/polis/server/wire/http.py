"""The HTTP side of the wire contract: the request bodies by route, and the error body.

Request bodies are the routes' pydantic models (:class:`polis.server.http.inputs.Body`: a
field they do not name is refused with 422), found on the routes themselves, so a new route
with a body is in the contract without being listed anywhere. Every answer other than 2xx
has the body :class:`~polis.server.wire.to_client.ErrorBody`, built from
:meth:`polis.server.errors.ServerError.to_message` by the app's handlers and the body-size
limit alike.
"""

from __future__ import annotations

from pydantic import BaseModel

from polis.server.wire.to_client import ErrorBody, ErrorMessage


def request_models() -> dict[str, type[BaseModel]]:
    """Every route that takes a body, as ``"METHOD /path"``, and its model (in the routers'
    order)."""
    from fastapi.routing import APIRoute

    from polis.server.http.routes import ROUTERS

    found: dict[str, type[BaseModel]] = {}
    for router in ROUTERS:
        for route in router.routes:
            if not isinstance(route, APIRoute):
                continue
            for param in route.dependant.body_params:
                model = param.field_info.annotation
                if isinstance(model, type) and issubclass(model, BaseModel):
                    for method in sorted(route.methods or ()):
                        found[f"{method} {route.path}"] = model
    return found


def error_body(error: ErrorMessage) -> ErrorBody:
    """The body of an HTTP refusal."""
    return {"error": error}


__all__ = ["ErrorBody", "error_body", "request_models"]
