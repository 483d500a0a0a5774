"""The games: each one module (or package) and one entry point."""
