"""The outbox's rows: ``PendingTask`` (a queued task no worker has finished yet) and
``Announcement`` (a committed change whose subscribers have not all run yet).

What it does:
- ``PendingTask``: a row per ``config.tasks.enqueue`` call on a real broker, written before the
  task is handed to the broker and deleted by the worker when the task succeeds
  (``outbox.signals``). While a row exists its task may still be queued, running, or lost:
  ``due_at`` says when the sweep may queue it again (``config.tasks.sweep_pending_tasks_task``),
  ``attempts`` how often it was queued, ``last_error`` why the broker refused it last.
- ``Announcement``: written by ``config.announce`` in the same transaction as the change it
  describes, when a subscriber has work for it (a finished game, a decided match, a drawn round,
  a stored settle-up version; never a plain hand), and deleted after the commit once every
  subscriber ran. ``config.tasks.sweep_announcements_task`` delivers again the rows left: a
  process killed between the commit and its subscribers, a subscriber that raised.

What it does not do: hold results, or order tasks: tasks queued through the outbox are
idempotent (they recompute from the database), so running one twice is harmless and a
re-queued task may overtake a newer one; the subscribers of an announcement are idempotent too
(a webhook's event id is derived from the announcement's ``key``).

Terms: *due* — ``due_at`` has passed: the work was not finished in the time a healthy process
needs, so it is taken as lost.
"""

import uuid

from django.db import models


class PendingTask(models.Model):
    task = models.CharField(max_length=200, help_text="The Celery task's registered name.")
    args = models.JSONField(default=list, blank=True)
    kwargs = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField(db_index=True, help_text="When the sweep may queue it again.")
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["due_at", "id"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)!r} (due {self.due_at:%H:%M:%S})"


class Announcement(models.Model):
    """A change whose subscribers still have work to do: written in the change's own transaction
    (``config.announce``), deleted once every subscriber ran. ``key`` names the change for
    good: the subscribers derive ids from it (a webhook's event id), so a second delivery of the
    same row stores nothing new."""

    key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    setting = models.CharField(max_length=100, help_text="The setting listing the subscribers.")
    change_type = models.CharField(
        max_length=200, blank=True, help_text="The change's dataclass (dotted path)."
    )
    change = models.JSONField(help_text="The change's fields.")
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField(db_index=True, help_text="When the sweep may deliver it.")
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["due_at", "id"]

    def __str__(self) -> str:
        return f"{self.setting}: {self.change_type} (due {self.due_at:%H:%M:%S})"
