"""Writes to clubs, memberships, players and teams: every change goes through here.

What it does: each function checks the domain rules of one change (house rules valid for the game,
names and slugs unique, a team made of two or three distinct active players of the same club, a
club never left without an organiser), then writes inside one transaction. A broken rule raises
``config.problems.Problem`` — a 4xx with a stable ``code`` and the JSON ``pointer`` of the offending
field of the request body — and nothing is stored.

What it does not do: check types and shapes of input (the API's input serializers do), decide who
may call it (``clubs.permissions``), or shape reads (``clubs.selectors``).

Terms:
- *pointer*: RFC 6901 pointer into the API request body of the change ("/members/1").
- Uniqueness is checked before writing for a clear error; a concurrent duplicate that slips past
  the check is caught from the database constraint and reported the same way (never a 500).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.db.models import F
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils.translation import gettext, gettext_lazy

from clubs.models import (
    MAX_TEAM_SIZE,
    MIN_TEAM_SIZE,
    Club,
    Membership,
    Player,
    Role,
    Team,
    TeamMember,
    normalize_house_rule_overrides,
)
from config.problems import Problem, rules_error_to_problem
from rules_engine.errors import RulesError

# Database constraint name -> (pointer, detail) reported when a concurrent write hits it.
_UNIQUE_CONSTRAINTS = {
    "clubs_club_slug_key": ("/slug", gettext_lazy("A club with this slug already exists.")),
    "clubs_membership_unique_user": (
        "/username",
        gettext_lazy("This user already has a role in this club."),
    ),
    "clubs_player_unique_name": ("/display_name", "A player with this name already exists."),
    "clubs_player_unique_user": ("/username", "This account is already linked to a player."),
    "clubs_team_unique_name": ("/name", "A team with this name already exists in this club."),
}


def _field_problem(pointer: str, code: str, detail: str, status: int | None = None) -> Problem:
    """A problem about one field; ``status`` only to answer the code with another status than
    the catalogue's (config.problem_codes)."""
    return Problem(code=code, detail=str(detail), pointer=pointer, status=status)


def _unique_problem(pointer: str, detail: str) -> Problem:
    return _field_problem(pointer, "unique", detail)


def _save(instance: models.Model) -> None:
    """Save in a savepoint, turning a unique-constraint violation into a 400 problem."""
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError as error:
        constraint = getattr(getattr(error.__cause__, "diag", None), "constraint_name", None)
        if constraint in _UNIQUE_CONSTRAINTS:
            raise _unique_problem(*_UNIQUE_CONSTRAINTS[constraint]) from error
        raise


def _checked_house_rules(game: str, overrides: dict) -> dict:
    try:
        return normalize_house_rule_overrides(game, overrides)
    except RulesError as error:
        raise rules_error_to_problem(error, pointer_prefix="/default_house_rules") from error


def _check_slug_free(slug: str, *, exclude: Club | None = None) -> None:
    clubs = Club.objects.filter(slug=slug)
    if exclude is not None:
        clubs = clubs.exclude(pk=exclude.pk)
    if clubs.exists():
        raise _unique_problem(
            "/slug",
            gettext("A club with the slug %(slug)r already exists.") % {"slug": slug},
        )


def _user_by_username(username: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise _field_problem(
            "/username", "unknown_user", gettext("No user is called %(name)r.") % {"name": username}
        )
    return user


# Clubs ------------------------------------------------------------------------------------------

CLUB_FIELDS = frozenset(
    {
        "name",
        "slug",
        "currency",
        "time_zone",
        "default_game",
        "default_house_rules",
        "public_standings",
        "confirm_hands",
        "require_two_factor",
    }
)


@transaction.atomic
def create_club(
    *,
    user,
    name: str,
    slug: str,
    currency: str,
    time_zone: str,
    default_game: str = "25",
    default_house_rules: dict | None = None,
    public_standings: bool = False,
    confirm_hands: bool = False,
    require_two_factor: bool = False,
) -> Club:
    """Create a club and make ``user`` its organiser."""
    overrides = _checked_house_rules(default_game, default_house_rules or {})
    _check_slug_free(slug)
    club = Club(
        name=name,
        slug=slug,
        currency=currency,
        time_zone=time_zone,
        default_game=default_game,
        default_house_rules=overrides,
        public_standings=public_standings,
        confirm_hands=confirm_hands,
        require_two_factor=require_two_factor,
    )
    _save(club)
    Membership.objects.create(club=club, user=user, role=Role.ORGANISER)
    return club


def names_changed(club_id: int) -> None:
    """A name the pages show changed: the live pages' tags must change (``names_version``).

    The services call it on a rename; so does the admin (``clubs.admin``), which writes the
    models directly."""
    Club.objects.filter(pk=club_id).update(names_version=F("names_version") + 1)


@transaction.atomic
def update_club(*, club: Club, **changes) -> Club:
    """Change some of ``CLUB_FIELDS``; the house rules are re-checked against the (new) game."""
    unknown = set(changes) - CLUB_FIELDS
    if unknown:
        raise TypeError(f"update_club() got unknown fields: {sorted(unknown)}")
    if "slug" in changes:
        _check_slug_free(changes["slug"], exclude=club)
    if "default_game" in changes or "default_house_rules" in changes:
        game = changes.get("default_game", club.default_game)
        overrides = changes.get("default_house_rules", club.default_house_rules)
        changes["default_house_rules"] = _checked_house_rules(game, overrides)
    renamed = "name" in changes and changes["name"] != club.name
    for field, value in changes.items():
        setattr(club, field, value)
    _save(club)
    if renamed:
        names_changed(club.pk)
        club.refresh_from_db(fields=["names_version"])
    return club


@transaction.atomic
def delete_club(*, club: Club) -> None:
    try:
        club.delete()
    except (ProtectedError, RestrictedError) as error:
        raise _field_problem(
            "",
            "club_has_records",
            gettext("The club has recorded results and cannot be deleted."),
        ) from error


# Memberships ------------------------------------------------------------------------------------


@transaction.atomic
def add_membership(*, club: Club, username: str, role: str) -> Membership:
    """Give the user called ``username`` a role in the club (one role per user and club)."""
    user = _user_by_username(username)
    if Membership.objects.filter(club=club, user=user).exists():
        raise _unique_problem(
            "/username",
            gettext("%(name)r already has a role in this club.") % {"name": username},
        )
    membership = Membership(club=club, user=user, role=role)
    _save(membership)
    return membership


def _check_other_organiser_remains(membership: Membership, pointer: str) -> None:
    if membership.role != Role.ORGANISER:
        return
    # Lock the organisers so two concurrent demotions cannot both see "another one remains".
    organisers = list(
        Membership.objects.select_for_update()
        .filter(club_id=membership.club_id, role=Role.ORGANISER)
        .values_list("pk", flat=True)
    )
    if organisers == [membership.pk]:
        raise _field_problem(
            pointer, "last_organiser", gettext("A club must keep at least one organiser.")
        )


@transaction.atomic
def change_membership_role(*, membership: Membership, role: str) -> Membership:
    if role != membership.role:
        if role != Role.ORGANISER:
            _check_other_organiser_remains(membership, "/role")
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_membership(*, membership: Membership) -> None:
    _check_other_organiser_remains(membership, "")
    membership.delete()


# Players ----------------------------------------------------------------------------------------


def _check_player_name_free(club: Club, display_name: str, exclude: Player | None) -> None:
    players = Player.objects.filter(club=club, display_name__iexact=display_name)
    if exclude is not None:
        players = players.exclude(pk=exclude.pk)
    if players.exists():
        raise _unique_problem(
            "/display_name",
            gettext("A player called %(name)r already exists in this club.")
            % {"name": display_name},
        )


def _linked_user(club: Club, username: str | None, exclude: Player | None):
    if username is None:
        return None
    user = _user_by_username(username)
    players = Player.objects.filter(club=club, user=user)
    if exclude is not None:
        players = players.exclude(pk=exclude.pk)
    if players.exists():
        raise _unique_problem(
            "/username",
            gettext("%(name)r is already linked to another player of this club.")
            % {"name": username},
        )
    return user


@transaction.atomic
def add_player(
    *, club: Club, display_name: str, username: str | None = None, is_active: bool = True
) -> Player:
    """Add a person to the club's books, optionally linked to the account called ``username``."""
    display_name = display_name.strip()
    _check_player_name_free(club, display_name, None)
    player = Player(
        club=club,
        display_name=display_name,
        user=_linked_user(club, username, None),
        is_active=is_active,
    )
    _save(player)
    return player


_UNSET = object()


@transaction.atomic
def update_player(
    *, player: Player, display_name=_UNSET, username=_UNSET, is_active=_UNSET
) -> Player:
    """Rename, (un)link (``username=None`` unlinks) or (de)activate a player."""
    renamed = display_name is not _UNSET and display_name.strip() != player.display_name
    if display_name is not _UNSET:
        player.display_name = display_name.strip()
        _check_player_name_free(player.club, player.display_name, player)
    if username is not _UNSET:
        player.user = _linked_user(player.club, username, player)
    if is_active is not _UNSET:
        player.is_active = is_active
    _save(player)
    if renamed:
        names_changed(player.club_id)
    return player


@transaction.atomic
def delete_player(*, player: Player) -> bool:
    """Delete the player, or deactivate them when records refer to them (teams, games).

    Returns True when deleted, False when deactivated instead.
    """
    try:
        with transaction.atomic():
            player.delete()
        return True
    except (ProtectedError, RestrictedError):
        player.is_active = False
        player.save(update_fields=["is_active"])
        return False


# Teams ------------------------------------------------------------------------------------------


def check_club_players(
    *,
    club: Club,
    player_ids: Sequence[int],
    pointer: str,
    twice: str,
    known: dict[int, Player] | None = None,
) -> list[Player]:
    """The club's active players for ``player_ids``, in order, or a 400 ``Problem`` listing every
    bad id at ``"<pointer>/<index>"``: ``unknown_player`` (no such player in this club — the same
    answer for another club's player, so other clubs' ids reveal nothing), ``inactive_player``,
    or ``duplicate_player`` for an id given twice (``twice`` ends its detail: "is seated twice").
    ``known``: the players already loaded for these ids (by id), to spare the query."""
    players = (
        known
        if known is not None
        else Player.objects.filter(club=club, pk__in=player_ids).in_bulk()
    )
    errors = []
    seen: set[int] = set()
    for index, player_id in enumerate(player_ids):
        here = f"{pointer}/{index}"
        player = players.get(player_id)
        if player is None:
            code, detail = (
                "unknown_player",
                gettext("No player with id %(id)s in this club.") % {"id": player_id},
            )
        elif not player.is_active:
            code, detail = (
                "inactive_player",
                gettext("Player %(id)s (%(name)s) is no longer active.")
                % {"id": player_id, "name": player.display_name},
            )
        elif player_id in seen:
            code, detail = (
                "duplicate_player",
                (f"Player {player_id} ({player.display_name}) {twice}."),
            )
        else:
            code = None
        if code is not None:
            errors.append({"code": code, "detail": detail, "pointer": here})
        seen.add(player_id)
    if errors:
        raise Problem(
            code=errors[0]["code"],
            detail="; ".join(error["detail"] for error in errors),
            errors=errors,
        )
    return [players[player_id] for player_id in player_ids]


def _checked_members(club: Club, member_ids: Sequence[int]) -> list[Player]:
    """The players for ``member_ids`` in order; every problem reported with its "/members/i"."""
    if not MIN_TEAM_SIZE <= len(member_ids) <= MAX_TEAM_SIZE:
        raise _field_problem(
            "/members",
            "team_size",
            gettext("A team has %(low)s or %(high)s players, not %(count)s.")
            % {"low": MIN_TEAM_SIZE, "high": MAX_TEAM_SIZE, "count": len(member_ids)},
        )
    return check_club_players(
        club=club, player_ids=member_ids, pointer="/members", twice="is in this team twice"
    )


def _check_team_name_free(club: Club, name: str, exclude: Team | None) -> None:
    teams = Team.objects.filter(club=club, name__iexact=name)
    if exclude is not None:
        teams = teams.exclude(pk=exclude.pk)
    if teams.exists():
        raise _unique_problem(
            "/name",
            gettext("A team called %(name)r already exists in this club.") % {"name": name},
        )


def _set_members(team: Team, players: list[Player]) -> None:
    TeamMember.objects.filter(team=team).delete()
    TeamMember.objects.bulk_create(
        TeamMember(team=team, player=player, position=position)
        for position, player in enumerate(players)
    )


@transaction.atomic
def create_team(
    *, club: Club, name: str, member_ids: Sequence[int], is_active: bool = True
) -> Team:
    """A team of two or three distinct active players of ``club``, kept in the order given."""
    name = name.strip()
    _check_team_name_free(club, name, None)
    players = _checked_members(club, member_ids)
    team = Team(club=club, name=name, is_active=is_active)
    _save(team)
    _set_members(team, players)
    return team


@transaction.atomic
def update_team(*, team: Team, name=_UNSET, member_ids=_UNSET, is_active=_UNSET) -> Team:
    """Rename, replace the members of (in the order given) or (de)activate a team."""
    renamed = name is not _UNSET and name.strip() != team.name
    if name is not _UNSET:
        team.name = name.strip()
        _check_team_name_free(team.club, team.name, team)
    players = _checked_members(team.club, member_ids) if member_ids is not _UNSET else None
    if is_active is not _UNSET:
        team.is_active = is_active
    _save(team)
    if players is not None:
        _set_members(team, players)
    if renamed or players is not None:
        names_changed(team.club_id)
    return team


@transaction.atomic
def delete_team(*, team: Team) -> bool:
    """Delete the team, or deactivate it when records refer to it. True when deleted."""
    try:
        with transaction.atomic():
            team.delete()
        return True
    except (ProtectedError, RestrictedError):
        team.is_active = False
        team.save(update_fields=["is_active"])
        return False
