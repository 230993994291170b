"""``manage.py load_demo``."""
