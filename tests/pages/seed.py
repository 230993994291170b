"""Seeded data for the page tests: two clubs, their members, games, a tournament and a ledger.

What it does: ``seed_clubs()`` writes, through the real services (so the engine checks every hand,
the ledger books the stakes and the tournament advances exactly as in production), the data every
page test asserts against:

- *Kilkenny Card Club* (``kilkenny``, EUR, private): users ``orla`` (organiser), ``sean``
  (scorekeeper), ``pat`` (player, linked to the player "Pat") and ``olive`` (an outsider with no
  role); players Ann, Bill, Cait, Dan, Eve, Finn, Gus and Pat.
  - game ``twenty_five``: 25, Ann & Cait v Bill & Pat, stake 0.20, finished in two hands,
    Ann & Cait winning 25 to 20 (Bill and Pat pay 0.20 each, Ann and Cait receive 0.20 each);
  - game ``forty_five``: 45, Dan & Finn v Eve & Gus, no stake, two hands in (10 to 20);
  - tournament ``cup``: "Winter Cup", knockout of 25, Ann (seed 1), Bill, Cait, Dan (seed 4),
    stake 0.10; semi-final table 1 (Ann v Dan) won by Ann 25 to 0, table 2 (Bill v Cait) won
    by Bill 25 to 10, the final (Ann v Bill) in progress at 10 to 15 after one hand (Dan pays
    Ann 0.10 and Cait pays Bill 0.10).
- *Callan Club* (``callan``, EUR, public standings): ``pat`` is not a member; user ``cara``
  (player, linked to the player "Cara"); players Cara, Declan, Eoin; one finished game of 25,
  each for themselves, won by Cara at 0.50 a head; a public tournament ("Open Drive") and a
  private one ("Members Night").

The steps it takes through the services, ``play_hands``, ``start_game`` and ``draw`` (the next
round, its after-commit work run), serve the tests and ``seed_night.py`` too.

What it does not do: assert anything (the tests do). Passwords are set only for ``pat`` (the
browser test logs in through the form) because hashing costs time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.test import TestCase

from clubs.models import Club, Membership, Player, Role
from games import services as game_services
from games.models import Game
from tournaments import services as tournament_services
from tournaments.models import Tournament

PASSWORD = "a-long-test-password-for-pat"


@dataclass
class Seed:
    clubs: dict[str, Club]
    users: dict[str, object]
    players: dict[str, Player]
    games: dict[str, Game]
    tournaments: dict[str, Tournament]
    extra: dict = field(default_factory=dict)


def _user(username: str, *, password: str | None = None):
    user = get_user_model()(username=username)
    if password:
        user.set_password(password)
    else:
        user.set_unusable_password()
    user.save()
    return user


def _club(slug: str, name: str, *, public: bool) -> Club:
    return Club.objects.create(
        slug=slug,
        name=name,
        currency="EUR",
        time_zone="Europe/Dublin",
        default_game="25",
        public_standings=public,
    )


def play_hands(game: Game, user, records: list[dict]) -> Game:
    """Record the hands through the games service, running its after-commit work (progress)."""
    for record in records:
        with TestCase.captureOnCommitCallbacks(execute=True):
            game_services.record_hand(game_id=game.pk, user=user, record=dict(record))
    game.refresh_from_db()
    return game


def draw(tournament: Tournament, user) -> None:
    """Draw the tournament's next round through its service, running its after-commit work."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_services.draw_next_round(tournament_id=tournament.pk, user=user)


def start_game(club: Club, user, game: str, players: list[Player], **options) -> Game:
    return game_services.create_game(
        club=club,
        user=user,
        game=game,
        seat_player_ids=[player.pk for player in players],
        **options,
    )


def seed_clubs() -> Seed:
    kilkenny = _club("kilkenny", "Kilkenny Card Club", public=False)
    callan = _club("callan", "Callan Club", public=True)
    users = {
        "orla": _user("orla"),
        "sean": _user("sean"),
        "pat": _user("pat", password=PASSWORD),
        "olive": _user("olive"),
        "cara": _user("cara"),
    }
    Membership.objects.create(club=kilkenny, user=users["orla"], role=Role.ORGANISER)
    Membership.objects.create(club=kilkenny, user=users["sean"], role=Role.SCOREKEEPER)
    Membership.objects.create(club=kilkenny, user=users["pat"], role=Role.PLAYER)
    Membership.objects.create(club=callan, user=users["cara"], role=Role.PLAYER)
    players = {
        name: Player.objects.create(club=kilkenny, display_name=name)
        for name in ("Ann", "Bill", "Cait", "Dan", "Eve", "Finn", "Gus")
    }
    players["Pat"] = Player.objects.create(club=kilkenny, display_name="Pat", user=users["pat"])
    players["Cara"] = Player.objects.create(club=callan, display_name="Cara", user=users["cara"])
    players["Declan"] = Player.objects.create(club=callan, display_name="Declan")
    players["Eoin"] = Player.objects.create(club=callan, display_name="Eoin")
    scorekeeper = users["sean"]
    games: dict[str, Game] = {}

    # Seats clockwise Ann, Bill, Cait, Pat: Ann & Cait (side 0) against Bill & Pat (side 1).
    games["twenty_five"] = start_game(
        kilkenny,
        scorekeeper,
        "25",
        [players["Ann"], players["Bill"], players["Cait"], players["Pat"]],
        teams=[[0, 2], [1, 3]],
        first_dealer=3,
        stake_minor=20,
    )
    play_hands(
        games["twenty_five"],
        scorekeeper,
        [
            {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]},
            {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 0, 2]},
        ],
    )
    games["forty_five"] = start_game(
        kilkenny,
        scorekeeper,
        "45",
        [players["Dan"], players["Eve"], players["Finn"], players["Gus"]],
        teams=[[0, 2], [1, 3]],
        first_dealer=0,
    )
    play_hands(
        games["forty_five"],
        scorekeeper,
        [
            {
                "dealer": 0,
                "trump": "C",
                "trick_winners": [1, 1, 0, 2, 1],
                "best_trump": {"seat": 0, "trick": 2},
            },
            {
                "dealer": 1,
                "trump": "D",
                "trick_winners": [2, 2, 3, 3, 2],
                "best_trump": {"seat": 3, "trick": 2},
            },
        ],
    )

    cup = tournament_services.create_tournament(
        club=kilkenny,
        user=users["orla"],
        values={
            "name": "Winter Cup",
            "game": "25",
            "format": "knockout",
            "stake_minor": 10,
            "lots_seed": 7,
        },
        entrants=[
            {"player": players["Ann"].pk, "seed": 1},
            {"player": players["Bill"].pk, "seed": 2},
            {"player": players["Cait"].pk, "seed": 3},
            {"player": players["Dan"].pk, "seed": 4},
        ],
    )
    draw(cup, users["orla"])
    semi_final_games = {
        game.match_link.match.table: game
        for game in Game.objects.filter(match_link__match__tournament=cup).select_related(
            "match_link__match"
        )
    }
    games["semi_final_1"] = semi_final_games[1]
    games["semi_final_2"] = semi_final_games[2]
    # Table 1: Ann (seat 0) takes every trick of one hand, 25 to 0.
    play_hands(
        games["semi_final_1"],
        scorekeeper,
        [
            {"dealer": 0, "trump": "S", "trick_winners": [0, 0, 0, 0, 0]},
        ],
    )
    # Table 2: Bill (seat 0) wins 25 to 10 in two hands; the final (Ann v Bill) then starts.
    play_hands(
        games["semi_final_2"],
        scorekeeper,
        [
            {"dealer": 0, "trump": "C", "trick_winners": [0, 1, 0, 1, 0]},
            {"dealer": 1, "trump": "H", "trick_winners": [0, 0]},
        ],
    )
    games["final"] = Game.objects.get(
        match_link__match__tournament=cup, match_link__match__round__number=2
    )
    play_hands(
        games["final"],
        scorekeeper,
        [
            {"dealer": 0, "trump": "D", "trick_winners": [0, 1, 1, 1, 0]},
        ],
    )

    games["callan"] = start_game(
        callan,
        None,
        "25",
        [players["Cara"], players["Declan"], players["Eoin"]],
        first_dealer=0,
        stake_minor=50,
    )
    play_hands(
        games["callan"],
        None,
        [
            {"dealer": 0, "trump": "D", "trick_winners": [0, 0, 0, 0, 0]},
        ],
    )
    open_drive = tournament_services.create_tournament(
        club=callan,
        user=None,
        values={
            "name": "Open Drive",
            "game": "25",
            "format": "round_robin",
            "is_public": True,
            "lots_seed": 3,
        },
        entrants=[{"player": players[name].pk} for name in ("Cara", "Declan", "Eoin")],
    )
    members_night = tournament_services.create_tournament(
        club=callan,
        user=None,
        values={"name": "Members Night", "game": "25", "format": "round_robin", "lots_seed": 5},
        entrants=[{"player": players[name].pk} for name in ("Cara", "Declan")],
    )
    for game in games.values():
        game.refresh_from_db()
    cup.refresh_from_db()
    return Seed(
        clubs={"kilkenny": kilkenny, "callan": callan},
        users=users,
        players=players,
        games=games,
        tournaments={"cup": cup, "open_drive": open_drive, "members_night": members_night},
    )
