"""``manage.py recompute_ratings [slug ...]``: rate every club (or the ones named) from scratch."""

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from seasons.ratings import recompute_ratings


class Command(BaseCommand):
    help = "Recompute the OpenSkill ratings of every club (or the clubs named) from scratch."

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help="Club slugs (default: every club).")

    def handle(self, *args, slugs, **options):
        clubs = Club.objects.order_by("slug")
        if slugs:
            clubs = clubs.filter(slug__in=slugs)
            missing = set(slugs) - set(clubs.values_list("slug", flat=True))
            if missing:
                raise CommandError(f"No club {', '.join(sorted(missing))}.")
        for club in clubs:
            result = recompute_ratings(club_id=club.pk)
            self.stdout.write(f"{club.slug}: {result['rated']} games rated")
