"""Downloads: one event, or the club's whole history, as the JSON archive or as CSV.

What it does: ``?format=json`` (the default) answers the archive of ``exchange.archive`` as
an attachment; ``?format=csv`` answers one row per side of every game, ``?format=csv&part=
settle-up`` one row per transfer of every stored settle-up version (with its status and paid
mark), and for the club ``?format=csv&part=balances`` each player's running balance over the
season's settled nights and events. Organisers only.

The club's archive and its games' CSV are streamed (``StreamingHttpResponse``): the envelope,
then the games a page at a time (``exchange.archive.club_archive_parts``), so the memory of the
download does not grow with the club's history.

What it does not do: import (players come in on the players page, ``action=import``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_safe

from exchange import archive, archive_csv
from web.console.access import event_of, organiser_page


def _download(request, data: dict, stem: str) -> HttpResponse:
    if request.GET.get("format") == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        if request.GET.get("part") == "settle-up":
            stem = f"{stem}-settle-up"
            writer.writerow(archive_csv.TRANSFERS_CSV_HEADER)
            writer.writerows(archive_csv.transfers_csv_rows(data))
        else:
            writer.writerow(archive_csv.CSV_HEADER)
            writer.writerows(archive_csv.games_csv_rows(data))
        response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{stem}.csv"'
        return response
    body = json.dumps(data, cls=DjangoJSONEncoder, indent=1, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
    return response


@require_safe
@organiser_page
def event_export(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    return _download(
        request, archive.event_archive(tournament), f"{club.slug}-event-{tournament.pk}"
    )


class _Echo:
    """A file for ``csv.writer`` that hands each written row back (a streamed CSV)."""

    def write(self, value: str) -> str:
        return value


def _streamed(chunks: Iterable[str], content_type: str, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(chunks, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv_lines(header: list, rows: Iterable[list]) -> Iterable[str]:
    writer = csv.writer(_Echo())
    yield writer.writerow(header)
    for row in rows:
        yield writer.writerow(row)


@require_safe
@organiser_page
def club_export(request, club):
    csv_type = "text/csv; charset=utf-8"
    stem = f"{club.slug}-history"
    if request.GET.get("format") == "csv" and request.GET.get("part") == "balances":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(archive_csv.BALANCES_CSV_HEADER)
        writer.writerows(archive_csv.balances_csv_rows(club))
        response = HttpResponse(buffer.getvalue(), content_type=csv_type)
        response["Content-Disposition"] = f'attachment; filename="{club.slug}-balances.csv"'
        return response
    envelope, games = archive.club_archive_parts(club)
    if request.GET.get("format") == "csv":
        if request.GET.get("part") == "settle-up":
            rows = archive_csv.transfers_csv_rows(envelope)
            return _streamed(
                _csv_lines(archive_csv.TRANSFERS_CSV_HEADER, rows),
                csv_type,
                f"{stem}-settle-up.csv",
            )
        rows = archive_csv.iter_games_csv_rows(envelope, games)
        return _streamed(_csv_lines(archive_csv.CSV_HEADER, rows), csv_type, f"{stem}.csv")
    return _streamed(archive.json_chunks(envelope, games), "application/json", f"{stem}.json")
