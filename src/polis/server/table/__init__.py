"""What a table offers besides the rules: clocks and stand-ins, chat, take-backs, hints and
reviews, turn notifications, open seats, seat tokens and deals."""
