"""The exchange round trip of an event (a tournament): a knockout of four with a third-place
match, a best-of-three final, a prize split, an entry fee taken at the door and a stake, played
through the API in one club, exported (``GET /api/tournaments/{id}/exchange/``), checked against
docs/exchange.schema.json and imported into a second club (``POST /api/clubs/{slug}/imports/``):
the same draw, games, hands, standings, places and settle-up. Imported again: unchanged (the
same rows). A corrected hand updates exactly that game; a redrawn match, a team of other
players, a match the games do not decide and garbage are refused, nothing stored."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.conf import settings
from jsonschema import Draft202012Validator

from clubs.models import Player, Team
from exchange.models import ImportedEvent, ImportRecord
from games.models import Game, Hand
from settlements.models import Settlement, SettlementTransfer
from tests.exchange.helpers import federation, game_versions, row_counts
from tests.tournaments.play_helpers import build_event, current_game, win_match
from tournaments.models import Entrant, Match, MatchEntrant, Round, Tournament

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(settings.BASE_DIR) / "docs" / "exchange.schema.json").read_text())


def event_rows() -> dict:
    return {
        **row_counts(),
        **{
            model.__name__: model.objects.count()
            for model in (Tournament, Entrant, Round, Match, MatchEntrant, Team, ImportedEvent)
        },
    }


def played_cup(home, *, teams: bool = False) -> int:
    """A closed knockout of four with a third-place match; its id."""
    entrants = (
        [{"team": team.pk} for team in home.teams]
        if teams
        else [{"player": player.pk} for player in home.players[:4]]
    )
    tournament = home.create_tournament(
        name="Winter cup",
        game="25",
        format="knockout",
        entrant_kind="team" if teams else "player",
        third_place_match=True,
        stake="0.20",
        entry_fee="5.00",
        entrants=entrants,
    )
    tournament_id = tournament["id"]
    home.ok("put", f"/api/tournaments/{tournament_id}/prize-split/", {"percentages": [60, 40]})
    first = entrants[0]
    if not teams:
        home.ok(
            "post",
            f"/api/tournaments/{tournament_id}/fees/",
            {"player": first["player"], "status": "cash"},
            status=201,
        )
    semis = home.draw(tournament_id)["matches"]
    win_match(home, tournament_id, semis[0]["id"], 0)
    win_match(home, tournament_id, semis[1]["id"], 1)
    later = [
        match
        for round_ in home.rounds(tournament_id)
        if round_["number"] == 2
        for match in round_["matches"]
    ]
    assert len(later) == 2
    for match in later:
        if match["is_third_place"]:
            win_match(home, tournament_id, match["id"], 0)
        else:
            play_final(home, tournament_id, match["id"])
    home.ok("post", f"/api/tournaments/{tournament_id}/close/")
    return tournament_id


def play_final(home, tournament_id: int, match_id: int) -> None:
    """The final in two hands, side 0 winning 25 to 20: 10-15, then 25-20 (a correction of the
    last hand, 25-15, moves the points but not the winner)."""
    game = home.game(current_game(home, tournament_id, match_id)["id"])
    winner, loser = (side["seats"][0] for side in game["sides"])
    for tricks in ([winner, winner, loser, loser, loser], [winner, loser, winner, winner]):
        game = home.game(game["id"])
        record = {"dealer": game["next_dealer"], "trump": "S", "trick_winners": tricks}
        home.ok("post", f"/api/games/{game['id']}/hands/", record, status=201)
    assert home.game(game["id"])["status"] == "finished"


def export_event(event, tournament_id: int) -> dict:
    response = event.call("get", f"/api/tournaments/{tournament_id}/exchange/")
    assert response.status_code == 200, response.content[:500]
    return response.json()


def import_file(club, document, status: int | None = None):
    response = club.call("post", f"/api/clubs/{club.club.slug}/imports/", document)
    if status is not None:
        assert response.status_code == status, response.content[:2000]
    return response


def _entrant_name(entrant) -> str:
    return entrant.player.display_name if entrant.player_id else entrant.team.name


def draw_of(tournament: Tournament) -> list:
    """The rounds, tables and seats by names (ids differ between the clubs)."""
    rows = []
    for match in Match.objects.filter(tournament=tournament).order_by("round__number", "table"):
        slots = [
            (
                slot.position,
                _entrant_name(slot.entrant),
                slot.side,
                (slot.source_match.round.number, slot.source_match.table)
                if slot.source_match_id
                else None,
                slot.source_place,
                slot.games_won,
                slot.points_for,
                slot.tricks_won,
                slot.place,
                slot.advances,
            )
            for slot in match.slots.order_by("position").select_related(
                "entrant__player", "entrant__team", "source_match__round"
            )
        ]
        games = [
            (
                game.totals,
                game.status,
                game.winner_side,
                game.stake_minor,
                game.house_rules,
                [(seat.seat, seat.player.display_name, seat.side) for seat in game.seats.all()],
                list(Hand.objects.filter(game=game).order_by("number").values_list("record")),
            )
            for game in Game.objects.filter(match_link__match=match).order_by("pk")
        ]
        rows.append(
            (
                match.round.number,
                match.round.status,
                match.table,
                match.status,
                match.is_bye,
                match.is_third_place,
                slots,
                games,
            )
        )
    return rows


def standings_of(event, tournament_id: int) -> list:
    return [
        (
            row["rank"],
            row.get("place"),
            row["entrant"]["name"],
            row["match_wins"],
            row["points_for"],
            row["tricks_won"],
        )
        for row in event.standings(tournament_id)
    ]


def settle_up_of(tournament_id: int) -> tuple:
    version = Settlement.objects.filter(tournament_id=tournament_id).order_by("-version").first()
    names = dict(Player.objects.values_list("pk", "display_name"))
    lines = [
        {key: (names.get(value) if key == "player" else value) for key, value in line.items()}
        for line in version.lines
    ]
    transfers = sorted(
        (
            t.payer.display_name if t.payer else "the club",
            t.payee.display_name if t.payee else "the club",
            t.amount_minor,
            t.kind,
        )
        for t in SettlementTransfer.objects.filter(settlement=version).select_related(
            "payer", "payee"
        )
    )
    return version.version, lines, transfers


@pytest.fixture
def cup():
    home = build_event(players=4)
    tournament_id = played_cup(home)
    return home, tournament_id, export_event(home, tournament_id)


def test_an_event_round_trip_and_the_same_file_twice(cup):
    home, tournament_id, document = cup
    Draft202012Validator(SCHEMA).validate(document)
    assert (document["origin"]["kind"], document["night"], document["event"]["name"]) == (
        "event",
        None,
        "Winter cup",
    )
    assert document["event"]["settings"]["third_place_match"] is True
    assert [match["is_third_place"] for match in document["event"]["rounds"][1]["matches"]].count(
        True
    ) == 1

    away = federation()
    imported = import_file(away, document, status=201).json()
    assert (imported["outcome"], imported["night"]) == ("created", None)
    assert imported["summary"]["players"] == {"created": 4, "matched": 0, "renamed": 0}
    there = Tournament.objects.get(pk=imported["event"])
    here = Tournament.objects.get(pk=tournament_id)
    assert (there.club, there.name, there.status, there.format, there.third_place_match) == (
        away.club,
        "Winter cup",
        "closed",
        "knockout",
        True,
    )
    assert (there.stake_minor, there.entry_fee_minor, there.lots_seed) == (
        here.stake_minor,
        here.entry_fee_minor,
        here.lots_seed,
    )
    assert draw_of(there) == draw_of(here)
    assert standings_of(away, there.pk) == standings_of(home, here.pk)
    assert [row[1] for row in standings_of(away, there.pk)] == [1, 2, 3, 4]
    assert settle_up_of(there.pk) == settle_up_of(here.pk)
    assert settle_up_of(there.pk)[0] == 1

    counts, versions = event_rows(), game_versions()
    again = import_file(away, document, status=200).json()
    assert (again["outcome"], again["event"]) == ("unchanged", there.pk)
    assert (event_rows(), game_versions()) == (counts, versions)
    fresh = export_event(home, tournament_id)
    assert import_file(away, fresh, status=200).json()["outcome"] == "unchanged"
    assert (event_rows(), game_versions()) == (counts, versions)
    assert list(
        ImportRecord.objects.filter(club=away.club).order_by("id").values_list("outcome", flat=True)
    ) == ["created", "unchanged", "unchanged"]


def test_a_corrected_hand_updates_the_game_and_the_settle_up(cup):
    home, tournament_id, document = cup
    away = federation()
    tournament = import_file(away, document, status=201).json()["event"]
    # At the origin, the final's last hand is corrected: the loser took no trick in it.
    (index,) = [i for i, game in enumerate(document["games"]) if len(game["hands"]) == 2]
    game = document["games"][index]
    record = game["hands"][1]["record"]
    record = {**record, "trick_winners": [record["trick_winners"][0]] * 3}
    etag = Game.objects.get(pk=game["id"]).etag
    url = f"/api/games/{game['id']}/hands/2/"
    response = home.call("put", url, record, **{"If-Match": etag})
    assert response.status_code == 200, response.content[:500]
    corrected = export_event(home, tournament_id)
    assert (game["totals"][game["winner_side"]], corrected["games"][index]["winner_side"]) == (
        25,
        game["winner_side"],
    )
    assert sorted(corrected["games"][index]["totals"]) == [15, 25]
    assert sorted(game["totals"]) == [20, 25]

    versions = game_versions()
    updated = import_file(away, corrected, status=200).json()
    assert (updated["outcome"], updated["summary"]["games"]["changed"]) == ("updated", 1)
    changed = {pk for pk, version in game_versions().items() if versions.get(pk) != version}
    (local,) = changed
    assert Game.objects.get(pk=local).totals == corrected["games"][index]["totals"]
    assert standings_of(away, tournament) == standings_of(home, tournament_id)
    assert draw_of(Tournament.objects.get(pk=tournament)) == draw_of(
        Tournament.objects.get(pk=tournament_id)
    )
    assert settle_up_of(tournament) == settle_up_of(tournament_id)
    # Imported again: nothing more changes.
    counts, versions = event_rows(), game_versions()
    assert import_file(away, corrected, status=200).json()["outcome"] == "unchanged"
    assert (event_rows(), game_versions()) == (counts, versions)


def test_a_redrawn_match_is_a_conflict_and_nothing_is_stored(cup):
    _, _, document = cup
    away = federation()
    import_file(away, document, status=201)
    redrawn = copy.deepcopy(document)
    first = redrawn["event"]["rounds"][0]["matches"][0]
    first["entrants"] = list(reversed(first["entrants"]))
    before, versions = event_rows(), game_versions()
    response = import_file(away, redrawn, status=409)
    assert response.json()["code"] == "exchange_conflict"
    assert [(error["code"], error["pointer"]) for error in response.json()["errors"]] == [
        ("exchange_event_redrawn", "/event/rounds/0/matches/0")
    ]
    assert (event_rows(), game_versions()) == (before, versions)


def test_a_team_of_other_players_is_a_conflict():
    home = build_event(players=0, teams=4)
    tournament_id = played_cup(home, teams=True)
    document = export_event(home, tournament_id)
    Draft202012Validator(SCHEMA).validate(document)
    away = federation()
    imported = import_file(away, document, status=201).json()
    there = Tournament.objects.get(pk=imported["event"])
    assert draw_of(there) == draw_of(Tournament.objects.get(pk=tournament_id))
    assert standings_of(away, there.pk) == standings_of(home, tournament_id)

    elsewhere = build_event(players=0, slug="elsewhere")
    players = [Player.objects.create(club=elsewhere.club, display_name=f"P{n}") for n in range(2)]
    team = Team.objects.create(club=elsewhere.club, name=document["teams"][0]["name"])
    for position, player in enumerate(players):
        team.team_members.create(player=player, position=position)
    before = event_rows()
    response = import_file(elsewhere, document, status=409)
    assert [(error["code"], error["pointer"]) for error in response.json()["errors"]] == [
        ("exchange_team_differs", "/teams/0/members")
    ]
    assert event_rows() == before


def test_a_match_whose_games_do_not_match_the_file_is_refused(cup):
    _, _, document = cup
    away = federation()
    wrong = copy.deepcopy(document)
    result = wrong["event"]["rounds"][0]["matches"][0]["result"]
    result["placings"] = list(reversed(result["placings"]))
    before = event_rows()
    response = import_file(away, wrong, status=422)
    assert [(error["code"], error["pointer"]) for error in response.json()["errors"]] == [
        ("exchange_replay_differs", "/event/rounds/0/matches/0")
    ]
    assert event_rows() == before
    # A game's hands that no longer finish it: the match is not decided, the game differs.
    short = copy.deepcopy(document)
    short["games"][0]["hands"] = []
    response = import_file(away, short, status=422)
    assert response.json()["code"] == "exchange_replay_differs"
    assert response.json()["errors"][0]["pointer"] == "/games/0"
    assert event_rows() == before


def test_garbage_and_broken_references_are_4xx(cup):
    _, _, document = cup
    away = federation()
    before = event_rows()
    for body in (
        {**document, "event": {"name": "Cup"}},
        {**document, "event": None},
        [1, 2, 3],
        "event",
    ):
        response = import_file(away, body)
        assert 400 <= response.status_code < 500, response.content[:500]
    unknown = copy.deepcopy(document)
    unknown["event"]["entrants"][0]["player"] = 999_999
    unknown["event"]["rounds"][0]["matches"][0]["games"].append(888_888)
    response = import_file(away, unknown, status=400)
    assert [(error["code"], error["pointer"]) for error in response.json()["errors"]] == [
        ("exchange_invalid", "/event/entrants/0/player"),
        ("exchange_invalid", "/event/rounds/0/matches/0/games/1"),
    ]
    still_open = copy.deepcopy(document)
    still_open["event"]["status"] = "in_progress"
    response = import_file(away, still_open, status=409)
    assert (response.json()["code"], response.json()["errors"][0]["pointer"]) == (
        "exchange_event_open",
        "/event/status",
    )
    assert event_rows() == before
