"""Query-string filters of the clubs API lists (django-filter).

What it does: declares which filters each list accepts — clubs: ``search``; memberships:
``role``; players: ``is_active``, ``search`` (part of the display name, any case), ``user`` (id of
the linked account), ``has_user``; teams: ``is_active``, ``player`` (teams a player id belongs to).

What it does not do: scope lists to a club or to what a user may read: the views' querysets come
from ``clubs.selectors`` already scoped. An invalid filter value is a 400 problem.
"""

from __future__ import annotations

import django_filters

from clubs.models import Club, Membership, Player, Role, Team


class ClubFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(
        field_name="name", lookup_expr="icontains", label="Part of the club's name, any case."
    )

    class Meta:
        model = Club
        fields = ["search"]


class MembershipFilter(django_filters.FilterSet):
    role = django_filters.ChoiceFilter(choices=Role.choices)

    class Meta:
        model = Membership
        fields = ["role"]


class PlayerFilter(django_filters.FilterSet):
    is_active = django_filters.BooleanFilter()
    search = django_filters.CharFilter(
        field_name="display_name", lookup_expr="icontains", label="Part of the name, any case."
    )
    user = django_filters.NumberFilter(field_name="user_id", label="Id of the linked account.")
    has_user = django_filters.BooleanFilter(
        field_name="user", lookup_expr="isnull", exclude=True, label="Linked to an account."
    )

    class Meta:
        model = Player
        fields = ["is_active", "search", "user", "has_user"]


class TeamFilter(django_filters.FilterSet):
    is_active = django_filters.BooleanFilter()
    player = django_filters.NumberFilter(
        field_name="team_members__player_id", label="Teams this player id is a member of."
    )

    class Meta:
        model = Team
        fields = ["is_active", "player"]
