"""The game store: its schema and migrations, the writer, the rows of clocks, chat and push
subscriptions, and riding through outages."""
