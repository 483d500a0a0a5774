"""The commands: every write goes through one of them."""
