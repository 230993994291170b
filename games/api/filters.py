"""Filters of the club game list: ``?status=``, ``?game=`` (the variant), ``?player=``,
``?tournament_match=``, ``?date=`` and a range (``?date_from=``, ``?date_to=``).

Dates are calendar days in the club's time zone (a game started at 00:30 in Dublin belongs to that
Dublin day, whatever the server's zone): ``date`` one day, ``date_from``/``date_to`` inclusive.
"""

from __future__ import annotations

import datetime
import zoneinfo

import django_filters

from clubs.models import GameType
from games.models import Game, GameStatus


def _start_of_day(day: datetime.date, time_zone: str) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=zoneinfo.ZoneInfo(time_zone))


class GameFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=GameStatus.choices)
    game = django_filters.ChoiceFilter(field_name="variant", choices=GameType.choices)
    player = django_filters.NumberFilter(
        method="filter_player", help_text="Games in which this player (id) has a seat."
    )
    tournament_match = django_filters.NumberFilter(
        method="filter_tournament_match", help_text="Games played for this tournament match (id)."
    )
    date = django_filters.DateFilter(
        method="filter_date", help_text="Games started on this day (club time zone)."
    )
    date_from = django_filters.DateFilter(
        method="filter_date_from", help_text="Games started on or after this day."
    )
    date_to = django_filters.DateFilter(
        method="filter_date_to", help_text="Games started on or before this day."
    )

    class Meta:
        model = Game
        fields = ["status", "game", "player", "tournament_match", "date", "date_from", "date_to"]

    def _time_zone(self) -> str:
        # DRF requests carry their view; the games list view knows its club.
        view = (getattr(self.request, "parser_context", None) or {}).get("view")
        get_club = getattr(view, "get_club", None)
        return get_club().time_zone if get_club is not None else "UTC"

    def filter_tournament_match(self, queryset, name, value):
        # ``tournament_match_id`` is annotated by ``games.selectors`` (see games.match_links).
        return queryset.filter(tournament_match_id=value)

    def filter_player(self, queryset, name, value):
        return queryset.filter(seats__player_id=value)

    def filter_date(self, queryset, name, value):
        time_zone = self._time_zone()
        return queryset.filter(
            created_at__gte=_start_of_day(value, time_zone),
            created_at__lt=_start_of_day(value + datetime.timedelta(days=1), time_zone),
        )

    def filter_date_from(self, queryset, name, value):
        return queryset.filter(created_at__gte=_start_of_day(value, self._time_zone()))

    def filter_date_to(self, queryset, name, value):
        next_day = value + datetime.timedelta(days=1)
        return queryset.filter(created_at__lt=_start_of_day(next_day, self._time_zone()))
