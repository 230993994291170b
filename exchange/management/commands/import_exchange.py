"""``manage.py import_exchange <club> <file> --user <organiser>``: import an exchange file.

The command line's ``POST /api/clubs/{slug}/imports/`` (docs/exchange.md): the same checks and
the same service (``exchange.services.import_document``), as the organiser named by ``--user``,
who must be an organiser of the club as the API requires. Prints the import's log row as the API
answers it (JSON: ``outcome``, ``night``, ``summary``, ...); a refused file prints the problem
and each of its errors (pointer, code, detail; "(the file)" for the whole document) and exits
with status 1, nothing stored.

What it does not do: read anything but a file (``-`` is not standard input), or import as
anyone who may not import through the API.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club, Role
from clubs.permissions import role_in
from config.problems import Problem
from exchange import document, services
from exchange.api.views import ImportOutput
from exchange.checks import MAX_BYTES


class Command(BaseCommand):
    help = "Import an exchange file (docs/exchange.md) into a club, as one of its organisers."

    def add_arguments(self, parser):
        parser.add_argument("club", help="The importing club's slug.")
        parser.add_argument("file", help="The exchange file (JSON).")
        parser.add_argument("--user", required=True, help="An organiser of the club (username).")

    def handle(self, *args, club, file, user, **options):
        importing = Club.objects.filter(slug=club).first()
        if importing is None:
            raise CommandError(f"No club {club}.")
        organiser = get_user_model().objects.filter(username=user).first()
        if organiser is None or role_in(organiser, importing) != Role.ORGANISER:
            raise CommandError(f"{user} is not an organiser of {club}.")
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No file {file}.")
        if path.stat().st_size > MAX_BYTES:
            raise CommandError(f"{file} is larger than {MAX_BYTES} bytes.")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as error:
            raise CommandError(f"{file} is not JSON: {error}") from error
        try:
            record = services.import_document(
                club=importing,
                user=organiser,
                document=data,
                document_hash=document.document_hash(data),
            )
        except Problem as problem:
            lines = [f"{problem.code}: {problem.detail}"]
            lines += [
                f"  {error['pointer'] or '(the file)'}: {error['code']}: {error['detail']}"
                for error in problem.errors
            ]
            raise CommandError("\n".join(lines)) from problem
        self.stdout.write(json.dumps(ImportOutput(record).data, default=str))
