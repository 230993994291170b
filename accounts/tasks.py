"""Celery tasks of accounts: send an e-mail verification link.

What it does: ``send_verification_mail_task(user_id)`` sends the account's verification link
(``accounts.verification.send_verification_mail``), queued after the commit of a sign-up or of a
resend from the account page (``config.tasks.enqueue``). Safe to run twice: a second message
carries a second valid link.

What it does not do: decide who gets one (``accounts.verification``).
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from accounts.verification import send_verification_mail


@shared_task(
    name="accounts.send_verification_mail_task",
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def send_verification_mail_task(user_id: int) -> bool:
    return send_verification_mail(user_id)
