"""The rankings job (``rankings.build``): ratings equal a direct OpenSkill computation over the
same games in order, with each seat's person by its current link; the incremental path equals a
rebuild; membership spells, unlinks and merges decide what counts and who is ranked.
"""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from federations.models import PlayerLink
from federations.services import merge_players, unlink_player
from rankings.build import rebuild_rankings, update_rankings
from rankings.models import FederationRating, RankedGame, RankingChange, RankingState
from tests.clubs.factories import make_user
from tests.rankings.seed import at, finished_game, settled_night, two_clubs

pytestmark = pytest.mark.django_db


def play(world, plan):
    """``plan``: (club index, [[names]...], winner side, day); names are ``Ann@a``-style keys."""
    games = []
    for club, sides, winner, day in plan:
        seated = [[world.club_players[name] for name in side] for side in sides]
        games.append(finished_game(world.clubs[club], seated, winner, at(day)))
    return games


PLAN = [
    (0, [["Ann@a"], ["Bob@a"], ["Cat@a"]], 1, 1),
    (1, [["Ann@b", "Eve@b"], ["Bob@b", "Fay@b"]], 0, 2),
    (0, [["Dan@a"], ["Ann@a"]], 1, 3),
    (1, [["Gus@b"], ["Eve@b"], ["Bob@b"]], 0, 4),  # Gus unlinked: a newcomer each time
    (0, [["Cat@a", "Dan@a"], ["Bob@a", "Ann@a"]], 0, 5),
    (1, [["Fay@b"], ["Ann@b"]], 0, 6),
]


def direct(world, plan, person_of):
    """OpenSkill by hand: each game's sides ranked winner first, the others by their points
    (the seed gives side i of the losers 10 + i points: the higher index ranks better)."""
    model, ratings = PlackettLuce(), {}
    for _club, sides, winner, _day in plan:
        people = [[person_of(name) for name in side] for side in sides]
        teams = [
            [ratings.get(p) or model.rating() if p else model.rating() for p in side]
            for side in people
        ]
        losers = sorted((i for i in range(len(sides)) if i != winner), reverse=True)
        ranks = [1 if i == winner else 2 + losers.index(i) for i in range(len(sides))]
        for side, team in zip(people, model.rate(teams, ranks=ranks), strict=True):
            for person, rating in zip(side, team, strict=True):
                if person:
                    ratings[person] = rating
    return {person: (r.mu, r.sigma) for person, r in ratings.items()}


def stored(world):
    names = {fp.pk: name for name, fp in world.people.items()}
    return {
        names[row.federation_player_id]: (row.mu, row.sigma)
        for row in FederationRating.objects.filter(federation=world.federation, games__gt=0)
    }


def by_link(name: str) -> str | None:
    person = name.split("@")[0]
    return None if person == "Gus" else person


def test_ratings_equal_a_direct_openskill_computation_in_order():
    world = two_clubs()
    play(world, PLAN)
    assert update_rankings(federation_id=world.federation.pk) == {
        "rated": 6,
        "rebuilt": True,
        "placings": 0,
    }
    assert stored(world) == direct(world, PLAN, by_link)
    assert set(stored(world)) == {"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"}
    ann = FederationRating.objects.get(federation_player=world.people["Ann"])
    assert ann.games == 5
    assert RankedGame.objects.filter(federation=world.federation).count() == 6


def test_incremental_equals_rebuild_and_a_second_run_changes_nothing():
    world = two_clubs()
    play(world, PLAN[:3])
    update_rankings(federation_id=world.federation.pk)
    play(world, PLAN[3:])
    result = update_rankings(federation_id=world.federation.pk)
    assert result == {"rated": 3, "rebuilt": False, "placings": 0}
    incremental = stored(world)
    changes = list(
        RankingChange.objects.order_by("sequence", "federation_player_id").values_list(
            "federation_player_id", "sequence", "mu", "sigma", "won", "chance", "form"
        )
    )
    version = RankingState.objects.get(federation=world.federation).version
    assert update_rankings(federation_id=world.federation.pk) == {
        "rated": 0,
        "rebuilt": False,
        "placings": 0,
    }
    assert RankingState.objects.get(federation=world.federation).version == version
    rebuild_rankings(federation_id=world.federation.pk)
    assert stored(world) == incremental == direct(world, PLAN, by_link)
    assert (
        list(
            RankingChange.objects.order_by("sequence", "federation_player_id").values_list(
                "federation_player_id", "sequence", "mu", "sigma", "won", "chance", "form"
            )
        )
        == changes
    )


def test_games_count_only_while_the_club_is_a_member():
    world = two_clubs()
    membership = world.members[1]
    membership.left_at = at(4)
    membership.save()
    plan = [
        (0, [["Ann@a"], ["Bob@a"]], 0, -1),  # before club A joined
        (1, [["Ann@b"], ["Eve@b"]], 1, 2),  # B a member
        (1, [["Fay@b"], ["Eve@b"]], 1, 4),  # B left at day 4: not counted
        (0, [["Cat@a"], ["Dan@a"]], 0, 5),
    ]
    play(world, plan)
    update_rankings(federation_id=world.federation.pk)
    assert stored(world) == direct(world, [plan[1], plan[3]], by_link)
    assert "Fay" not in stored(world)


def test_a_correction_of_a_ranked_game_rebuilds():
    world = two_clubs()
    games = play(world, PLAN)
    update_rankings(federation_id=world.federation.pk)
    games[1].winner_side, games[1].version = 1, games[1].version + 1
    games[1].save()
    assert update_rankings(federation_id=world.federation.pk)["rebuilt"] is True
    corrected = [*PLAN]
    corrected[1] = (1, PLAN[1][1], 1, 2)
    # the seed's totals still say side 0 has 25: rank the corrected game by the winner alone
    assert stored(world) == direct(world, corrected, by_link)


def test_unlink_and_merge_change_who_is_ranked():
    organiser = make_user("secretary")
    world = two_clubs()
    play(world, PLAN)
    update_rankings(federation_id=world.federation.pk)
    link = PlayerLink.objects.current().get(player=world.club_players["Eve@b"])
    unlink_player(link=link, user=organiser)
    assert update_rankings(federation_id=world.federation.pk)["rebuilt"] is True
    assert "Eve" not in stored(world)
    assert stored(world) == direct(
        world, PLAN, lambda n: None if n[:3] in ("Gus", "Eve") else n[:3]
    )

    merge_players(
        federation=world.federation,
        user=organiser,
        source=world.people["Fay"],
        target=world.people["Dan"],
    )
    update_rankings(federation_id=world.federation.pk)
    merged = {"Gus": None, "Eve": None, "Fay": "Dan"}
    assert stored(world) == direct(world, PLAN, lambda n: merged.get(n[:3], n[:3]))
    assert "Fay" not in stored(world)


def test_a_game_arriving_late_before_the_last_ranked_one_rebuilds_in_order():
    world = two_clubs()
    play(world, PLAN[:2] + PLAN[3:])
    update_rankings(federation_id=world.federation.pk)
    play(world, [PLAN[2]])  # day 3, after days 4 to 6 were ranked
    assert update_rankings(federation_id=world.federation.pk)["rebuilt"] is True
    assert stored(world) == direct(world, PLAN, by_link)


def test_a_settle_up_queues_the_update_of_each_federation_the_club_is_in(monkeypatch):
    from rankings import subscribers
    from settlements.changes import SettlementStored

    world = two_clubs()
    queued = []
    monkeypatch.setattr(subscribers, "enqueue", lambda name, *ids: queued.append((name, *ids)))
    change = SettlementStored(settlement_id=1, club_id=world.clubs[0].pk, version=1, night_id=1)
    subscribers.on_settlement(change)
    assert queued == [("rankings.update_rankings_task", world.federation.pk)]
    world.members[0].left_at = at(9)
    world.members[0].save()
    queued.clear()
    subscribers.on_settlement(change)
    assert queued == []


def _all_rows(federation):
    """Every stored row of the federation's rankings, without ids."""
    ratings = FederationRating.objects.filter(federation=federation).order_by(
        "federation_player_id"
    )
    changes = RankingChange.objects.filter(federation=federation).order_by(
        "sequence", "federation_player_id"
    )
    games = RankedGame.objects.filter(federation=federation).order_by("sequence")
    state = RankingState.objects.get(federation=federation)
    return (
        list(
            ratings.values_list(
                "federation_player_id",
                "mu",
                "sigma",
                "ordinal",
                "games",
                "form",
                "form_games",
                "points",
                "events",
            )
        ),
        list(
            changes.values_list(
                "federation_player_id",
                "game_id",
                "club_id",
                "variant",
                "sequence",
                "finished_at",
                "mu",
                "sigma",
                "ordinal",
                "won",
                "chance",
                "form",
            )
        ),
        list(games.values_list("game_id", "club_id", "sequence", "game_version", "finished_at")),
        (state.last_sequence, state.last_finished_at, state.last_game_id, state.as_of),
    )


def test_a_rebuild_in_tiny_batches_stores_exactly_what_one_batch_stores():
    world = two_clubs()
    play(world, PLAN + [(club, sides, winner, day + 6) for club, sides, winner, day in PLAN])
    update_rankings(federation_id=world.federation.pk, from_scratch=True, batch_games=1000)
    whole = _all_rows(world.federation)
    assert len(whole[2]) == 12
    update_rankings(federation_id=world.federation.pk, from_scratch=True, batch_games=3)
    assert _all_rows(world.federation) == whole
    update_rankings(federation_id=world.federation.pk, from_scratch=True, batch_games=1)
    assert _all_rows(world.federation) == whole


def test_nights_incremental_over_a_year_equal_a_rebuild_in_batches():
    """Form windows that move past a player's games (idle for a year), placings added night by
    night: the incremental path, night by night, stores what a rebuild in batches of 2 does."""
    world = two_clubs()
    nights = [
        [(0, [["Ann@a"], ["Bob@a"]], 0, 1), (1, [["Eve@b"], ["Fay@b"]], 1, 1.1)],
        [
            (0, [["Cat@a"], ["Ann@a"]], 1, 200),
            (1, [["Ann@b", "Eve@b"], ["Bob@b", "Fay@b"]], 0, 200),
        ],
        [(0, [["Cat@a"], ["Dan@a"]], 0, 370)],  # Eve and Fay's day-1 game leaves the window
        [(1, [["Bob@b"], ["Gus@b"]], 0, 600)],  # the window: days 235 to 600
    ]
    for number, plan in enumerate(nights):
        play(world, plan)
        day = plan[-1][3] + 0.5
        club = world.clubs[plan[-1][0]]
        players = [p for name, p in world.club_players.items() if name.endswith(club.slug[-1])]
        settled_night(club, {p: place for place, p in enumerate(players, 1)}, at(day), f"N{number}")
        assert update_rankings(federation_id=world.federation.pk)["rebuilt"] is (number == 0)
    incremental = _all_rows(world.federation)
    forms = dict(
        FederationRating.objects.filter(federation=world.federation).values_list(
            "federation_player_id", "form_games"
        )
    )
    in_window = {"Ann": 0, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 0, "Fay": 0}
    assert forms == {world.people[name].pk: count for name, count in in_window.items()}
    update_rankings(federation_id=world.federation.pk, from_scratch=True, batch_games=2)
    assert _all_rows(world.federation) == incremental
