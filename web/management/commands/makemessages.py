"""``makemessages`` with ``--keyword``: also collect the strings marked by a no-op marker.

What it does: the pure packages (``rules_engine``, ``tournaments.draw``) cannot import Django, so
they mark the templates of their problem details with ``N_`` (a no-op of their own);
``make messages`` runs ``makemessages --keyword=N_`` so that xgettext collects them too, and
``config.problems.localized_detail`` translates them when a problem is built.

What it does not do: change anything else of Django's command.
"""

from __future__ import annotations

from django.core.management.commands.makemessages import Command as MakeMessagesCommand


class Command(MakeMessagesCommand):
    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--keyword",
            action="append",
            default=[],
            help="Another function name that marks a translatable string (e.g. N_).",
        )

    def handle(self, *args, **options):
        keywords = [f"--keyword={keyword}" for keyword in options["keyword"]]
        self.xgettext_options = [*MakeMessagesCommand.xgettext_options, *keywords]
        return super().handle(*args, **options)
