"""The federation pages: the levy report (page and CSV) and the club console's federation box.

What it does: ``levy`` shows ``federations.levy.levy_report`` for a period (``?from=&to=``,
dates; by default this month so far) to the federation's organisers, ``levy_csv`` answers the
same report as CSV (``federations.levy.csv_text``: amounts by ``games.money.amount_string``);
``console_answer`` takes the club console box's forms (accept, decline or leave a federation;
accept or decline a proposed player link; nominate the club's players for an open federation
event, or withdraw a nomination) for the club's organisers, through
``federations.services``, and sends them back to the console with what happened.

What it does not do: compute (``federations.levy``), decide rules (``federations.services``).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from config.problems import Problem
from federations import levy, selectors, services
from web.console.access import organiser_page
from web.federations import event_forms
from web.federations.access import federation_organiser_page


def _report(request, federation):
    date_from, date_to = levy.parse_period(
        request.GET.get("from"), request.GET.get("to"), today=timezone.localdate()
    )
    return levy.levy_report(federation, date_from, date_to)


@require_safe
@federation_organiser_page
def levy_page(request, federation):
    problem = None
    try:
        report = _report(request, federation)
    except Problem as error:
        problem, report = error, None
    return render(
        request,
        "federations/levy.html",
        {"federation": federation, "report": report, "problem": problem},
        status=problem.status_code if problem else 200,
    )


@require_safe
@federation_organiser_page
def levy_csv(request, federation):
    try:
        report = _report(request, federation)
    except Problem as error:
        return HttpResponse(str(error.detail), status=error.status_code, content_type="text/plain")
    response = HttpResponse(levy.csv_text(report), content_type="text/csv; charset=utf-8")
    name = f"levy-{federation.slug}-{report.date_from}-{report.date_to}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


CLUB_ACTIONS = {
    "accept": services.accept_invitation,
    "decline": services.decline_invitation,
    "leave": services.leave_federation,
}
DONE = {
    "accept": gettext_lazy("The club joined the federation."),
    "decline": gettext_lazy("The invitation was declined."),
    "leave": gettext_lazy("The club left the federation."),
    "accept_link": gettext_lazy("The player is linked."),
    "decline_link": gettext_lazy("The proposed link was declined."),
    "nominate": gettext_lazy("The player is nominated."),
    "withdraw_nomination": gettext_lazy("The nomination was withdrawn."),
}


@require_POST
@organiser_page
def console_answer(request, club):
    """One form of the console's federation box: ``action`` and ``federation`` (a slug), and for
    a link ``invitation`` (its id, a player of this club's)."""
    action = request.POST.get("action", "")
    if action not in DONE:
        return HttpResponse(_("Unknown action."), status=400, content_type="text/plain")
    federation = selectors.get_federation(slug=request.POST.get("federation", ""))
    try:
        if action in CLUB_ACTIONS:
            CLUB_ACTIONS[action](federation=federation, user=request.user, club=club)
        elif action in event_forms.CLUB_EVENT_ACTIONS:
            event_forms.club_act(request, club, action)
        else:
            invitation = selectors.get_link_invitation(
                federation=federation, invitation_id=int(request.POST.get("invitation") or 0)
            )
            if invitation.player.club_id != club.pk:
                return HttpResponse(status=404)
            if action == "accept_link":
                services.accept_link_invitation(invitation=invitation, user=request.user)
            else:
                services.decline_link_invitation(invitation=invitation, user=request.user)
    except Problem as error:
        messages.error(request, str(error.detail))
    else:
        messages.success(request, DONE[action])
    return redirect("console:home", slug=club.slug)
