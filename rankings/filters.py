"""The ranking's filters, for the page and the API alike: ``?game=`` (a variant: the players with
a ranked game of it) and ``?club=`` (a club's slug: the players with a current link there).

What it does not do: change the rating (one rating across every game and club: the filters
choose whom to list; the positions are counted within the filtered list).
"""

from __future__ import annotations

import django_filters

from clubs.models import GameType
from rankings import selectors
from rankings.models import FederationRating


class RankingFilter(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(
        choices=GameType.choices, method="filter_game", help_text="Players who played this game."
    )
    club = django_filters.CharFilter(
        method="filter_club", help_text="Players linked at this club (its slug)."
    )

    class Meta:
        model = FederationRating
        fields = ["game", "club"]

    def filter_game(self, queryset, name, value):
        return selectors.only_variant(queryset, value)

    def filter_club(self, queryset, name, value):
        return selectors.only_club(queryset, value)
