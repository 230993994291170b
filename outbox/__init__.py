"""The outbox: tasks queued after a commit, kept in the database until a worker has run them.

What it does: holds ``PendingTask`` rows, written by ``config.tasks.enqueue`` and removed when a
worker finishes the task; ``config.tasks.sweep_pending_tasks_task`` re-queues the ones left over
(a broker that hung or restarted, a worker killed mid-task). See ``outbox.models``.

What it does not do: import any other app of the project (it is the floor, beside ``config``).
"""
