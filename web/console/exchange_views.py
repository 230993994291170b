"""The exchange format in the console: download a night's or an event's exchange file, and
import one into the club (docs/exchange.md).

What it does: ``night_exchange`` and ``event_exchange`` answer the "jink-exchange" document
(``exchange.document``) as a file to save; ``imports`` is the page where an organiser uploads a
file: it is read (at most ``exchange.checks.MAX_BYTES``, nested no deeper than the API allows,
JSON) and imported by ``exchange.services.import_document`` — the same checks, conflicts and
answers as ``POST /api/clubs/{slug}/imports/`` — then the page says what the import did
(created, updated, unchanged) with a link to the night or the event, or lists each problem with
its place in the file. The page also lists the club's last imports. Organisers only
(``access.organiser_page``).

What it does not do: check or import anything itself (``exchange.services``).
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from config.parsers import MAX_NESTING, nesting_depth
from config.problems import Problem
from exchange import document as exchange_document
from exchange import services as exchange_services
from exchange.checks import MAX_BYTES
from exchange.models import ImportOutcome, ImportRecord
from web.console.access import event_of, organiser_page
from web.console.night_views import night_of

LOG_LENGTH = 20


class ExchangeFileForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Exchange file (.json)"))


def _file(data: dict, stem: str) -> HttpResponse:
    body = json.dumps(data, cls=DjangoJSONEncoder, indent=1, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{stem}.exchange.json"'
    return response


@require_safe
@organiser_page
def night_exchange(request, club, night_id: int):
    night = night_of(club, night_id)
    return _file(exchange_document.night_document(night), f"{club.slug}-night-{night.pk}")


@require_safe
@organiser_page
def event_exchange(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    return _file(exchange_document.event_document(tournament), f"{club.slug}-event-{tournament.pk}")


def _read(upload) -> dict:
    """The uploaded file as JSON, or a problem as the API would answer."""
    body = upload.read(MAX_BYTES + 1)
    if len(body) > MAX_BYTES:
        raise Problem(
            code="body_too_large",
            pointer="",
            detail=gettext("The file is larger than %(size)s MB.") % {"size": MAX_BYTES // 2**20},
        )
    if nesting_depth(body, MAX_NESTING) > MAX_NESTING:
        raise Problem(
            code="too_deeply_nested", pointer="", detail=gettext("The file nests too deeply.")
        )
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise Problem(
            code="parse_error",
            pointer="",
            detail=gettext("The file is not JSON: %(error)s") % {"error": error},
        ) from error


OUTCOME_WORDS = {
    ImportOutcome.CREATED: gettext_lazy("The night was imported."),
    ImportOutcome.UPDATED: gettext_lazy("The night was updated from the corrected file."),
    ImportOutcome.UNCHANGED: gettext_lazy("The file was imported before: nothing changed."),
}
EVENT_OUTCOME_WORDS = {
    **OUTCOME_WORDS,
    ImportOutcome.CREATED: gettext_lazy("The event was imported."),
    ImportOutcome.UPDATED: gettext_lazy("The event was updated from the corrected file."),
}


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def imports(request, club):
    problem = None
    status = 200
    form = ExchangeFileForm()
    if request.method == "POST":
        form = ExchangeFileForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                document = _read(form.cleaned_data["file"])
                record = exchange_services.import_document(
                    club=club,
                    user=request.user,
                    document=document,
                    document_hash=exchange_document.document_hash(document),
                )
            except Problem as error:
                problem, status = error, error.status_code
            else:
                event = record.summary.get("event")
                if event is not None:
                    messages.success(request, str(EVENT_OUTCOME_WORDS[record.outcome]))
                    return redirect("console:event", club.slug, event)
                messages.success(request, str(OUTCOME_WORDS[record.outcome]))
                return redirect("console:night", club.slug, record.summary["night"])
        else:
            status = 400
    context = {
        "club": club,
        "form": form,
        "problem": problem,
        "records": ImportRecord.objects.filter(club=club).select_related("by")[:LOG_LENGTH],
    }
    return render(request, "console/imports.html", context, status=status)
