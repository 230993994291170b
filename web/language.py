"""The pages' language switch (``/i18n/setlang/``): Django's ``set_language``, and the account's
language for its e-mails.

What it does: ``set_language`` answers as Django's does (the cookie, back to the page); when the
reader is logged in, the language they chose also becomes their account's language for the
messages the site sends them (``accounts.mail_settings.remember_language``: the results after
each event).

What it does not do: choose the language of a page (``LocaleMiddleware``: the cookie, else the
browser's ``Accept-Language``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.mail_settings import remember_language


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    response = django_set_language(request)
    if request.user.is_authenticated:
        remember_language(user=request.user, language=request.POST.get("language", ""))
    return response
