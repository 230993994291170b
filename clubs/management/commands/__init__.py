"""Commands: ``load_demo``."""
