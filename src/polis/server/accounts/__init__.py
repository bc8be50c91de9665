"""Optional accounts: names and passwords (argon2id) or passkeys, server-side sessions with
CSRF protection, seats bound to accounts ("My games" on every device), ratings and results,
and what people say about each other (challenges, blocks, mutes, reports).

Guests play as before: nothing at a table needs an account, except a rated game.
"""
