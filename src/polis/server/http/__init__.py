"""The HTTP side: the app's assembly, routes, middleware, limits, request bodies and the
web clients' files."""
