"""What an account wants by e-mail: its language, and the results after each event on or off.

What it does: ``mail_language(user)`` — the account's language for its messages (recorded by
``remember_language`` when the account uses the site's language switch), else the site's
default; ``results_mail_off(user_ids)`` — which of these accounts turned the results off;
``results_mail_token(user)`` signs the link of a message that turns them off (no expiry: a link in
an old message still works), ``user_of_token`` reads it back (None when forged or garbled), and
``turn_off_results_mail`` stores the choice (again changes nothing).

What it does not do: send anything (``settlements.mails``) or show the page that confirms
(``web.pages.mail_off``).

Terms: *token* — the account's id signed (``django.core.signing.Signer``, the same token every
time for one account), salted for this one purpose, so a
token for anything else never turns the results off.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing

from accounts.models import MailSettings

TOKEN_SALT = "jink.accounts.results-mail-off"


def mail_language(user) -> str:
    """The account's language for its messages, else the site's default."""
    row = MailSettings.objects.filter(user=user).only("language").first()
    known = {code for code, _name in settings.LANGUAGES}
    return row.language if row is not None and row.language in known else settings.LANGUAGE_CODE


def remember_language(*, user, language: str) -> None:
    """Keep the language the account chose on the site for its messages."""
    if language in {code for code, _name in settings.LANGUAGES}:
        MailSettings.objects.update_or_create(user=user, defaults={"language": language})


def results_mail_off(user_ids) -> set[int]:
    """The accounts among ``user_ids`` that turned the results off."""
    return set(
        MailSettings.objects.filter(user_id__in=list(user_ids), results_mail=False).values_list(
            "user_id", flat=True
        )
    )


def results_mail_token(user_id: int) -> str:
    return signing.Signer(salt=TOKEN_SALT).sign(str(user_id))


def user_of_token(token: str):
    """The account the token names, or None (forged, garbled, or the account is gone)."""
    from django.contrib.auth import get_user_model

    try:
        user_id = signing.Signer(salt=TOKEN_SALT).unsign(token)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=int(user_id)).first() if user_id.isdigit() else None


def turn_off_results_mail(*, user) -> MailSettings:
    settings_row, _created = MailSettings.objects.update_or_create(
        user=user, defaults={"results_mail": False}
    )
    return settings_row
