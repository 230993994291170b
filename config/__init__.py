"""The Django project of Jink: settings, URLs, the Celery app and the API's shared plumbing.

The Celery app is imported here so that ``shared_task`` tasks bind to it whenever Django starts.
"""

from config.celery import app as celery_app

__all__ = ("celery_app",)
