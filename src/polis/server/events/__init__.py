"""Events (tournaments): Swiss and round-robin rounds paired automatically, their tables made
and their results kept (:mod:`~polis.server.events.runner`); pure pairing
(:mod:`~polis.server.events.pairing`) and standings (:mod:`~polis.server.events.standings`)."""
