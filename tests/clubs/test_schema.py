"""The OpenAPI schema of the clubs endpoints: complete, and generated without warnings."""

from __future__ import annotations

from django.urls import include, path
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

EXPECTED_OPERATIONS = {
    "/api/clubs/": {"get": "clubs_list", "post": "clubs_create"},
    "/api/invitations/": {"get": "invitations_list"},
    "/api/invitations/{invitation_id}/": {"delete": "invitations_decline"},
    "/api/invitations/{invitation_id}/accept/": {"post": "invitations_accept"},
    "/api/clubs/{slug}/": {
        "get": "clubs_retrieve",
        "patch": "clubs_partial_update",
        "delete": "clubs_destroy",
    },
    "/api/clubs/{slug}/memberships/": {
        "get": "clubs_memberships_list",
        "post": "clubs_memberships_create",
    },
    "/api/clubs/{slug}/memberships/{membership_id}/": {
        "get": "clubs_memberships_retrieve",
        "patch": "clubs_memberships_partial_update",
        "delete": "clubs_memberships_destroy",
    },
    "/api/clubs/{slug}/players/": {"get": "clubs_players_list", "post": "clubs_players_create"},
    "/api/clubs/{slug}/players/{player_id}/": {
        "get": "clubs_players_retrieve",
        "patch": "clubs_players_partial_update",
        "delete": "clubs_players_destroy",
    },
    "/api/clubs/{slug}/teams/": {"get": "clubs_teams_list", "post": "clubs_teams_create"},
    "/api/clubs/{slug}/teams/{team_id}/": {
        "get": "clubs_teams_retrieve",
        "patch": "clubs_teams_partial_update",
        "delete": "clubs_teams_destroy",
    },
}


def _clubs_schema() -> tuple[dict, dict, dict]:
    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[path("api/", include("clubs.api.urls"))])
    schema = generator.get_schema(request=None, public=True)
    warnings = dict(GENERATOR_STATS._warn_cache)
    errors = dict(GENERATOR_STATS._error_cache)
    GENERATOR_STATS.reset()
    return schema, warnings, errors


def test_clubs_schema_has_no_warnings_and_every_operation():
    schema, warnings, errors = _clubs_schema()
    assert (warnings, errors) == ({}, {})
    operations = {
        url: {method: operation["operationId"] for method, operation in item.items()}
        for url, item in schema["paths"].items()
    }
    for url in operations:
        operations[url].pop("parameters", None)
    assert operations == EXPECTED_OPERATIONS


def test_clubs_schema_documents_filters_pagination_and_problems():
    schema, _, _ = _clubs_schema()
    players = schema["paths"]["/api/clubs/{slug}/players/"]["get"]
    query = sorted(p["name"] for p in players["parameters"] if p["in"] == "query")
    assert query == ["has_user", "is_active", "ordering", "page", "page_size", "search", "user"]
    assert players["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/PaginatedPlayerOutputList"
    }
    create = schema["paths"]["/api/clubs/{slug}/teams/"]["post"]
    assert sorted(create["responses"]) == [
        "201",
        "400",
        "401",
        "403",
        "404",
        "409",
        "413",
        "415",
        "422",
    ]
    assert "application/problem+json" in create["responses"]["400"]["content"]
    headers = [p["name"] for p in create["parameters"] if p["in"] == "header"]
    assert headers == ["Idempotency-Key"]
