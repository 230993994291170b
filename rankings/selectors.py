"""Reads of a federation's rankings for the pages and the API (``get_…``, ``list_…``).

What it does: ``get_federation(slug)``; ``list_ranking(federation)`` — the ranked players (a
rated game or a place at an event) who chose to be ranked (``ranking_shown``) and are not merged
away, best first (ordinal, then lifetime points, then id); ``only_variant`` keeps those with a
ranked game of a variant, ``only_club`` those with a current link at a club (``EXISTS``
subqueries: one query per page whatever its length); ``ranking_etag(federation)`` (one query:
the stored ``RankingState.version``); ``get_ranked_player`` (404 for a hidden or merged player),
``get_rating``, ``position_of``, ``list_history`` (their ranked games across clubs, each with
the rating and form after it) and ``list_placings``; ``club_choices`` and ``variant_choices``
feed the page's filter form.

What it does not do: compute (``rankings.build``) or decide the name shown: pages and API show
``FederationPlayer.public_name`` (the player's ``name_shown`` choice).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from clubs.models import Club, GameType
from federations.models import Federation, FederationPlayer, PlayerLink
from rankings.models import FederationRating, Placing, RankingChange, RankingState


def get_federation(*, slug: str) -> Federation:
    federation = Federation.objects.filter(slug=slug).first()
    if federation is None:
        raise Http404("No such federation.")
    return federation


def list_ranking(*, federation: Federation) -> QuerySet[FederationRating]:
    return (
        FederationRating.objects.filter(
            federation=federation,
            federation_player__ranking_shown=True,
            federation_player__merged_into__isnull=True,
        )
        .filter(Q(games__gt=0) | Q(events__gt=0))
        .select_related("federation_player")
        .order_by("-ordinal", "-points", "federation_player_id")
    )


def only_variant(rows: QuerySet[FederationRating], variant: str) -> QuerySet[FederationRating]:
    """The rows of players with a ranked game of ``variant``."""
    return rows.filter(
        Exists(
            RankingChange.objects.filter(
                federation_id=OuterRef("federation_id"),
                federation_player_id=OuterRef("federation_player_id"),
                variant=variant,
            )
        )
    )


def only_club(rows: QuerySet[FederationRating], club_slug: str) -> QuerySet[FederationRating]:
    """The rows of players with a current link at the club."""
    return rows.filter(
        Exists(
            PlayerLink.objects.current().filter(
                federation_player_id=OuterRef("federation_player_id"),
                player__club__slug=club_slug,
            )
        )
    )


def ranking_etag(federation: Federation) -> str:
    version = (
        RankingState.objects.filter(federation_id=federation.pk)
        .values_list("version", flat=True)
        .first()
    )
    return f'"rankings-{federation.pk}-{version or 0}"'


def variant_choices() -> list[tuple[str, str]]:
    return list(GameType.choices)


def club_choices(federation: Federation) -> QuerySet[Club]:
    """The clubs that are or were members (accepted)."""
    return (
        Club.objects.filter(
            federation_memberships__federation=federation,
            federation_memberships__accepted_at__isnull=False,
        )
        .distinct()
        .order_by("name", "pk")
    )


def get_ranked_player(*, federation: Federation, player_id: int) -> FederationPlayer:
    """A federation player whose history is public: in the federation, not merged away, and
    ranked by their own choice; otherwise 404 (a hidden player is not told apart from none)."""
    player = FederationPlayer.objects.filter(
        federation=federation, pk=player_id, merged_into__isnull=True, ranking_shown=True
    ).first()
    if player is None:
        raise Http404("No such player.")
    return player


def list_history(*, player: FederationPlayer) -> QuerySet[RankingChange]:
    """Their ranked games, newest first, with the club each was played at."""
    return (
        RankingChange.objects.filter(federation_id=player.federation_id, federation_player=player)
        .select_related("club")
        .order_by("-sequence")
    )


def list_placings(*, player: FederationPlayer) -> QuerySet[Placing]:
    return (
        Placing.objects.filter(federation_id=player.federation_id, federation_player=player)
        .select_related("club", "settlement")
        .order_by("-held_at", "-pk")
    )


def get_rating(*, player: FederationPlayer) -> FederationRating | None:
    return FederationRating.objects.filter(
        federation_id=player.federation_id, federation_player=player
    ).first()


def position_of(rating: FederationRating) -> int:
    """The rating's place in the federation's whole ranking (one query)."""
    better = list_ranking(federation=rating.federation).filter(
        Q(ordinal__gt=rating.ordinal)
        | Q(ordinal=rating.ordinal, points__gt=rating.points)
        | Q(
            ordinal=rating.ordinal,
            points=rating.points,
            federation_player_id__lt=rating.federation_player_id,
        )
    )
    return better.count() + 1
