"""No commands of clubs today: the demo loader (``load_demo``) is in ``web/management/commands``."""
