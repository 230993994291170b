"""Places: entrants level on every tie-break before lots share a place; lots only order them.

What it checks: ``tournaments.standings``' ranking with places gives, for any results and any
chain, exactly the order, ranks and recorded values of ``ranking.compute_standings`` over the
whole chain (Hypothesis), with each entrant's place the rank the chain gives without lots; a
worked example of two entrants level on everything (places 1 and 1, ranks 1 and 2 by lots); and
the API's standings and a finished round robin's winners through the HTTP API.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import MatchResult, Table, compute_standings
from tournaments.draw.ranking import TIE_BREAKS, lot
from tournaments.standings import _ranked_with_places


def beat(winner: int, loser: int, winner_points: int, loser_points: int) -> MatchResult:
    return MatchResult.build(
        Table((winner, loser)),
        [winner, loser],
        points={winner: winner_points, loser: loser_points},
        games_won={winner: 1},
    )


@st.composite
def tournaments_so_far(draw):
    count = draw(st.integers(min_value=2, max_value=7))
    entrants = list(range(1, count + 1))
    pairs = [(a, b) for a in entrants for b in entrants if a < b]
    played = draw(st.lists(st.sampled_from(pairs), max_size=len(pairs), unique=True))
    results = []
    for a, b in played:
        a_wins = draw(st.booleans())
        loser_points = draw(st.sampled_from([0, 10, 15]))
        winner, loser = (a, b) if a_wins else (b, a)
        results.append(beat(winner, loser, 25, loser_points))
    criteria = draw(st.lists(st.sampled_from(TIE_BREAKS), unique=True, min_size=1, max_size=5))
    seed = draw(st.integers(min_value=0, max_value=50))
    return entrants, results, tuple(criteria), seed


@settings(max_examples=150, deadline=None)
@given(tournaments_so_far())
def test_places_keep_the_whole_chains_order_and_drop_only_lots(case):
    entrants, results, chain, seed = case
    whole = compute_standings(entrants, results, tie_breaks=chain, seed=seed)
    ranked = _ranked_with_places(
        entrants, results, byes=(), scoring=None, chain=chain, seed=seed, primary=None
    )
    assert [(line.entrant, line.rank, line.values) for line in whole] == [
        (line.entrant, rank, values) for rank, _place, line, values in ranked
    ]
    before_lots = chain[: chain.index("lots")] if "lots" in chain else chain
    places = {
        line.entrant: line.rank
        for line in compute_standings(entrants, results, tie_breaks=before_lots, seed=seed)
    }
    assert {line.entrant: place for _rank, place, line, _values in ranked} == places


def test_two_entrants_level_on_everything_share_first_place_in_lots_order():
    # 1 and 2 beat each other 25 to 10; 3 lost to both.
    results = [beat(1, 2, 25, 10), beat(2, 1, 25, 10), beat(1, 3, 25, 0), beat(2, 3, 25, 0)]
    chain = ("match_wins", "points_difference", "lots")
    ranked = _ranked_with_places(
        [1, 2, 3], results, byes=(), scoring=None, chain=chain, seed=4, primary=None
    )
    first, second = sorted((1, 2), key=lambda entrant: -lot(4, entrant))
    assert [(rank, place, line.entrant) for rank, place, line, _values in ranked] == [
        (1, 1, first),
        (2, 1, second),
        (3, 3, 3),
    ]
    assert ranked[0][3] == {"match_wins": 2, "points_difference": 25, "lots": lot(4, first)}
    assert ranked[2][3] == {"match_wins": 0}


@pytest.mark.django_db
def test_the_api_gives_the_shared_place_and_both_winners_of_a_round_robin():
    from django.test import TestCase
    from rest_framework.test import APIClient

    from clubs.models import Club, Membership, Player, Role
    from games import services as game_services
    from games.models import Game
    from tests.pages.seed import _user
    from tournaments import services

    club = Club.objects.create(
        slug="places", name="Places", currency="EUR", time_zone="Europe/Dublin", default_game="25"
    )
    organiser = _user("organiser-of-places")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    players = [Player.objects.create(club=club, display_name=name) for name in ("Ann", "Bob")]
    tournament = services.create_tournament(
        club=club,
        user=organiser,
        values={
            "name": "Pair",
            "game": "25",
            "format": "round_robin",
            "round_count": 2,
            "tie_breaks": ["match_wins", "points_difference", "lots"],
            "lots_seed": 9,
        },
        entrants=[{"player": player.pk} for player in players],
    )
    for round_number in (1, 2):
        with TestCase.captureOnCommitCallbacks(execute=True):
            if round_number == 1:
                services.draw_next_round(tournament_id=tournament.pk, user=organiser)
        game = Game.objects.get(
            match_link__match__tournament=tournament, match_link__match__round__number=round_number
        )
        # Ann takes all five tricks in round 1, Bob in round 2: 25 to 0 each, one win each.
        winner = players[round_number - 1]
        seat = next(seat.seat for seat in game.seats.all() if seat.player_id == winner.pk)
        with TestCase.captureOnCommitCallbacks(execute=True):
            game_services.record_hand(
                game_id=game.pk,
                user=organiser,
                record={"dealer": 0, "trump": "S", "trick_winners": [seat] * 5},
            )
    tournament.refresh_from_db()
    client = APIClient()
    client.force_authenticate(organiser)
    body = client.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert tournament.status == "finished"
    assert [(row["rank"], row["place"]) for row in body["standings"]] == [(1, 1), (2, 1)]
    bracket = client.get(f"/api/tournaments/{tournament.pk}/bracket/").json()
    assert sorted(bracket["winners"]) == sorted(entrant.pk for entrant in tournament.entrants.all())
