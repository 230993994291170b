"""The OpenAPI schema is the truth: valid, and every answer of the server conforms to it.

What it proves:
- ``/api/schema/`` passes ``openapi-spec-validator`` (OpenAPI 3.1), declares the points the probe
  found missing (nullable stake, bare entrant and round lists, If-Match on a hand POST,
  If-None-Match on a game read, the Token prefix, response headers, unknown fields refused), and
  no operation description is a developer's docstring or names a file that is not in docs/;
- schemathesis, with every check it has, drives every operation of the schema against the WSGI
  application, with an organiser's token and with none, on a club with a game and a tournament
  (path parameters are the world's real ids so the bodies reach the code behind them), a bounded
  number of examples per operation: any 500, undeclared status, header, content type or body
  that does not match the schema fails the test, listing every operation that failed.

What it does not do: explore sequences of calls (tests/hardening/test_hand_state_machine.py
does for the hands).
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, Phase, given, settings
from openapi_spec_validator import validate
from schemathesis.config import SchemathesisConfig
from schemathesis.generation import GenerationMode

from accounts.services import issue_device_token
from tests.permission_requests import world_for_matrix

EXAMPLES_PER_OPERATION = 3
# Valid-looking input the rules refuse (an unknown player, a finished game, a stale ETag) is a
# 4xx of its own, not a violation of the schema; a missing If-Match is 428 by RFC 6585.
CONFIG = {
    "checks": {
        "positive_data_acceptance": {
            "expected-statuses": [
                "2xx",
                "304",
                "400",
                "401",
                "403",
                "404",
                "409",
                "412",
                "422",
                "428",
                "429",
            ],
        },
        "negative_data_rejection": {
            # A stale If-Match is refused before the body is read.
            "expected-statuses": [
                "400",
                "401",
                "403",
                "404",
                "405",
                "406",
                "409",
                "412",
                "413",
                "415",
                "422",
                "428",
                "429",
            ],
        },
        "missing_required_header": {
            "expected-statuses": ["400", "401", "403", "406", "415", "422", "428"],
        },
    }
}


@pytest.fixture
def schema_document(db, client) -> dict:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_schema_is_valid_openapi(schema_document):
    validate(schema_document)
    assert schema_document["openapi"].startswith("3.1")


def test_the_schema_declares_what_the_probe_found_missing(schema_document):
    paths = schema_document["paths"]
    components = schema_document["components"]["schemas"]
    tournament = components["TournamentOutput"]["properties"]
    assert tournament["stake"]["type"] == ["string", "null"]
    assert tournament["entry_fee"]["type"] == ["string", "null"]
    assert tournament["lots_seed"]["maximum"] == 2**62 - 1
    for url in (
        "/api/tournaments/{tournament_id}/entrants/",
        "/api/tournaments/{tournament_id}/rounds/",
    ):
        listed = paths[url]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert listed["type"] == "array", url
    hand_post = paths["/api/games/{game_id}/hands/"]["post"]
    headers = {
        parameter["name"] for parameter in hand_post["parameters"] if parameter["in"] == "header"
    }
    assert headers == {"Idempotency-Key", "If-Match"}
    assert {"409", "412", "422", "428"} <= set(hand_post["responses"])
    assert set(hand_post["responses"]["201"]["headers"]) == {
        "ETag",
        "Location",
        "Idempotent-Replayed",
    }
    game_get = paths["/api/games/{game_id}/"]["get"]
    assert "If-None-Match" in {parameter["name"] for parameter in game_get["parameters"]}
    assert paths["/api/clubs/{slug}/tournaments/"]["post"]["tags"] == ["tournaments"]
    scheme = schema_document["components"]["securitySchemes"]["knoxApiToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "Token")
    assert components["GameInputRequest"]["additionalProperties"] is False
    assert "default" not in components["RegisterInputRequest"]["properties"]["email"]
    key = next(p for p in hand_post["parameters"] if p["name"] == "Idempotency-Key")
    assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (1, 255)
    for url, item in paths.items():
        for method, operation in item.items():
            description = operation.get("description", "")
            assert ".md" not in description, (method, url)
            assert "``" not in description, (method, url)  # reStructuredText of a docstring


def _path_values(world) -> dict:
    values = world.path_values()
    return {name: str(value) for name, value in values.items()}


def _run_operation(operation, strategy_arguments: dict, headers: dict) -> None:
    strategy = operation.as_strategy(**strategy_arguments)

    @given(case=strategy)
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        database=None,
        derandomize=True,
    )
    def run(case) -> None:
        # Credentials at call time: schemathesis knows them as the client's, not generated.
        case.call_and_validate(headers=headers)

    run()


@pytest.mark.slow  # schemathesis on every operation: ~100 s
def test_every_operation_conforms_to_the_schema(transactional_db):
    world = world_for_matrix(
        public=True, with_game=True, with_tournament=True, with_practice=True, with_jobs=True
    )
    organiser = world.users["organiser"]
    schema = schemathesis.openapi.from_wsgi(
        "/api/schema/?format=json",
        get_wsgi_application(),
        config=SchemathesisConfig.from_dict(CONFIG),
    )
    values = _path_values(world)
    operations = [result.ok() for result in schema.get_all_operations()]
    # Writes that end what later operations need (the club, the token) come last.
    operations.sort(
        key=lambda operation: (operation.method.upper() == "DELETE", "logout" in operation.path)
    )
    failures = []
    ran = 0
    for operation in operations:
        parameters = {
            parameter.name: values[parameter.name]
            for parameter in operation.path_parameters
            if parameter.name in values
        }
        for authorised in (True, False):
            headers = {}
            if authorised:
                _, token = issue_device_token(user=organiser, device="schemathesis")
                headers["Authorization"] = f"Token {token}"
            # Negative data needs something to spoil besides the fixed path: a query or a body.
            spoilable = bool(list(operation.query)) or bool(list(operation.body))
            modes = [GenerationMode.POSITIVE]
            if authorised and spoilable:
                modes.append(GenerationMode.NEGATIVE)
            role = "organiser" if authorised else "anonymous"
            for mode in modes:
                try:
                    _run_operation(
                        operation,
                        {"generation_mode": mode, "path_parameters": parameters},
                        headers,
                    )
                except (
                    Exception,
                    BaseExceptionGroup,
                ) as error:  # every operation runs; all reported
                    failures.append(f"{operation.label} ({role}, {mode.value}): {error}")
                ran += 1
    assert ran >= 90
    assert failures == [], "\n\n".join(failures)
