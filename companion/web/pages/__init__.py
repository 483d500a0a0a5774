"""The web pages, as blueprints."""
