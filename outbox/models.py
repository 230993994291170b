"""``PendingTask``: one queued task that no worker has finished yet.

What it does: a row per ``config.tasks.enqueue`` call on a real broker, written before the task
is handed to the broker and deleted by the worker when the task succeeds (``outbox.signals``).
While a row exists its task may still be queued, running, or lost: ``due_at`` says when the
sweep may queue it again (``config.tasks.sweep_pending_tasks_task``), ``attempts`` how often it
was queued, ``last_error`` why the broker refused it last (empty when it took it).

What it does not do: hold results, or order tasks: tasks queued through the outbox are
idempotent (they recompute from the database), so running one twice is harmless and a
re-queued task may overtake a newer one.

Terms: *due* — ``due_at`` has passed: the task was not finished in the time a healthy worker
needs, so it is taken as lost.
"""

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
