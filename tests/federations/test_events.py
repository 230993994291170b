"""Federation events through the services: selection by the season tables, nominations and the
quota, the host club's tournament.

What it checks: the top N of each member club's 2025 table with its ties (the lower club player
id, fewer games), an inactive player passed over, a person of two clubs entered once, the seeds
interleaved; nominations within the quota and their refusals (each storing nothing); the host
club's tournament with exactly the selected players (the host's own, a linked record reused, new
records named apart and linked to the same federation player); an event created no longer
changes; bad settings refused as the tournaments refuse them.
"""

from __future__ import annotations

import pytest

from clubs.models import Player
from config.problems import Problem
from federations import events
from federations.models import (
    EventStatus,
    FederationAuditEntry,
    FederationEvent,
    FederationNomination,
    PlayerLink,
)
from tests.federations.event_world import county
from tests.federations.factories import make_federation_player, make_link

pytestmark = pytest.mark.django_db


def event_of(w, rule="top_n", quota=2, host=None, **values):
    fields = {
        "name": "County Championship",
        "host_club": host or w.north,
        "game": "25",
        "format": "knockout",
        "date": "2026-03-01",
        "rule": rule,
        "quota": quota,
        "season_year": 2025 if rule == "top_n" else None,
        "settings": {"table_size": 2},
        **values,
    }
    return events.create_event(federation=w.federation, user=w.secretary, **fields)


def selected(event) -> list[tuple]:
    return [
        (entrant.seed, entrant.club.slug, entrant.player.display_name, entrant.place)
        for entrant in event.entrants.select_related("club", "player").order_by("seed")
    ]


def refused(code: str, write, **kwargs) -> Problem:
    with pytest.raises(Problem) as caught:
        write(**kwargs)
    assert caught.value.code == code
    return caught.value


def test_top_n_of_each_season_table_with_its_ties():
    w = county()
    event = event_of(w)
    event = events.select_entrants(event=event, user=w.secretary)
    assert (event.status, event.selected_season_year) == (EventStatus.SELECTED, 2025)
    # North: Bob (2 wins), then Cat before Ann (tied: Cat is the lower id); South: Uma is
    # inactive, then Tia before Sam (tied: Tia played fewer games). Seeds: firsts, then seconds.
    assert selected(event) == [
        (1, "north", "Bob", 1),
        (2, "south", "Tia", 2),
        (3, "north", "Cat", 2),
        (4, "south", "Sam", 3),
    ]
    # the same data selects the same again
    assert selected(events.select_entrants(event=event, user=w.secretary)) == selected(event)


def test_a_person_of_two_clubs_enters_once_for_the_first_club():
    w = county()
    person = make_federation_player(w.federation, "Tia Walsh")
    make_link(person, w.tia)
    make_link(person, w.dan)  # Dan of North is the same person (no win at North)
    event = event_of(w, quota=4)
    event = events.select_entrants(event=event, user=w.secretary)
    assert [(club, name) for _, club, name, _ in selected(event)] == [
        ("north", "Bob"),
        ("south", "Sam"),
        ("north", "Cat"),
        ("south", "Vic"),
        ("north", "Ann"),
        ("north", "Dan"),
    ]


def test_nominations_within_the_quota():
    w = county()
    event = event_of(w, rule="nominations", quota=2, host=w.south)
    first = events.nominate(event=event, user=w.north_org, club=w.north, player=w.ann)
    events.nominate(event=event, user=w.north_org, club=w.north, player=w.dan)
    assert first.order == 1
    refused(
        "quota_full", events.nominate, event=event, user=w.north_org, club=w.north, player=w.bob
    )
    refused(
        "duplicate_player",
        events.nominate,
        event=event,
        user=w.south_org,
        club=w.north,
        player=w.ann,
    )
    refused(
        "other_club", events.nominate, event=event, user=w.south_org, club=w.south, player=w.bob
    )
    refused(
        "inactive_player",
        events.nominate,
        event=event,
        user=w.south_org,
        club=w.south,
        player=w.uma,
    )
    refused(
        "not_a_member",
        events.nominate,
        event=event,
        user=w.west_org,
        club=w.west,
        player=w.west_player,
    )
    events.withdraw_nomination(nomination=first, user=w.north_org)
    assert list(event.nominations.values_list("player__display_name", "order")) == [("Dan", 1)]
    events.nominate(event=event, user=w.north_org, club=w.north, player=w.bob)
    events.nominate(event=event, user=w.south_org, club=w.south, player=w.vic)
    event = events.select_entrants(event=event, user=w.secretary)
    assert selected(event) == [
        (1, "north", "Dan", 1),
        (2, "south", "Vic", 1),
        (3, "north", "Bob", 2),
    ]
    refused(
        "nominations_closed",
        events.nominate,
        event=event,
        user=w.south_org,
        club=w.south,
        player=w.tia,
    )
    assert FederationNomination.objects.count() == 3


def test_a_top_n_event_takes_no_nomination():
    w = county()
    event = event_of(w)
    refused(
        "nominations_closed",
        events.nominate,
        event=event,
        user=w.north_org,
        club=w.north,
        player=w.ann,
    )
    assert not FederationNomination.objects.exists()


def test_the_host_clubs_tournament_has_the_selected_entrants():
    w = county()
    tia_person = make_federation_player(w.federation, "Tia Walsh")
    make_link(tia_person, w.tia)
    tia_at_north = Player.objects.create(club=w.north, display_name="T. Walsh")
    make_link(tia_person, tia_at_north)
    event = events.select_entrants(event=event_of(w), user=w.secretary)
    refused(
        "not_selected",
        events.create_event_tournament,
        event=event_of(w, name="Other"),
        user=w.secretary,
    )
    tournament = events.create_event_tournament(event=event, user=w.secretary)
    assert (tournament.club, tournament.name, tournament.format, tournament.game) == (
        w.north,
        "County Championship",
        "knockout",
        "25",
    )
    entered = [
        (entrant.seed, entrant.player.display_name)
        for entrant in tournament.entrants.select_related("player").order_by("seed")
    ]
    # Tia's North record is reused; South's Sam becomes "Sam (South)": North has a Sam already
    assert entered == [(1, "Bob"), (2, "T. Walsh"), (3, "Cat"), (4, "Sam (South)")]
    sam_at_north = Player.objects.get(club=w.north, display_name="Sam (South)")
    sam_person = PlayerLink.objects.current().get(player=w.sam).federation_player
    assert PlayerLink.objects.current().get(player=sam_at_north).federation_player == sam_person
    assert PlayerLink.objects.current().get(player=sam_at_north).how == "event"
    event.refresh_from_db()
    assert (event.status, event.tournament) == (EventStatus.CREATED, tournament)
    refused("event_created", events.select_entrants, event=event, user=w.secretary)
    refused("event_created", events.update_event, event=event, user=w.secretary, quota=3)
    kinds = list(FederationAuditEntry.objects.values_list("kind", flat=True).order_by("pk"))
    assert kinds[-1] == "event_tournament"


def test_bad_settings_are_refused_as_a_tournament_refuses_them():
    w = county()
    problem = refused("invalid_table_size", event_of, w=w, settings={"advancing_per_table": 2})
    assert problem.errors[0]["pointer"] == "/settings/advancing_per_table"
    problem = refused("required", event_of, w=w, format="swiss", settings={})
    assert problem.errors[0]["pointer"] == "/settings/round_count"
    refused("unknown_field", event_of, w=w, settings={"stake_minor": 20})
    refused("option_not_applicable", event_of, w=w, settings={"entrant_kind": "team"})
    refused("not_a_member", event_of, w=w, host=w.west)
    assert not FederationEvent.objects.exists()


def test_a_change_drops_the_selection():
    w = county()
    event = events.select_entrants(event=event_of(w), user=w.secretary)
    event = events.update_event(event=event, user=w.secretary, quota=1)
    assert (event.status, event.entrants.count()) == (EventStatus.DRAFT, 0)
    event = events.select_entrants(event=event, user=w.secretary)
    assert selected(event) == [(1, "north", "Bob", 1), (2, "south", "Tia", 2)]
