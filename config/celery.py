"""The Celery application of Jink.

What it does: creates the app, reads every ``CELERY_*`` setting from Django's settings, and finds
the tasks in each installed app's ``tasks`` module and in ``config.tasks``. Without ``REDIS_URL``
the settings make tasks run in process (eager); with it, tasks go through Redis to real workers
(``celery -A config worker -Q celery,celery.standings``: the default queue and the standings
lane, see ``CELERY_TASK_ROUTES``) and ``celery -A config beat`` runs the periodic ones.

Once a worker (or a prefork child) has started, its start-up heap is frozen out of the garbage
collector's full passes (``config.heap``).

What it does not do: define tasks (apps do, in their ``tasks.py``).
"""

import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

from config.heap import freeze_startup_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("jink")
app.config_from_object("django.conf:settings", namespace="CELERY")


def _task_packages() -> list[str]:
    from django.apps import apps

    return [app_config.name for app_config in apps.get_app_configs()] + ["config"]


app.autodiscover_tasks(_task_packages)


@worker_ready.connect
def _freeze_when_ready(**_) -> None:
    freeze_startup_heap()


@worker_process_init.connect
def _freeze_in_each_child(**_) -> None:
    freeze_startup_heap()
