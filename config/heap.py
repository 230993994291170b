"""Keeping the start-up heap out of the garbage collector's full passes.

What it does: ``freeze_startup_heap`` collects once, then moves every object alive into the
collector's permanent generation (``gc.freeze``). Those are what importing the project leaves
behind — Django's apps, models, URL patterns and templates, DRF's serializers, the rules engine's
tables: about 150,000 objects — and they live as long as the process anyway. A full (generation 2)
collection walks every object it tracks, so before freezing each one cost about 90 ms on the
2-core machine, and it fell at random in whichever request or task crossed the collector's
threshold: in the bench's 500-entrant swiss, the follow-up of a round's last match took
130–210 ms longer in one round in three (``bench/bench_jobs.py``). After freezing, a full
collection walks only what was made since.

Called where a process has finished starting: the Celery worker when it is ready (the solo pool
runs tasks in that process) and in each prefork child as it starts (``config.celery``), and the
WSGI and ASGI applications once loaded.

What it does not do: turn the collector off (cycles made later are collected as before) or ever
free a frozen object (the collection first means nothing that was already garbage is kept).
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> int:
    """Collect, then freeze everything alive; returns how many objects are now frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
