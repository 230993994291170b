"""Tasks of the project itself (not of any app).

What it does: ``ping_task`` answers "pong"; it proves a worker is consuming the queue end to end
(tests/test_celery.py runs it through a real worker on Redis).

What it does not do: touch the database or anything else; it is safe to run any number of times.
"""

from celery import shared_task


# No retries: there is nothing transient to wait out, and a lost ping is just sent again.
@shared_task(name="config.ping_task")
def ping_task() -> str:
    return "pong"
