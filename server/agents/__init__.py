"""Bot accounts: programs people register, challenged and playing over the Bot API (docs/bots.md)."""
