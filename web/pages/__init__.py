"""The player pages (and the home page): views over every app's selectors; routes in ``urls.py``."""
