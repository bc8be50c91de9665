"""Where the server's bots think: the worker pool, the worker processes, and the driver
that plays a room's bot seats."""
