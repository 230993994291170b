"""Verifying an account's e-mail address before it gets results or settle-up mail.

What it does: ``verification_token(user)`` signs the account's id and its current address
(``django.core.signing``, salted for this one purpose, timestamped); ``verify_token(token)``
reads it back and records the address as verified (``MailSettings.verified_email`` and
``email_verified_at``), or says why not: ``"expired"`` (older than ``LINK_DAYS``), ``"invalid"``
(forged, garbled, for another purpose, for an account that is gone, or for an address the account
no longer has). ``queue_verification_mail(user)`` sends the message with the link after the
commit (task ``accounts.send_verification_mail_task``, through ``config.tasks.enqueue``);
``send_verification_mail`` is what the task does. ``is_verified(user)`` and
``unverified_among(user_ids)`` answer whether the account's current address is the verified one
(a changed address is unverified again); ``mail_refused(user_ids)`` is the one filter of results
and settle-up mail recipients: the accounts that turned them off or whose address is unverified.

What it does not do: limit how often a message is asked for (the account page's resend goes
through DRF's throttle, scope ``verify_email``; sign-ups through ``register``) or show pages.

Terms: *verified address*: the address the account's owner proved they read by following the
link; compared with the account's address without regard to case.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.mail_settings import mail_language, results_mail_off
from accounts.models import MailSettings
from config.tasks import enqueue

TOKEN_SALT = "jink.accounts.verify-email"
LINK_DAYS = 3


def verification_token(user) -> str:
    return signing.dumps({"u": user.pk, "e": user.email.lower()}, salt=TOKEN_SALT, compress=True)


def verify_token(token: str) -> tuple[str, object]:
    """``("verified", user)``, ``("expired", None)`` or ``("invalid", None)``."""
    try:
        claim = signing.loads(token, salt=TOKEN_SALT, max_age=LINK_DAYS * 24 * 3600)
    except signing.SignatureExpired:
        return "expired", None
    except signing.BadSignature:
        return "invalid", None
    if not isinstance(claim, dict) or not isinstance(claim.get("u"), int):
        return "invalid", None
    user = get_user_model().objects.filter(pk=claim["u"]).first()
    if user is None or not user.email or user.email.lower() != claim.get("e"):
        return "invalid", None
    MailSettings.objects.update_or_create(
        user=user, defaults={"verified_email": user.email, "email_verified_at": timezone.now()}
    )
    return "verified", user


def is_verified(user) -> bool:
    return bool(user.email) and not unverified_among([user.pk])


def unverified_among(user_ids) -> set[int]:
    """The accounts among ``user_ids`` whose current address is not the verified one."""
    ids = set(user_ids)
    rows = (
        get_user_model()
        .objects.filter(pk__in=ids)
        .values_list("pk", "email", "mail_settings__verified_email")
    )
    verified = {
        pk for pk, email, checked in rows if email and checked and email.lower() == checked.lower()
    }
    return ids - verified


def mail_refused(user_ids) -> set[int]:
    """The accounts among ``user_ids`` that get no results or settle-up mail: turned off, or an
    unverified address."""
    ids = set(user_ids)
    return results_mail_off(ids) | unverified_among(ids)


def queue_verification_mail(user) -> None:
    """After the commit, send ``user`` the verification link (nothing without an address)."""
    if user.email:
        user_id = user.pk
        transaction.on_commit(
            lambda: enqueue("accounts.send_verification_mail_task", user_id), robust=True
        )


def send_verification_mail(user_id: int) -> bool:
    """Send the link to the account's current address; False when there is none to verify."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not user.email or is_verified(user):
        return False
    link = settings.JINK_SITE_URL + reverse(
        "pages:verify_email", kwargs={"token": verification_token(user)}
    )
    with translation.override(mail_language(user)):
        context = {"user": user, "link": link, "days": LINK_DAYS}
        send_mail(
            subject=gettext("Confirm your e-mail address for Jink"),
            message=render_to_string("mails/verify_email.txt", context),
            from_email=None,
            recipient_list=[user.email],
        )
    return True
