"""Quadropolis: rules engine (state, notation, set-up, views) and the exact scorer."""
