"""ASGI entry point for Jink (not used by `make serve`, which runs gunicorn with WSGI)."""

import os

from django.core.asgi import get_asgi_application

from config.heap import freeze_startup_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()
freeze_startup_heap()  # config.heap: the loaded app out of the collector's full passes
