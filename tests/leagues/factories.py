"""Test data for leagues: a federation with member clubs, their captains and a league.

What it does: ``LeagueWorld`` builds the federation ``county`` (organiser ``organiser``) with the
member clubs ``north``, ``south`` and ``east`` (each with eight players; the first is the captain,
whose account ``captain_<club>`` is also the club's scorekeeper, so it can start the club's games
through the API), a rival federation with its own member club ``west``, a club organiser of
``north`` who is no captain, an outsider, and the league ``winter`` (45, pairs, two tables a
fixture, 2/1/0 points, season 2026-09-01 to 2027-04-30) with one team per club entered through
the services. ``draw()`` draws the fixtures.

What it does not do: test anything.
"""

from __future__ import annotations

from datetime import date

from clubs.models import Role
from leagues import services
from leagues.models import League, LeagueTeam
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from tests.federations.factories import make_federation, make_member

SEASON = {"season_start": date(2026, 9, 1), "season_end": date(2027, 4, 30)}


def make_league(federation, organiser, slug: str = "winter", **fields) -> League:
    values = {
        "variant": "45",
        "team_format": "2v2",
        "tables_per_fixture": 2,
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        **SEASON,
        **fields,
    }
    return services.create_league(
        federation=federation, user=organiser, name=slug.title(), slug=slug, **values
    )


class LeagueWorld:
    def __init__(self, clubs=("north", "south", "east"), **league_fields) -> None:
        self.organiser = make_user("organiser")
        self.rival = make_user("rival")
        self.outsider = make_user("outsider")
        self.club_organiser = make_user("club_organiser")
        self.county = make_federation("county", organiser=self.organiser)
        self.other = make_federation("other", organiser=self.rival)
        self.clubs, self.captains, self.teams, self.players = {}, {}, {}, {}
        for slug in clubs:
            club = make_club(slug, default_game="45")
            make_member(self.county, club)
            captain = make_user(f"captain_{slug}")
            make_membership(club, captain, Role.SCOREKEEPER)
            self.clubs[slug] = club
            self.captains[slug] = captain
            self.players[slug] = [
                make_player(club, f"{slug.title()} {index}", user=captain if index == 0 else None)
                for index in range(8)
            ]
        make_membership(self.clubs[clubs[0]], self.club_organiser, Role.ORGANISER)
        self.west = make_club("west")
        make_member(self.other, self.west)
        self.west_player = make_player(self.west, "West 0")
        self.league = make_league(self.county, self.organiser, **league_fields)
        for slug in clubs:
            self.teams[slug] = services.add_team(
                league=self.league,
                user=self.organiser,
                club=self.clubs[slug],
                name=f"{slug.title()} A",
                captain_id=self.players[slug][0].pk,
                player_ids=[player.pk for player in self.players[slug][1:4]],
            )

    def draw(self):
        return services.generate_fixtures(league=self.league, user=self.organiser)

    def team(self, slug: str) -> LeagueTeam:
        return self.teams[slug]
