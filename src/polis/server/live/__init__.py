"""Live games: rooms and the pipeline every change goes through, the hub that holds them,
presence, the bus between processes, state messages and the upkeep."""
