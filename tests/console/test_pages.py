"""The console's pages with Django's test client: what each shows, how each form's problems are
shown beside their field, exports and the CSV import, and each page's query count.

What it proves: organisers' forms go through the services (a refused paste stores nothing and
names the line), the house-rules form is generated from the engine's definitions and stores only
overrides, the new-event form's defaults and format options, the JSON archive and the CSV, the
import of players from CSV, the walkthrough fixes (the home page's Admin link, the admin's
tournament form), and that every page costs a fixed number of queries however many tables or
players it shows.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase

from clubs.models import Player
from games.services import create_game, record_hand
from settlements.models import Night, PrizeSplit, SettlementTransfer
from settlements.settle_up import between_players as services_between_players
from tests.clubs.factories import make_player, make_user
from tests.helpers import count_queries, logged_in_client
from tests.tournaments.play_helpers import build_event, win_game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _organiser(event) -> Client:
    return logged_in_client(event.world.users["organiser"])


def _console(event) -> str:
    return f"/clubs/{event.club.slug}/console"


def _drive(event, pairs: int) -> dict:
    """A 45 drive of ``pairs`` pairs (tables of two pairs), round 1 drawn privately."""
    tournament = event.create_tournament(
        name="Drive",
        game="45",
        format="drive",
        entrant_kind="team",
        table_size=2,
        round_count=3,
        stake="0.50",
        private_draws=True,
        entrants=[{"team": team.pk} for team in event.teams[:pairs]],
    )
    event.draw(tournament["id"])
    return tournament


# Query counts --------------------------------------------------------------------------------

# Every console page: the session and its user (2), the club with the viewer's role (1); then
# its own reads, none of them per table, per player or per game:
# - event: the tournament, its entrants, the candidates, the rounds with matches, slots and games
#   (5), the tables (matches, slots, team members, games, seats, hands: 6, players' names: 1);
#   a drive under way takes late arrivals, so its candidates too (the teams and members: 2);
#   how many tables have their table link (1: the "Table devices" section)
EVENT_PAGE = 20
# - board: the tournament, the rounds (5), the tables (7), the audit entries, the hands' users
BOARD_PAGE = 16
# - print: the tournament, the rounds (5), the tables (7), the event's table links (1)
PRINT_PAGE = 16
# - results: the tournament, the standings (entrants, matches, slots), the settlement
#   (stakes, entered players, names), the prize split, the stored settle-ups with transfers (2)
#   and their players' names (none before the close), the club's settle-up rule
RESULTS_PAGE = 13
# - players: the players (with accounts), the teams with their members (2)
PLAYERS_PAGE = 6


@pytest.mark.parametrize(
    ("pairs", "page", "pinned"),
    [
        (4, "", EVENT_PAGE),
        (8, "", EVENT_PAGE),
        (4, "board/", BOARD_PAGE),
        (8, "board/", BOARD_PAGE),
        (4, "print/", PRINT_PAGE),
        (8, "print/", PRINT_PAGE),
        (4, "results/", RESULTS_PAGE),
        (8, "results/", RESULTS_PAGE),
    ],
)
def test_the_event_pages_cost_the_same_however_many_tables(pairs, page, pinned):
    event = build_event(players=0, teams=8)
    tournament = _drive(event, pairs)
    url = f"{_console(event)}/events/{tournament['id']}/{page}"
    assert count_queries(_organiser(event).get, url).count == pinned


@pytest.mark.parametrize("extra", [0, 30])
def test_the_players_page_costs_the_same_however_many_players(extra):
    event = build_event(players=extra, teams=2)
    url = f"{_console(event)}/players/"
    assert count_queries(_organiser(event).get, url).count == PLAYERS_PAGE


def test_the_club_pages_answer_in_a_few_queries():
    event = build_event(players=4, teams=2)
    client = _organiser(event)
    counts = {
        page: count_queries(client.get, f"{_console(event)}/{page}").count
        for page in ("", "members/", "house-rules/", "events/new/")
    }
    # The overview: its lists, one query for every fact of the first night's checklist, and two
    # for the federation box (the club's memberships, its proposed player links).
    assert counts == {"": 8, "members/": 4, "house-rules/": 3, "events/new/": 3}


# Forms and problems ----------------------------------------------------------------------------


def test_a_refused_paste_names_the_line_beside_the_field_and_stores_nothing():
    event = build_event(players=0)
    make_player(event.club, "Zoe")
    before = Player.objects.filter(club=event.club).count()
    response = _organiser(event).post(
        f"{_console(event)}/players/", {"action": "paste", "names": "Una\nZOE\nVera"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    field = html.index('name="names"')
    problem = html.index("A player called &#x27;ZOE&#x27; is already in the club.")
    assert field < problem < html.index("Add them all")
    assert Player.objects.filter(club=event.club).count() == before


def test_players_are_imported_from_csv():
    event = build_event(players=0)
    upload = SimpleUploadedFile(
        "players.csv", b"name,phone\nUna,1\nVera,2\n", content_type="text/csv"
    )
    response = _organiser(event).post(
        f"{_console(event)}/players/", {"action": "import", "file": upload}
    )
    assert response.status_code == 302
    assert set(
        Player.objects.filter(club=event.club, display_name__in=["Una", "Vera"]).values_list(
            "display_name", flat=True
        )
    ) == {"Una", "Vera"}


def test_the_house_rules_form_comes_from_the_engine_and_stores_only_overrides():
    event = build_event(players=0)
    client = _organiser(event)
    page = client.get(f"{_console(event)}/house-rules/?game=45").content.decode()
    assert "Score that wins the game" in page and "Default: 45" in page
    assert 'name="bids"' not in page  # bids do not apply to 45
    form = {
        "game": "45",
        "target": "61",
        "trick_points": "5",
        "best_trump_bonus": "5",
        "game_end": "at_hand_end",
        "simultaneous_finish": "higher_total",
        "renege_privilege": ["5", "J", "AH"],
        "dealer_robs_ace": "must",
        "ace_of_hearts_lead": "trump_lead",
        "rob_discard": "any_card",
        "first_lead": "left_of_dealer",
        "renege_penalty": "offender_scores_zero",
        "renege_deduction": "0",
    }
    assert client.post(f"{_console(event)}/house-rules/", form).status_code == 302
    event.club.refresh_from_db()
    assert (event.club.default_game, event.club.default_house_rules) == ("45", {"target": 61})
    form["target"] = "0"
    refused = client.post(f"{_console(event)}/house-rules/", form)
    assert refused.status_code == 400
    # The engine's refusal beside the rule's field, in words (no setting key).
    assert refused.context["problem"].by_field == {
        "target": ["0 is not allowed for this rule in this game."]
    }


def test_a_new_event_takes_its_defaults_and_leaves_out_what_its_format_does_not_use():
    event = build_event(players=0)
    client = _organiser(event)
    page = client.get(f"{_console(event)}/events/new/").content.decode()
    assert 'data-formats="knockout"' in page  # third place: hidden unless a knockout
    response = client.post(
        f"{_console(event)}/events/new/",
        {
            "kind": "tournament",
            "name": "Friday",
            "prize_split": "60, 40",
            "game": "45",
            "format": "drive",
            "entrant_kind": "team",
            "table_size": "2",
            "round_count": "3",
            "match_rule": "best_of",
            "match_games": "1",
            "movement": "losers_stay",
            "bye_rule": "draw",
            "third_place_match": "on",
            "stake": "0.50",
            "entry_fee": "5",
            "private_draws": "on",
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Friday")
    assert (
        tournament.format,
        tournament.entrant_kind,
        tournament.round_count,
        tournament.stake_minor,
        tournament.entry_fee_minor,
        tournament.bye_rule,
        tournament.third_place_match,
        tournament.private_draws,
        tournament.auto_advance,
    ) == ("drive", "team", 3, 50, 500, "win", False, True, False)
    assert PrizeSplit.objects.get(tournament=tournament).percentages == [60, 40]
    refused = client.post(
        f"{_console(event)}/events/new/",
        {
            "kind": "tournament",
            "name": "Bad",
            "game": "45",
            "format": "swiss",
            "entrant_kind": "player",
            "table_size": "2",
            "match_rule": "best_of",
            "match_games": "1",
        },
    )
    assert refused.status_code == 400
    assert b"round_count" in refused.content or b"rounds" in refused.content


def test_the_members_page_invites_without_telling_which_accounts_exist():
    event = build_event(players=0)
    make_user("rita", email="rita@example.org")
    client = _organiser(event)
    url = f"{_console(event)}/members/"
    unknown = client.post(
        url, {"action": "invite", "identifier": "ghost@example.org", "role": "player"}
    )
    assert unknown.status_code == 400
    assert b"No account can be added with that username or e-mail." in unknown.content
    added = client.post(
        url, {"action": "invite", "identifier": "rita@example.org", "role": "scorekeeper"}
    )
    assert added.status_code == 302
    assert event.club.memberships.get(user__username="rita").role == "scorekeeper"


# Exports ----------------------------------------------------------------------------------------


def test_the_event_archive_and_csv():
    event = build_event(players=0, teams=4)
    tournament = _drive(event, 4)
    event.ok("post", f"/api/tournaments/{tournament['id']}/rounds/1/release/")
    match = event.rounds(tournament["id"])[0]["matches"][0]
    win_game(event, match["games"][0]["id"], 0)
    client = _organiser(event)
    url = f"{_console(event)}/events/{tournament['id']}/export/"
    archive = json.loads(client.get(url).content)
    assert (archive["archive"], archive["version"]) == ("jink", 2)
    (exported,) = archive["events"]
    assert [len(round_["matches"]) for round_ in exported["rounds"]] == [2]
    assert len(archive["games"]) == 2
    finished = [game for game in archive["games"] if game["status"] == "finished"]
    assert len(finished) == 1 and len(finished[0]["hands"]) == 2
    assert exported["settlement"]["stake"] == "0.50"
    assert [row["rank"] for row in exported["standings"]] == [1, 2, 3, 4]  # lots separate
    csv_text = client.get(url + "?format=csv").content.decode()
    lines = csv_text.strip().splitlines()
    assert lines[0] == (
        "event,round,table,game,game_type,status,hands,side,players,total,winner,stake,created_at"
    )
    assert len(lines) == 1 + 4  # two games, two sides each
    club_archive = json.loads(client.get(f"{_console(event)}/export/").getvalue())
    assert [item["id"] for item in club_archive["events"]] == [tournament["id"]]


# Walkthrough fixes -----------------------------------------------------------------------------


def test_the_home_page_offers_the_admin_to_staff_only():
    event = build_event(players=0)
    client = _organiser(event)
    assert b"/admin/" not in client.get("/").content
    staff = make_user("staff", is_staff=True)
    client.force_login(staff)
    assert b'href="/admin/"' in client.get("/").content


def test_the_admin_tournament_form_takes_amounts_and_draws_the_lots_seed():
    event = build_event(players=0)
    root = make_user("root", is_staff=True, is_superuser=True)
    client = logged_in_client(root)
    page = client.get("/admin/tournaments/tournament/add/").content.decode()
    assert 'name="lots_seed"' not in page and 'name="stake_minor"' not in page
    response = client.post(
        "/admin/tournaments/tournament/add/",
        {
            "club": event.club.pk,
            "name": "Admin cup",
            "game": "25",
            "format": "knockout",
            "entrant_kind": "player",
            "table_size": 2,
            "movement": "losers_stay",
            "match_rule": "best_of",
            "match_games": 1,
            "bye_rule": "win",
            "tie_breaks": "[]",
            "house_rules": "{}",
            "draw_order": "[]",
            "status": "registration",
            "version": 1,
            "stake": "0.50",
            "entry_fee": "5",
            "entrants-TOTAL_FORMS": 0,
            "entrants-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Admin cup")
    assert (tournament.stake_minor, tournament.entry_fee_minor) == (50, 500)
    assert tournament.lots_seed is not None


def test_a_club_night_is_opened_closed_and_settled_from_the_console():
    event = build_event(players=4)
    client = _organiser(event)
    opened = client.post(
        f"{_console(event)}/events/new/",
        {"kind": "night", "name": "Tuesday", "entry_fee": "2.00", "prize_split": "100"},
    )
    assert opened.status_code == 302
    night = Night.objects.get(club=event.club, name="Tuesday")
    assert (night.entry_fee_minor, night.status) == (200, "open")
    organiser = event.world.users["organiser"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = create_game(
            club=event.club,
            user=organiser,
            game="25",
            seat_player_ids=[player.pk for player in event.players[:2]],
            stake_minor=50,
        )
        record_hand(
            game_id=game.pk,
            user=organiser,
            record={"dealer": 0, "trump": "S", "trick_winners": [0] * 5},
        )
    url = f"{_console(event)}/nights/{night.pk}/"
    # At the door: Player 01 pays the fee in cash; Player 02 owes it.
    first, second = event.players[:2]
    assert (
        client.post(url, {"action": "fee", "player": first.pk, "status": "cash"}).status_code == 302
    )
    assert (
        client.post(url, {"action": "fee", "player": second.pk, "status": "owed"}).status_code
        == 302
    )
    twice = client.post(url, {"action": "fee", "player": first.pk, "status": "card"})
    assert twice.status_code == 409
    assert "Player 01&#x27;s entry fee is already marked: Paid in cash." in twice.content.decode()
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert client.post(url, {"action": "close"}).status_code == 302
    page = client.get(url).content.decode()
    transfer = SettlementTransfer.objects.get(settlement__night=night, kind="stakes")
    # A jink (all five tricks from nothing) doubles the stake of 25: the loser pays 1.00. The
    # club pays the winner the whole pot (4.00) and receives the fee Player 02 owes.
    assert f'id="transfer-{transfer.pk}"' in page
    assert "Player 02 pays Player 01 <strong>€1.00</strong>" in page
    assert "The club pays Player 01 <strong>€4.00</strong>" in page
    assert "Player 02 pays the club <strong>€2.00</strong>" in page
    assert "First place: 100% of the €4.00 pot, €4.00 (Player 01)" in page
    assert "entry fee €2.00" in page  # the |money filter: games.money.format_money
    assert client.post(url, {"action": "paid", "transfer": transfer.pk}).status_code == 302
    transfer.refresh_from_db()
    assert transfer.paid_by == organiser
    assert count_queries(client.get, url).count == NIGHT_PAGE
    # The club's rule, from the same page: from now on, everything between players.
    assert client.post(url, {"action": "settle_rule", "between_players": "on"}).status_code == 302
    assert services_between_players(event.club.pk) is True


# - night: the night with its counts, the prize split, the settle-ups with transfers (2), the
#   players' names; the club's settle-up rule; the fees at the door: the players, their marks
NIGHT_PAGE = 11
