"""A worker that finishes a task queued through the outbox deletes its ``PendingTask`` row.

What it does: on Celery's ``task_success``, reads the ``pending_task_id`` header that
``config.tasks.enqueue`` put on the message and deletes that row. A task that failed keeps its
row, so the sweep queues it again once it is due.

What it does not do: anything for tasks queued without the header (beat's, ``task.delay``).
"""

from __future__ import annotations

from celery.signals import task_success

HEADER = "pending_task_id"


@task_success.connect(dispatch_uid="outbox_task_success")
def delete_finished_pending_task(sender=None, **kwargs) -> None:
    request = getattr(sender, "request", None)
    pending_task_id = getattr(request, HEADER, None) if request is not None else None
    if pending_task_id is None and request is not None:
        pending_task_id = (getattr(request, "headers", None) or {}).get(HEADER)
    if pending_task_id is None:
        return
    from outbox.models import PendingTask

    PendingTask.objects.filter(pk=pending_task_id).delete()
