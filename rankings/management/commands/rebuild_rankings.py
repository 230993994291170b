"""``manage.py rebuild_rankings [slug ...]``: compute federations' rankings again from scratch.

Every federation without a slug given. Prints the games rated and the placings stored per
federation. The same result as the incremental job (tests/rankings).
"""

from django.core.management.base import BaseCommand, CommandError

from federations.models import Federation
from rankings.build import rebuild_rankings


class Command(BaseCommand):
    help = "Rebuild federations' rankings (ratings, form, lifetime points) from scratch."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slugs", nargs="*", help="Federation slugs (default: all).")

    def handle(self, *args, **options) -> None:
        federations = Federation.objects.order_by("pk")
        if options["slugs"]:
            federations = federations.filter(slug__in=options["slugs"])
            missing = set(options["slugs"]) - set(federations.values_list("slug", flat=True))
            if missing:
                raise CommandError(f"No federation {', '.join(sorted(missing))}.")
        for federation in federations:
            result = rebuild_rankings(federation_id=federation.pk)
            self.stdout.write(
                f"{federation.slug}: {result['rated']} games rated, {result['placings']} placings"
            )
