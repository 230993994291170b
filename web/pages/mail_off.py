"""The page a results message links to: turn the results after each event off.

What it does: ``results_mail_off`` reads the link's signed token (``accounts.mail_settings``);
a GET asks to confirm (a link followed by a mail scanner must not unsubscribe anybody), the POST
stores the choice on the account and says so. A forged or garbled token is a 404. No login: the
token is the proof.

What it does not do: send anything, or turn anything else off.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from accounts.mail_settings import turn_off_results_mail, user_of_token


@require_http_methods(["GET", "HEAD", "POST"])
def results_mail_off(request: HttpRequest, token: str) -> HttpResponse:
    user = user_of_token(token)
    if user is None:
        raise Http404("No such link.")
    done = request.method == "POST"
    if done:
        turn_off_results_mail(user=user)
    return render(request, "pages/mail_off.html", {"done": done})
