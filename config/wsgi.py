"""WSGI entry point (gunicorn config.wsgi) for Jink."""

import os

from django.core.wsgi import get_wsgi_application

from config.heap import freeze_startup_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
freeze_startup_heap()  # config.heap: the loaded app out of the collector's full passes
