"""``manage.py simulate_night``: a club night played through the REST API by computer players.

Over real HTTP against a running server (``--url``, with ``--username``/``--password`` or
``--token``), or in this process through Django's test client (``--in-process --username``).
The work is ``web.simulate.simulate_night``; this command only reads the options.

Example: ``manage.py simulate_night --url http://127.0.0.1:8000 --username organiser
--password jink-demo-2026 --club hole-in-the-wall --tables 4 --format 45-3 --speed 20``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from web.simulate import HttpApi, InProcessApi, simulate_night


class Command(BaseCommand):
    help = "Play a club night through the REST API with computer players at every table."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--tables", type=int, default=4)
        parser.add_argument("--format", default="45-3", help='e.g. "45-3", "25-4", "45-2v2"')
        parser.add_argument(
            "--speed",
            type=float,
            default=0.0,
            help="how many times faster than real tables (0: no waiting)",
        )
        parser.add_argument(
            "--trick-winner-share",
            type=float,
            default=0.0,
            help="the share of hands sent as trick-winner entries",
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000")
        parser.add_argument("--token")
        parser.add_argument("--username")
        parser.add_argument("--password")
        parser.add_argument(
            "--in-process",
            action="store_true",
            help="use Django's test client in this process instead of HTTP",
        )

    def handle(self, *args, **options) -> None:
        if options["in_process"]:
            user = get_user_model().objects.filter(username=options["username"]).first()
            if user is None:
                raise CommandError("--in-process needs --username of an existing account")
            api = InProcessApi(user)
        elif options["url"] and options["token"]:
            api = HttpApi(options["url"], token=options["token"])
        elif options["url"] and options["username"] and options["password"]:
            api = HttpApi.log_in(options["url"], options["username"], options["password"])
        else:
            raise CommandError("give --url with --token or --username/--password, or --in-process")
        try:
            report = simulate_night(
                api=api,
                club_slug=options["club"],
                tables=options["tables"],
                game_format=options["format"],
                speed=options["speed"],
                trick_winner_share=options["trick_winner_share"],
                seed=options["seed"],
            )
        except (RuntimeError, ValueError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"{len(report.games)} games ({report.finished} finished), {report.hands} hands, "
            f"{len(report.refusals)} refused; slowest answer {report.slowest_seconds * 1000:.0f} ms"
        )
        for refusal in report.refusals:
            self.stderr.write(refusal)
