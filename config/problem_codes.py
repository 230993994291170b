"""The catalogue of problem codes: every ``code`` the service answers with, and its HTTP status.

What it does: ``PROBLEM_CODES`` maps each code to a ``ProblemCode`` (its status and a one-line
meaning for the docs); ``problem_status`` is the status of a code, and ``Problem``
(config.problems) takes its status from there, so a code means one status everywhere. The
catalogue holds DRF's codes (the exceptions DRF raises itself and the error handlers'), the
service's own refusals, the codes of single errors inside a problem's ``errors`` (field-level
codes, which are also the problem's code when they are the first of a 400), the rules engine's
``RulesError`` codes and the tournament draw's ``DrawError`` codes (``rules_error_to_problem``
answers them with these statuses), and the practice table's ``PracticeError`` codes.
docs/problems.md lists them all (tests/test_problem_catalogue.py keeps it in step).

What it does not do: build problem documents (config.problems) or import the engine or the draw
(tests check that their ``ERROR_CODES`` are all here).

Terms:
- *code*: a stable machine-readable identifier; clients switch on it, never on ``detail``.
- *status*: the HTTP status of a problem whose top-level ``code`` is this one. A field-level code
  inside ``errors`` travels in a problem of its own code's status (400 for nearly all).
"""

from __future__ import annotations

from typing import NamedTuple


class ProblemCode(NamedTuple):
    status: int
    meaning: str


class UnknownProblemCode(LookupError):
    """A ``Problem`` was given a code that is not in the catalogue: a programming error."""


def _section(*entries: tuple[str, int, str]) -> dict[str, ProblemCode]:
    return {code: ProblemCode(status, meaning) for code, status, meaning in entries}


# What DRF and Django raise themselves (config.problems._CODES_BY_EXCEPTION and the error
# handlers of config.views). For these, DRF's exception carries the status.
FRAMEWORK = _section(
    ("invalid", 400, "the request body failed validation; ``errors`` lists each field"),
    ("parse_error", 400, "the body is not valid JSON (or form data)"),
    ("bad_request", 400, "the request is malformed (Django's 400 handler)"),
    ("not_authenticated", 401, "no credentials were given"),
    ("authentication_failed", 401, "the credentials (token or table link) are wrong"),
    ("permission_denied", 403, "the user may not do this (or the CSRF token is stale)"),
    ("not_found", 404, "no such object, or one the user may not see"),
    ("method_not_allowed", 405, "the HTTP method is not allowed here"),
    ("not_acceptable", 406, "no representation matches the Accept header"),
    ("unsupported_media_type", 415, "the body's Content-Type is not accepted"),
    ("throttled", 429, "too many requests; Retry-After says when to try again"),
    ("error", 500, "an API exception with no code of its own"),
    ("server_error", 500, "the server failed; the error was logged"),
)

# Refusals of the request as a whole by the config layer (idempotency, pagination, parsers,
# preconditions) and the login lockout.
PROTOCOL = _section(
    ("invalid_idempotency_key", 400, "the Idempotency-Key header is not a valid key"),
    ("idempotency_in_progress", 409, "a request with this Idempotency-Key is still running"),
    ("idempotency_key_reused", 422, "this Idempotency-Key was used for a different request"),
    ("invalid_page", 400, "the page (or cursor) parameter is not a valid page"),
    ("invalid_page_size", 400, "the page_size parameter is not a valid size"),
    ("body_too_large", 413, "the request body is over the size limit"),
    ("too_deeply_nested", 400, "the JSON body is nested too deeply"),
    ("precondition_required", 428, "this write needs an If-Match header"),
    ("precondition_failed", 412, "If-Match does not match the object's current ETag"),
    ("locked_out", 429, "too many failed logins from here; try again later"),
    ("try_again", 503, "no free table-link code could be drawn; the request can be retried"),
    (
        "service_unavailable",
        503,
        "the database or Redis failed under the request; nothing was stored; retry after "
        "Retry-After seconds",
    ),
)

# The service's own refusals: the request is understood but cannot be done (400: this value is
# wrong; 403: not this user; 404: no such object; 409: not in the object's present state).
SERVICE = _section(
    # accounts
    ("invalid_credentials", 400, "the username and password (or current password) are wrong"),
    ("username_taken", 400, "an account with this username already exists"),
    (
        "second_factor_required",
        401,
        "the password was right; send the ``challenge`` with a code to finish signing in",
    ),
    ("invalid_challenge", 401, "the sign-in challenge is forged or expired; sign in again"),
    ("invalid_code", 400, "the two-factor code (or recovery code) is wrong or used"),
    (
        "second_factor_setup_required",
        403,
        "organiser actions of this club (or staff) need two-factor sign-in turned on",
    ),
    ("second_factor_already_on", 409, "two-factor sign-in is already on for this account"),
    ("second_factor_must_stay", 409, "staff, or an organiser of a club that requires it"),
    # clubs
    ("already_linked", 409, "the invitation's player is already linked to an account"),
    ("unique", 400, "a name, slug or link that must be unique is already taken"),
    ("unknown_user", 400, "no user has this username"),
    ("no_such_account", 400, "no account can be added with this username or e-mail"),
    ("club_has_records", 409, "the club has recorded results and cannot be deleted"),
    ("last_organiser", 409, "a club or a federation must keep at least one organiser"),
    ("team_size", 400, "a team has the wrong number of players"),
    ("odd_count", 400, "pairs need an even number of players"),
    ("same_player", 400, "two different players are needed"),
    ("players_overlap", 409, "the two players played together, so cannot be one person"),
    ("unknown_player", 400, "no such player in this club (404 when merging one away)"),
    ("inactive_player", 400, "the player is no longer active"),
    ("duplicate_player", 400, "the same player is given twice"),
    ("too_long", 400, "a name is longer than its field allows"),
    ("other_club", 400, "the object belongs to another club"),
    ("invalid_time_zone", 400, "not a known time zone"),
    # games
    ("invalid_game", 400, "the game (or a practice level) is not one the service plays"),
    ("invalid_stake", 400, "the stake is not a valid amount"),
    ("invalid_team", 400, "the team is not a team of this club"),
    ("team_mismatch", 400, "the side's players are not the team's players"),
    ("invalid_tournament_match", 400, "the tournament match cannot take this game"),
    ("invalid_confirmation", 400, "the confirming player is not valid"),
    ("confirmation_required", 400, "a player of another side must accept the hand"),
    ("hand_conflict", 409, "the hand number is already recorded (the stored hand is given)"),
    ("hand_out_of_sequence", 409, "the hand number skips hands not yet recorded"),
    ("later_hand_invalid", 409, "the correction makes a later hand invalid"),
    ("not_last_hand", 409, "only the last hand of a game can be undone"),
    ("match_locked", 409, "the tournament match is decided or released and cannot change"),
    # tournaments
    ("unknown_field", 400, "the body has a field this endpoint does not take"),
    ("required", 400, "a value that must be given is missing"),
    ("tournament_started", 409, "the tournament has started; this can no longer change"),
    ("tournament_closed", 409, "the tournament is closed"),
    ("entrants_registered", 409, "remove the entrants before changing the entrant kind"),
    ("duplicate_seed", 400, "two entrants have the same seed"),
    ("unknown_entrant", 400, "no such entrant in this tournament"),
    ("matches_undecided", 409, "matches of the round are still undecided"),
    ("round_released", 409, "the round is released; its tables can no longer change"),
    ("same_table", 400, "both entrants sit at the same table"),
    ("match_begun", 409, "a hand has been recorded at one of these tables"),
    ("entrants_absent", 409, "a round robin needs every entrant, and some checked out"),
    ("bye", 409, "a bye has no result to dispute"),
    ("already_entered", 400, "the player or team is already entered"),
    ("duplicate_tie_break", 400, "a tie-break is listed twice"),
    ("entrant_inactive", 400, "the entrant's player or team is no longer active"),
    ("entrant_not_in_club", 400, "the entrant is not a player or team of this club"),
    ("option_not_applicable", 400, "the option does not apply to this format"),
    ("player_entered_twice", 400, "a player is entered twice (alone or in teams)"),
    ("player_or_team", 400, "an entrant is a player or a team, not both or neither"),
    ("team_size_mismatch", 400, "the team's size is not the tournament's team size"),
    ("unknown_tie_break", 400, "not a known tie-break"),
    ("wrong_entrant_kind", 400, "the entrant is not of the tournament's entrant kind"),
    # settlements and seasons
    ("invalid_amount", 400, "not a valid amount of money"),
    ("invalid_prize_split", 400, "the prize split is not valid"),
    ("invalid_fee_status", 400, "how the fee was taken: cash, card or owed"),
    ("invalid_table", 400, "not a valid table (number or seats)"),
    ("night_open", 409, "another club night is still open"),
    ("night_closed", 409, "the club night is closed"),
    ("table_busy", 409, "the table has a game in progress"),
    ("games_in_progress", 409, "games are still in progress; finish them first"),
    ("event_not_closed", 409, "an event is settled only once it is closed"),
    ("no_pot", 409, "the event has no pot"),
    ("not_entered", 400, "the player is not entered in this event"),
    ("fee_already_marked", 409, "the fee is already marked"),
    ("not_a_party", 403, "only the payer, the payee or an organiser marks a transfer paid"),
    ("transfer_superseded", 409, "the transfer was replaced by a newer settlement"),
    ("invalid_date", 400, "not a valid date"),
    ("invalid_range", 400, "not a valid date range"),
    # tables, webhooks, pages
    ("event_closed", 400, "the event is closed: its tables need no links"),
    ("invalid_expiry", 400, "the expiry is in the past or too far away"),
    ("invalid_url", 400, "the webhook URL is not allowed"),
    ("invalid_events", 400, "the webhook's events are not known events"),
    ("delivery_not_dead", 409, "only a webhook delivery given up (dead) can be sent again"),
    ("invalid_file", 400, "the uploaded file cannot be read"),
    ("nothing_chosen", 400, "nothing was ticked"),
    ("invalid_sides", 400, "the sides of the table are not valid"),
    ("invalid_first_dealer", 400, "the first dealer is not a seat of the table"),
    # the hall screen
    ("hall_link_exists", 409, "the event already has a live hall link"),
    ("invalid_action", 400, "not one of the actions this endpoint takes"),
    ("invalid_minutes", 400, "not whole minutes from 1 to 240"),
    ("clock_not_running", 409, "the round clock is not running"),
    ("clock_not_paused", 409, "the round clock is not paused"),
    ("clock_not_set", 409, "the round clock is not set: start it first"),
    # federations
    ("unknown_club", 400, "no club has this slug"),
    ("already_member", 409, "the club is already a member of the federation, or invited to it"),
    ("not_invited", 409, "the club has no pending invitation from the federation"),
    ("not_a_member", 409, "the club is not a member of the federation"),
    ("player_already_linked", 409, "the club player is already linked to a federation player"),
    ("player_merged", 409, "the federation player was merged into another"),
    ("not_linked", 409, "the link was already undone"),
    ("not_merged", 409, "not a merge, or a merge already undone"),
    ("merge_changed", 409, "a link the merge moved was undone or moved since: undo that first"),
    # federation events (docs/federations.md)
    ("event_created", 409, "the federation event's tournament is created; the event is fixed"),
    ("not_selected", 409, "the federation event's entrants are not selected yet"),
    ("nominations_closed", 409, "the federation event takes no nominations (now)"),
    ("quota_full", 409, "the club has nominated as many players as the event's quota"),
    # leagues (docs/leagues.md)
    ("fixtures_drawn", 409, "the league's fixtures are drawn: no team joins, no second draw"),
    ("too_few_teams", 409, "a league needs two teams or more to draw its fixtures"),
    ("fixture_closed", 409, "the fixture's result is accepted or it was a walkover"),
    ("nothing_to_accept", 409, "no result of the fixture waits for the other captain"),
    ("not_in_fixture", 400, "the team is neither side of the fixture"),
    ("invalid_score", 400, "the scores are more tables than the fixture has"),
    ("wrong_game", 400, "the game cannot be a table of the fixture (club, variant, unfinished)"),
    ("game_taken", 409, "the game is already a table of a league fixture"),
    # exchange (docs/exchange.md)
    (
        "exchange_invalid",
        400,
        "the file is not a valid exchange document; each error points at the place",
    ),
    (
        "exchange_conflict",
        409,
        "the import contradicts what the club holds; each conflict points into the file",
    ),
    (
        "exchange_replay_differs",
        422,
        "a game of the file does not re-play to the file's totals here",
    ),
    ("exchange_night_open", 409, "the file's night is still open: close it before exporting"),
    ("exchange_event_open", 409, "the file's event is not closed: close it before exporting"),
    (
        "exchange_player_ambiguous",
        409,
        "a player of the file matches a club player taken by another",
    ),
    ("exchange_player_renamed_here", 409, "a player was renamed both here and in the file"),
    ("exchange_changed_here", 409, "an imported game was changed here after its import"),
    ("exchange_game_added", 409, "the file has a game its first import did not have"),
    ("exchange_game_removed", 409, "the file lacks a game of its first import"),
    (
        "exchange_game_reseated",
        409,
        "a game's seats, game, first dealer or stake differ from its import",
    ),
    ("exchange_fees_changed", 409, "the night's or event's fees differ from its first import"),
    ("exchange_own_night", 409, "the file's night is this club's own"),
    ("exchange_own_event", 409, "the file's event is this club's own"),
    (
        "exchange_event_redrawn",
        409,
        "the event's draw (entrants, rounds, tables, seats) differs from its first import",
    ),
    ("exchange_team_differs", 409, "a team of the file has other players than the club's team"),
)

# rules_engine.errors.ERROR_CODES: a ``RulesError`` (rules_error_to_problem).
RULES_ENGINE = _section(
    ("invalid_card", 400, "not a card"),
    ("duplicate_card", 400, "a card appears twice"),
    ("illegal_play", 400, "the card may not be played there"),
    ("illegal_rob", 400, "the rob (taking the turn-up) is not allowed"),
    ("illegal_bid", 400, "the bid is not allowed"),
    ("wrong_trick_count", 400, "the hand has the wrong number of tricks"),
    ("game_over", 409, "the game is over and takes no more hands or moves"),
    ("invalid_house_rule", 400, "an unknown house rule or a value it does not allow"),
    ("invalid_record", 400, "the hand record is not valid"),
    ("invalid_seat", 400, "not a seat of the table"),
    ("invalid_trump", 400, "not a trump suit"),
    ("wrong_dealer", 400, "the dealer is not the next dealer"),
    ("wrong_leader", 400, "the trick's leader is not the one who must lead"),
    ("wrong_card_count", 400, "a hand or list has the wrong number of cards"),
    ("best_trump_mismatch", 400, "the stated best trump does not match the play"),
    ("invalid_seating", 400, "the game cannot be played with these seats or sides"),
)

# tournaments.draw.errors.ERROR_CODES: a ``DrawError`` (rules_error_to_problem); 409 when the
# tournament is not in a state to draw, 400 when its settings or entrants cannot make a draw.
DRAW = _section(
    ("duplicate_entrant", 400, "an entrant appears twice where it may appear once"),
    ("invalid_entrant", 400, "not an entrant of the tournament"),
    ("too_few_entrants", 400, "fewer entrants than a table needs"),
    ("invalid_entrant_count", 400, "a count of entrants the format cannot use"),
    ("invalid_table_size", 400, "a table size (or advancing count, or sides) that does not fit"),
    ("invalid_option", 400, "an unknown mode, tie-break or movement, or a number out of range"),
    ("invalid_result", 400, "a result that does not fit its table or cannot decide it"),
    ("round_incomplete", 409, "a table of the last round has no result yet"),
    ("match_decided", 409, "the match was already decided"),
    ("tournament_complete", 409, "the tournament has played its last round or game"),
)

# practice.services.PracticeError (game_over and invalid_game are above).
PRACTICE = _section(
    ("not_your_turn", 409, "the computer players are still playing"),
    ("invalid_move", 400, "not a move the practice hand takes"),
    ("invalid_puzzle", 404, "the puzzle link is broken or was altered"),
)


def _catalogue(*sections: dict[str, ProblemCode]) -> dict[str, ProblemCode]:
    catalogue: dict[str, ProblemCode] = {}
    for section in sections:
        for code, entry in section.items():
            if code in catalogue and catalogue[code].status != entry.status:
                raise ValueError(f"problem code {code!r} has two statuses")
            catalogue.setdefault(code, entry)
    return catalogue


PROBLEM_CODES: dict[str, ProblemCode] = _catalogue(
    FRAMEWORK, PROTOCOL, SERVICE, RULES_ENGINE, DRAW, PRACTICE
)


def problem_status(code: str) -> int:
    """The HTTP status of a problem with ``code``; ``UnknownProblemCode`` if not catalogued."""
    try:
        return PROBLEM_CODES[code].status
    except KeyError:
        raise UnknownProblemCode(
            f"problem code {code!r} is not in config.problem_codes.PROBLEM_CODES"
        ) from None


SECTIONS = {
    "Framework (DRF and Django)": FRAMEWORK,
    "Request protocol": PROTOCOL,
    "The service's refusals and field-level codes": SERVICE,
    "Rules engine (RulesError)": RULES_ENGINE,
    "Tournament draw (DrawError)": DRAW,
    "Practice table (PracticeError)": PRACTICE,
}


def markdown_table() -> str:
    """The catalogue as the Markdown table of docs/problems.md (``python -m config.problem_codes``
    prints it)."""
    lines = []
    for title, section in SECTIONS.items():
        lines += [f"### {title}", "", "| code | status | meaning |", "| --- | --- | --- |"]
        lines += [
            f"| `{code}` | {entry.status} | {entry.meaning.replace('|', '/')} |"
            for code, entry in section.items()
        ]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table(), end="")
