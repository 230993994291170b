"""The console's dead webhook deliveries: what the club's endpoints never took, and sending one
again.

What it does: ``dead_deliveries`` (``GET``) lists the club's dead letters (deliveries given up
after their attempts: ``webhooks.delivery.list_dead_deliveries``), newest first, each with its
event, endpoint, attempts and last answer; ``POST`` with ``action=resend`` and ``delivery``
sends one again through ``webhooks.delivery.resend_delivery`` (same event id, audited as a
``WebhookResend``), then back to the list with a message. Organisers only
(``access.organiser_page``).

What it does not do: register or remove endpoints (the API), or show delivered or pending
deliveries (the API's delivery log).

Terms: *dead letter* — a ``failed`` delivery.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from config.problems import Problem
from web.console.access import ProblemShown, organiser_page
from webhooks import delivery as webhook_delivery


def _delivery_id(text) -> int:
    try:
        return int(text)
    except (TypeError, ValueError) as error:
        raise Problem(code="invalid", detail=gettext("Pick a delivery from the list.")) from error


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def dead_deliveries(request, club):
    problem = None
    if request.method == "POST":
        try:
            if request.POST.get("action") != "resend":
                raise Problem(code="invalid", detail=gettext("Unknown action."))
            resent = webhook_delivery.resend_delivery(
                club=club, delivery_id=_delivery_id(request.POST.get("delivery")), user=request.user
            )
            messages.success(
                request,
                gettext("%(event)s is being sent again to %(url)s.")
                % {"event": resent.event_type, "url": resent.endpoint.url},
            )
            return redirect("console:webhooks", club.slug)
        except Problem as error:
            problem = ProblemShown(error)
    context = {
        "club": club,
        "deliveries": webhook_delivery.list_dead_deliveries(club=club),
        "problem": problem,
    }
    return render(
        request, "console/webhooks.html", context, status=problem.status if problem else 200
    )
