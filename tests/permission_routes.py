"""The permission matrix's table: for every route and method, what each kind of user gets.

What it does: ``ROUTES`` declares, for each route (by name, or by pattern for unnamed ones; glob
keys like ``"admin:*"`` allowed) and each HTTP method, what an anonymous user, an outsider (logged
in, no role), a player, a scorekeeper and an organiser of the club get — "ok" (any 2xx), or an
exact status (``Expect``; ``Delegated`` when another test owns the route's permissions, said
where). Routes under a club are run against a private club and again against a public one.
``UNDECLARED_METHODS`` says what the organiser gets, where it is not 405, for a method a route
does not declare. ``BODIES`` are valid request bodies (so "ok" really means the write worked),
with the apps' own in ``tests/<app>/matrix.py``.

What it does not do: walk the URL conf or make requests (``tests/permission_requests.py``) or
check anything (``tests/test_permission_matrix.py`` and
``tests/test_permission_matrix_table_links.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from tests.clubs.factories import ROLE_NAMES, World
from tests.exchange.matrix import EXCHANGE_BODIES
from tests.games.matrix import GAME_BODIES
from tests.hall.matrix import HALL_BODIES
from tests.practice.matrix import PRACTICE_BODIES
from tests.settlements.matrix import JOB_BODIES
from tests.tables.matrix import TABLE_BODIES
from tests.tournaments.matrix import TOURNAMENT_BODIES

# Expectations -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """Outcomes for anonymous, outsider, player, scorekeeper, organiser ("ok" = any 2xx).

    ``public`` is the same route on a club with public standings; None for routes that are not
    under a club (they run once).
    """

    private: str
    public: str | None = None

    def outcomes(self, public: bool) -> dict[str, str]:
        tokens = (self.public if public else self.private).split()
        assert len(tokens) == len(ROLE_NAMES), self
        return dict(zip(ROLE_NAMES, tokens, strict=True))


@dataclass(frozen=True)
class Delegated:
    """A route whose permissions another test owns (said where); its methods are not run here."""

    reason: str


ANYONE = Expect("ok ok ok ok ok")
LOGGED_IN = Expect("401 ok ok ok ok")
REDIRECT_TO_LOGIN = Expect("302 302 302 302 302")
# Under /api/clubs/{slug}/: readers read, an unreadable club is 404, a missing role 403.
CLUB_READ = Expect(private="404 404 ok ok ok", public="ok ok ok ok ok")
CLUB_MANAGE = Expect(private="401 404 403 403 ok", public="401 403 403 403 ok")
CLUB_SCORE = Expect(private="401 404 403 ok ok", public="401 403 403 ok ok")
CLUB_ORGANISER_READ = Expect(private="404 404 403 403 ok", public="401 403 403 403 ok")
CLUB_MEMBER_READ = Expect(private="404 404 ok ok ok", public="401 403 ok ok ok")
SCORE_IF_MATCH = Expect(private="401 404 403 428 428", public="401 403 403 428 428")

# The organiser's console (web/console): a page of the club's organisers only; anonymous visitors
# are sent to the login page. Its forms post an "action": the matrix posts none, so the
# organiser, past every check, is told 400 (the page tests post the real forms).
CONSOLE = Expect(private="302 404 403 403 ok", public="302 403 403 403 ok")
CONSOLE_POST = Expect(private="302 404 403 403 400", public="302 403 403 403 400")

ADMIN = Delegated("staff-only Django admin: tests/clubs/test_admin.py and Django's own tests")

ROUTES: dict[str, dict[str, Expect] | Delegated] = {
    # clubs
    "clubs:club-list": {"GET": ANYONE, "POST": LOGGED_IN},
    "clubs:club-detail": {"GET": CLUB_READ, "PATCH": CLUB_MANAGE, "DELETE": CLUB_MANAGE},
    "clubs:membership-list": {"GET": CLUB_ORGANISER_READ, "POST": CLUB_MANAGE},
    "clubs:membership-detail": {
        "GET": CLUB_ORGANISER_READ,
        "PATCH": CLUB_MANAGE,
        "DELETE": CLUB_MANAGE,
    },
    "clubs:player-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "clubs:player-detail": {"GET": CLUB_READ, "PATCH": CLUB_MANAGE, "DELETE": CLUB_MANAGE},
    "clubs:team-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "clubs:team-detail": {"GET": CLUB_READ, "PATCH": CLUB_MANAGE, "DELETE": CLUB_MANAGE},
    # accounts (/api/auth/)
    "auth-register": {"POST": ANYONE},
    "auth-token": {"POST": ANYONE},
    # The second step of a token login: anybody holding a challenge and a code (the body makes
    # both for an account with two factors; tests/accounts/test_two_factor_api.py the refusals).
    "auth-token-code": {"POST": ANYONE},
    "auth-logout": {"POST": LOGGED_IN},
    # Every role's user has no usable password in the matrix: the current one is wrong (400).
    "auth-password": {"POST": Expect("401 400 400 400 400")},
    "auth-devices": {"GET": LOGGED_IN},
    # The device in the URL is the organiser's: nobody else may revoke it.
    "auth-device-detail": {"DELETE": Expect("401 404 404 404 ok")},
    "auth-me": {"GET": LOGGED_IN},
    # Invitations are addressed to an account outside the roles: nobody else may touch them.
    "clubs:invitation-list": {"GET": LOGGED_IN},
    "clubs:invitation-detail": {"DELETE": Expect("401 404 404 404 404")},
    "clubs:invitation-accept": {"POST": Expect("401 404 404 404 404")},
    # schema and docs are public
    "schema": {"GET": ANYONE},
    "api-docs": {"GET": ANYONE},
    # operations
    "health": {"GET": ANYONE},
    "health-workers": Delegated("needs a Celery worker: tests/test_health.py"),
    # pages
    "home": {"GET": ANYONE},
    # The session login form; posted empty it comes back with errors (the login itself and its
    # lockout: tests/accounts/test_lockout.py).
    "login": {"GET": ANYONE, "POST": ANYONE},
    # The login's code step: nobody here has a password step behind them, so back to the login.
    "login-code": {"GET": REDIRECT_TO_LOGIN, "POST": REDIRECT_TO_LOGIN},
    # The two-factor page: every account's own (posted without an action it shows itself).
    "two-factor": {"GET": Expect("302 ok ok ok ok"), "POST": Expect("302 ok ok ok ok")},
    "logout": Delegated("Django's session logout (POST, CSRF): tests/accounts/"),
    "password_change": {"GET": Expect("302 ok ok ok ok"), "POST": Expect("302 ok ok ok ok")},
    "password_change_done": {"GET": Expect("302 ok ok ok ok")},
    "password_reset": Delegated("Django's password reset forms (e-mail): Django's own tests"),
    "password_reset_done": Delegated("Django's password reset forms: Django's own tests"),
    "password_reset_confirm": Delegated("Django's password reset forms: Django's own tests"),
    "password_reset_complete": Delegated("Django's password reset forms: Django's own tests"),
    # games (tests/games/matrix.py makes the game; PUT/DELETE of a hand pass the permission
    # check and then need If-Match, hence 428 for the scorers; money is for members only)
    # player pages (tests/pages): a club's pages read like its API; balances are for members,
    # and a logged-out visitor of a public club is sent to the login page for them
    "pages:me": {"GET": Expect("302 ok ok ok ok")},
    # The account page (web/pages/account.py): the signed-in user's own browsers and devices; the
    # session and device in the URL are the organiser's, so only they end them (then 302 back).
    "pages:account": {"GET": Expect("302 ok ok ok ok")},
    "pages:account_end_session": {"POST": Expect("302 404 404 404 302")},
    "pages:account_end_device": {"POST": Expect("302 404 404 404 302")},
    "pages:account_end_others": {"POST": REDIRECT_TO_LOGIN},
    # Nobody in the matrix has an address: back to the account page; the limit and the mail:
    # tests/accounts/test_verification.py.
    "pages:account_verify_resend": {"POST": REDIRECT_TO_LOGIN},
    "pages:verify_email": Delegated("a signed link, no role: tests/accounts/test_verification.py"),
    "pages:club": {"GET": CLUB_READ},
    "pages:game": {"GET": CLUB_READ},
    "pages:tournament": {"GET": CLUB_READ},
    # A player's page reads like the club's pages (their money only for members: the page
    # leaves it out for others, tests/pages/test_player_page.py).
    "pages:player": {"GET": CLUB_READ},
    # The pages' language switch: anybody may choose, and is sent back to the page.
    "set_language": {"POST": Expect("302 302 302 302 302")},
    # The results message's "turn these off" link: the signed token is the proof, not a role.
    "pages:results_mail_off": Delegated("a signed token, no role: tests/settlements/test_mails.py"),
    "pages:balances": {"GET": Expect(private="404 404 ok ok ok", public="302 403 ok ok ok")},
    "games:game-list": {"GET": CLUB_READ, "POST": CLUB_SCORE},
    "games:club-balances": {"GET": CLUB_MEMBER_READ},
    "games:game-detail": {"GET": CLUB_READ},
    "games:hand-list": {"GET": CLUB_READ, "POST": CLUB_SCORE},
    "games:hand-detail": {"GET": CLUB_READ, "PUT": SCORE_IF_MATCH, "DELETE": SCORE_IF_MATCH},
    "games:legal-plays": {"POST": CLUB_READ},
    # dry runs of a hand and of a correction: as the writes they preview (nothing is stored)
    "games:hand-preview": {"POST": CLUB_SCORE},
    "games:correction-preview": {"POST": CLUB_SCORE},
    "games:game-history": {"GET": CLUB_READ},
    "games:game-ledger": {"GET": CLUB_MEMBER_READ},
    # tournaments (tests/tournaments/matrix.py: public exactly when the club is; readers of a
    # tournament read it, organisers manage it; results are recorded through games)
    "tournaments:club-tournament-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "tournaments:tournament-detail": {"GET": CLUB_READ, "PATCH": CLUB_MANAGE},
    "tournaments:entrant-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "tournaments:entrant-detail": {"PATCH": CLUB_MANAGE, "DELETE": CLUB_MANAGE},
    "tournaments:round-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "tournaments:match-list": {"GET": CLUB_READ},
    "tournaments:match-detail": {"GET": CLUB_READ},
    # a table's dispute: readers see it, scorers flag it, organisers resolve it (resolving an
    # undisputed table changes nothing: 200 in any order)
    "tournaments:match-dispute": {"GET": CLUB_READ, "POST": CLUB_SCORE, "DELETE": CLUB_MANAGE},
    "tournaments:bracket": {"GET": CLUB_READ},
    "tournaments:standings": {"GET": CLUB_READ},
    # money, as in games: the members of the club only (its other readers 401/403)
    "tournaments:settlement": {"GET": CLUB_MEMBER_READ},
    "tournaments:close": {"POST": CLUB_MANAGE},
    # the practice table (tests/practice/matrix.py): the menu and shared puzzles for anyone;
    # starting a game for anyone (the anonymous trial: one per session), redirected to the
    # table; a practice game only for the person playing it (the world's player), 404 for others
    "practice:index": {"GET": ANYONE},
    "practice:start": {"POST": Expect("302 302 302 302 302")},
    "practice:table": {"GET": Expect("404 404 ok 404 404")},
    "practice:move": {"POST": Expect("404 404 302 404 404")},
    "practice:advance": {"POST": Expect("404 404 302 404 404")},
    "practice:puzzle": {"GET": ANYONE},
    "tournaments:check-in": {"POST": CLUB_MANAGE},
    # The matrix's tournament has no round yet: past the checks, the organiser is told 404
    # (tests/console/test_services.py swaps and releases a real private round; the games of a
    # round not yet released, by role and route: tests/pages/test_private_draws.py).
    "tournaments:round-swap": {
        "POST": Expect(private="401 404 403 403 404", public="401 403 403 403 404")
    },
    "tournaments:round-release": {
        "POST": Expect(private="401 404 403 403 404", public="401 403 403 403 404")
    },
    # the first club: anyone signs up (a logged-in user is sent on to a new club), anyone logged
    # in creates a club; posted empty, each form is refused (400) beside its fields
    "console:signup": {"GET": Expect("ok 302 302 302 302"), "POST": Expect("400 400 400 400 400")},
    "console:club-new": {"GET": Expect("302 ok ok ok ok"), "POST": Expect("302 400 400 400 400")},
    "console:settings": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:home": {"GET": CONSOLE},
    "console:members": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:players": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:house-rules": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:club-export": {"GET": CONSOLE},
    "console:webhooks": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:event-new": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:event": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:print": {"GET": CONSOLE},
    "console:table-sheet": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:event-hall": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:board": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:results": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:event-export": {"GET": CONSOLE},
    # the door (tests/door): the organisers' tablet and the event page's live check-in list; a
    # live door code's page for whoever holds it (posted empty: 400, no action)
    "console:check-in-list": {"GET": CONSOLE},
    "console:door": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:door-search": {"GET": CONSOLE},
    "console:door-poster": {"GET": CONSOLE},
    "door:check-in": {"GET": ANYONE, "POST": Expect("400 400 400 400 400")},
    "door:names": {"GET": ANYONE},
    "console:night": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:night-table-sheet": {"GET": CONSOLE, "POST": CONSOLE_POST},
    # a club night's door, live check-in list and hall box (tests/door/test_night_pages.py)
    "console:night-door": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:night-door-search": {"GET": CONSOLE},
    "console:night-door-poster": {"GET": CONSOLE},
    "console:night-check-in-list": {"GET": CONSOLE},
    "console:night-hall": {"GET": CONSOLE, "POST": CONSOLE_POST},
    # nights and settle-ups (tests/settlements/matrix.py): money, for members only; organisers
    # open, close and set prize splits; a transfer is marked paid by its payer, its payee or an
    # organiser (the matrix's player and scorekeeper are neither: 403)
    "settlements:night-list": {"GET": CLUB_MEMBER_READ, "POST": CLUB_MANAGE},
    "settlements:night-detail": {"GET": CLUB_MEMBER_READ},
    "settlements:night-close": {"POST": CLUB_MANAGE},
    # a game at a table of the night: as the games API, scorekeepers and organisers start it
    "settlements:night-games": {"POST": CLUB_SCORE},
    "settlements:night-prize-split": {"PUT": CLUB_MANAGE},
    "settlements:night-settlements": {"GET": CLUB_MEMBER_READ},
    "settlements:tournament-prize-split": {"PUT": CLUB_MANAGE},
    "settlements:tournament-settlements": {"GET": CLUB_MEMBER_READ},
    "settlements:transfer-paid": {"POST": CLUB_MANAGE},
    # entry fees at the door: members read, organisers and scorekeepers mark
    "settlements:night-fees": {"GET": CLUB_MEMBER_READ, "POST": CLUB_SCORE},
    "settlements:tournament-fees": {"GET": CLUB_MEMBER_READ, "POST": CLUB_SCORE},
    "settlements:settle-up-rule": {"GET": CLUB_MEMBER_READ, "PUT": CLUB_MANAGE},
    # season tables and ratings read like the club (net stakes only to members: the app's tests)
    "seasons:season": {"GET": CLUB_READ},
    "seasons:rating-list": {"GET": CLUB_READ},
    "seasons:player-rating": {"GET": CLUB_READ},
    # webhooks: organisers only, reads included (the log shows the club's traffic)
    "webhooks:endpoint-list": {"GET": CLUB_ORGANISER_READ, "POST": CLUB_MANAGE},
    "webhooks:endpoint-detail": {"DELETE": CLUB_MANAGE},
    "webhooks:delivery-list": {"GET": CLUB_ORGANISER_READ},
    # table links (tests/tables): organisers make, list and revoke them; /api/table/ answers only
    # a request holding a table link (TABLE_LINK_ROUTES below), so nobody here has a table
    "tables:link-list": {"GET": CLUB_ORGANISER_READ, "POST": CLUB_MANAGE},
    "tables:link-detail": {"DELETE": CLUB_MANAGE},
    "tables:current": {"GET": Expect("404 404 404 404 404")},
    # the hall screen (tests/hall): organisers read and change its settings, run its clock, make
    # and revoke its link (the matrix's event has none to revoke: 404 past the checks); the
    # screen and its page answer only a live hall link's credential, which nobody here holds
    "hall:settings": {"GET": CLUB_ORGANISER_READ, "PATCH": CLUB_MANAGE},
    "hall:clock": {"POST": CLUB_MANAGE},
    "hall:link": {
        "POST": CLUB_MANAGE,
        "DELETE": Expect(private="401 404 403 403 404", public="401 403 403 403 404"),
    },
    "hall:night-settings": {"GET": CLUB_ORGANISER_READ, "PATCH": CLUB_MANAGE},
    "hall:night-clock": {"POST": CLUB_MANAGE},
    "hall:night-link": {
        "POST": CLUB_MANAGE,
        "DELETE": Expect(private="401 404 403 403 404", public="401 403 403 403 404"),
    },
    "hall:screen": {"GET": Expect("404 404 404 404 404")},
    "hall_page:code": {"GET": ANYONE},
    "hall_page:screen": {"GET": Expect("404 404 404 404 404")},
    # the exchange format (tests/exchange): organisers export a night or an event and import a
    # file into their club
    "exchange:night": {"GET": CLUB_ORGANISER_READ},
    "exchange:tournament": {"GET": CLUB_ORGANISER_READ},
    "exchange:imports": {"POST": CLUB_MANAGE},
    "console:imports": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:night-exchange": {"GET": CONSOLE},
    "console:event-exchange": {"GET": CONSOLE},
    # the table app's pages: the score page for scorers, links for organisers (the form posted
    # without a game is refused with a message and a redirect: tests/tables/test_pages.py makes
    # a link through it), the code form and the service worker for anyone, and a live link's
    # page for whoever holds it
    "table:score": {"GET": Expect(private="302 404 403 ok ok", public="302 403 403 ok ok")},
    "table:links": {
        "GET": Expect(private="302 404 403 403 ok", public="302 403 403 403 ok"),
        "POST": Expect(private="302 404 403 403 302", public="302 403 403 403 302"),
    },
    "table:code": {"GET": ANYONE},
    "table:link": {"GET": ANYONE},
    "table:worker": {"GET": ANYONE},
    # federations (/api/federations/): their actors are a federation's organisers, another
    # federation's, a member club's organisers and the linked player, not a club's roles
    "federations:*": Delegated(
        "federation actors: tests/federations/test_permission_matrix_federations.py"
    ),
    "federation_pages:*": Delegated(
        "federation actors: tests/federations/test_permission_matrix_federations.py"
    ),
    # rankings (tests/rankings): a federation's ranking and a player's history, API and pages,
    # are public: anyone reads them, whatever their role in the club
    "rankings:ranking": {"GET": ANYONE},
    "rankings:player-history": {"GET": ANYONE},
    "rankings_pages:ranking": {"GET": ANYONE},
    "rankings_pages:player": {"GET": ANYONE},
    # leagues (/api/federations/{slug}/leagues/, /f/{slug}/leagues/): their actors are a
    # federation's organisers, another federation's, the captains of a fixture's teams and a
    # member club's organiser, not a club's roles
    "leagues:*": Delegated("league actors: tests/leagues/test_permission_matrix_leagues.py"),
    "league_pages:*": Delegated("league actors: tests/leagues/test_permission_matrix_leagues.py"),
    # admin: the index is checked; the rest (one set of routes per model) is delegated
    "admin:index": {"GET": REDIRECT_TO_LOGIN},
    "admin:*": ADMIN,
    "admin/*": ADMIN,  # the admin's unnamed routes (redirects, the catch-all)
}

ALL_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")

# What the organiser gets for a method a route does not declare, where it is not 405.
UNDECLARED_METHODS: dict[str, dict[str, int]] = {
    # Django's own views: View.options answers with an empty 200 listing the allowed methods,
    # and the form views take PUT like POST (CSRF-protected like POST outside the test client).
    "health": {"OPTIONS": 200},
    "login": {"PUT": 200, "OPTIONS": 200},
    "password_change": {"PUT": 200, "OPTIONS": 200},
    "password_change_done": {"OPTIONS": 200},
    # The admin sends anyone who is not staff to its login page, whatever the method.
    "admin:index": dict.fromkeys(("POST", "PUT", "PATCH", "DELETE", "OPTIONS"), 302),
    # Read-only money views: their permission refuses every write before the method is looked at.
    "games:club-balances": dict.fromkeys(WRITE_METHODS, 403),
    "games:game-ledger": dict.fromkeys(WRITE_METHODS, 403),
    # Read-only club views (ClubReadPermission refuses every write before the method).
    "seasons:season": dict.fromkeys(WRITE_METHODS, 403),
    "seasons:rating-list": dict.fromkeys(WRITE_METHODS, 403),
    "seasons:player-rating": dict.fromkeys(WRITE_METHODS, 403),
}

MATRIX_PASSWORD = "matrix-pass-2026"


def _token_code_body() -> dict:
    """A fresh challenge and a right recovery code, for an account with two factors."""
    from accounts import two_factor
    from tests.accounts.two_factor_helpers import give_second_factor

    user = get_user_model().objects.create_user(username="has-two-factors")
    give_second_factor(user)
    code = two_factor.replace_recovery_codes(user)[0]
    return {"challenge": two_factor.make_challenge(user, "matrix"), "code": code}


# Valid bodies, so that "ok" means the request really did what it asks.
BODIES: dict[tuple[str, str], Callable[[World], dict]] = {
    ("clubs:club-list", "POST"): lambda world: {
        "name": "Newly Founded",
        "slug": "newly-founded",
        "currency": "GBP",
        "time_zone": "Europe/London",
    },
    ("clubs:club-detail", "PATCH"): lambda world: {"name": "Renamed"},
    ("clubs:membership-list", "POST"): lambda world: {
        "username": world.spare_user.username,
        "role": "player",
    },
    ("clubs:membership-detail", "PATCH"): lambda world: {"role": "scorekeeper"},
    ("clubs:player-list", "POST"): lambda world: {"display_name": "Newcomer"},
    ("clubs:player-detail", "PATCH"): lambda world: {"display_name": "Renamed"},
    ("clubs:team-list", "POST"): lambda world: {
        "name": "New pair",
        "members": [world.players[2].pk, world.players[3].pk],
    },
    ("clubs:team-detail", "PATCH"): lambda world: {"name": "Renamed"},
    ("auth-password", "POST"): lambda world: {
        "current_password": "not-it",
        "new_password": "x7!Kq2#pLm9z",
    },
    ("auth-register", "POST"): lambda world: {"username": "brand-new", "password": "x7!Kq2#pLm9z"},
    ("auth-token", "POST"): lambda world: {
        "username": get_user_model()
        .objects.create_user(username="has-a-password", password=MATRIX_PASSWORD)
        .username,
        "password": MATRIX_PASSWORD,
    },
    ("auth-token-code", "POST"): lambda world: _token_code_body(),
    **GAME_BODIES,
    **TOURNAMENT_BODIES,
    **PRACTICE_BODIES,
    **JOB_BODIES,
    **TABLE_BODIES,
    **HALL_BODIES,
    **EXCHANGE_BODIES,
}
