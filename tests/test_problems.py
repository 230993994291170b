"""Every API error is an RFC 9457 problem document (config.problems, config.serializers)."""

import json

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.urls import path
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.test import APIClient
from rest_framework.views import APIView

from config.problems import Problem, flatten_validation_detail, rules_error_to_problem
from config.serializers import StrictFieldsMixin
from rules_engine.errors import RulesError


class RobInput(StrictFieldsMixin, serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)


class GameInput(StrictFieldsMixin, serializers.Serializer):
    name = serializers.CharField()
    seats = serializers.ListField(child=serializers.IntegerField())
    rob = RobInput()
    bids = RobInput(many=True)
    created = serializers.DateTimeField(read_only=True)

    def validate(self, attrs):
        if attrs["name"] == "clash":
            raise serializers.ValidationError("That name clashes.", code="name_clash")
        return attrs


class EchoView(APIView):
    permission_classes = [AllowAny]

    def post(self, request):
        serializer = GameInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response({"name": serializer.validated_data["name"]})


RAISED = {
    "not_found": exceptions.NotFound(),
    "http404": Http404(),
    "not_authenticated": exceptions.NotAuthenticated(),
    "authentication_failed": exceptions.AuthenticationFailed(),
    "permission_denied": exceptions.PermissionDenied(),
    "django_permission_denied": DjangoPermissionDenied(),
    "throttled": exceptions.Throttled(wait=30),
    "game_over": Problem(code="game_over", detail="The game is over.", pointer=""),
    "escaped": exceptions.ValidationError({"a/b": ["Bad."], "c~d": ["Worse."]}),
    "rules": rules_error_to_problem(
        RulesError("invalid_card", "11H is not a card.", "/tricks/2/1")
    ),
    "crash": RuntimeError("a bug"),
}


class RaiseView(APIView):
    permission_classes = [AllowAny]

    def get(self, request, kind):
        raise RAISED[kind]


def plain_django_view(request):
    """Not a DRF view: its errors go through Django's handlers, not DRF's exception handler."""
    raise DjangoPermissionDenied


urlpatterns = [
    path("api/echo/", EchoView.as_view()),
    path("api/raise/<str:kind>/", RaiseView.as_view()),
    path("api/plain/", plain_django_view),
    path("plain/", plain_django_view),
]
handler403 = "config.views.permission_denied"
handler500 = "config.views.server_error"

use_these_urls = pytest.mark.urls(__name__)


def post(body, **extra):
    return APIClient().post("/api/echo/", body, format="json", **extra)


def valid_body(**changes):
    return {"name": "Tuesday", "seats": [1, 2], "rob": {"seat": 1}, "bids": [], **changes}


@use_these_urls
def test_valid_input_passes():
    response = post(valid_body())

    assert response.status_code == 200
    assert response.json() == {"name": "Tuesday"}


@use_these_urls
def test_validation_errors_become_one_error_per_leaf_with_its_pointer():
    response = post(
        {"name": "", "seats": [1, "x"], "rob": {"seat": 9}, "bids": [{"seat": 1}, {"seat": "y"}]}
    )

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert {key: body[key] for key in ("type", "title", "status", "detail", "code")} == {
        "type": "urn:jink:problem:invalid",
        "title": "Invalid input.",
        "status": 400,
        "detail": "The request has 4 errors.",
        "code": "invalid",
    }
    assert sorted(body["errors"], key=lambda error: error["pointer"]) == [
        {"code": "invalid", "detail": "A valid integer is required.", "pointer": "/bids/1/seat"},
        {"code": "blank", "detail": "This field may not be blank.", "pointer": "/name"},
        {
            "code": "max_value",
            "detail": "Ensure this value is less than or equal to 3.",
            "pointer": "/rob/seat",
        },
        {"code": "invalid", "detail": "A valid integer is required.", "pointer": "/seats/1"},
    ]


@use_these_urls
def test_non_field_errors_point_at_the_whole_body():
    response = post(valid_body(name="clash"))

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"code": "name_clash", "detail": "That name clashes.", "pointer": ""}
    ]
    assert response.json()["detail"] == "That name clashes."


@use_these_urls
def test_unknown_and_read_only_fields_are_refused_at_every_level():
    response = post(valid_body(extra=1, created="2026-01-01T00:00:00Z", rob={"seat": 1, "hue": 2}))

    assert response.status_code == 400
    assert sorted(response.json()["errors"], key=lambda error: error["pointer"]) == [
        {
            "code": "unknown_field",
            "detail": "Read-only field; it cannot be set.",
            "pointer": "/created",
        },
        {"code": "unknown_field", "detail": "Unknown field.", "pointer": "/extra"},
        {"code": "unknown_field", "detail": "Unknown field.", "pointer": "/rob/hue"},
    ]


@use_these_urls
def test_unknown_fields_are_reported_with_the_other_errors():
    body = valid_body(sates=[1])
    del body["name"]

    response = post(body)

    assert sorted((error["pointer"], error["code"]) for error in response.json()["errors"]) == [
        ("/name", "required"),
        ("/sates", "unknown_field"),
    ]


@use_these_urls
def test_malformed_json_is_parse_error():
    response = APIClient().post("/api/echo/", '{"name": ', content_type="application/json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "parse_error"
    assert body["errors"][0]["code"] == "parse_error"
    assert body["errors"][0]["pointer"] is None
    assert body["detail"].startswith("JSON parse error")


@use_these_urls
def test_form_body_is_unsupported_media_type():
    response = APIClient().post("/api/echo/", {"name": "x"}, format="multipart")

    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


@use_these_urls
def test_wrong_method_is_405():
    response = APIClient().get("/api/echo/")

    assert response.status_code == 405
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["errors"] == [
        {"code": "method_not_allowed", "detail": 'Method "GET" not allowed.', "pointer": None}
    ]


NOT_PROVIDED = "Authentication credentials were not provided."
INCORRECT = "Incorrect authentication credentials."
NO_PERMISSION = "You do not have permission to perform this action."
THROTTLED = "Request was throttled. Expected available in 30 seconds."


@use_these_urls
@pytest.mark.parametrize(
    ("kind", "status", "code", "detail"),
    [
        ("not_found", 404, "not_found", "Not found."),
        ("http404", 404, "not_found", "Not found."),
        ("not_authenticated", 401, "not_authenticated", NOT_PROVIDED),
        ("authentication_failed", 401, "authentication_failed", INCORRECT),
        ("permission_denied", 403, "permission_denied", NO_PERMISSION),
        ("django_permission_denied", 403, "permission_denied", NO_PERMISSION),
        ("throttled", 429, "throttled", THROTTLED),
    ],
)
def test_each_exception_type_has_its_status_and_code(kind, status, code, detail):
    response = APIClient().get(f"/api/raise/{kind}/")

    assert response.status_code == status
    assert response["Content-Type"] == "application/problem+json"
    assert response.json() == {
        "type": f"urn:jink:problem:{code}",
        "title": {
            401: "Authentication required.",
            403: "Permission denied.",
            404: "Not found.",
            429: "Too many requests.",
        }[status],
        "status": status,
        "detail": detail,
        "code": code,
        "errors": [{"code": code, "detail": detail, "pointer": None}],
    }


@use_these_urls
def test_401_says_how_to_authenticate_and_429_when_to_retry():
    assert APIClient().get("/api/raise/not_authenticated/")["WWW-Authenticate"] == "Token"
    assert APIClient().get("/api/raise/throttled/")["Retry-After"] == "30"


@use_these_urls
def test_problem_raised_by_a_service():
    response = APIClient().get("/api/raise/game_over/")

    assert response.status_code == 409
    assert response.json() == {
        "type": "urn:jink:problem:game_over",
        "title": "Conflict.",
        "status": 409,
        "detail": "The game is over.",
        "code": "game_over",
        "errors": [{"code": "game_over", "detail": "The game is over.", "pointer": ""}],
    }


@use_these_urls
def test_rules_error_through_the_api():
    response = APIClient().get("/api/raise/rules/")

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"code": "invalid_card", "detail": "11H is not a card.", "pointer": "/tricks/2/1"}
    ]


@use_these_urls
def test_pointer_segments_are_escaped():
    response = APIClient().get("/api/raise/escaped/")

    assert sorted(error["pointer"] for error in response.json()["errors"]) == ["/a~1b", "/c~0d"]


@use_these_urls
def test_unexpected_exception_under_api_is_a_500_problem():
    client = APIClient(raise_request_exception=False)

    response = client.get("/api/raise/crash/")

    assert response.status_code == 500
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "server_error"


def test_unknown_api_path_is_a_404_problem():
    response = APIClient().get("/api/no-such-thing/")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert json.loads(response.content)["code"] == "not_found"


def test_a_bad_host_header_under_api_is_a_400_problem():
    # Django refuses the Host before any view runs; the handler400 of config.urls answers.
    response = APIClient().get("/api/clubs/", HTTP_HOST="evil.example.org")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json() == {
        "type": "urn:jink:problem:bad_request",
        "title": "Bad request.",
        "status": 400,
        "detail": "The request is malformed.",
        "code": "bad_request",
        "errors": [{"code": "bad_request", "detail": "The request is malformed.", "pointer": None}],
    }


@use_these_urls
def test_a_refusal_outside_drf_is_a_403_problem_under_api_and_a_page_elsewhere():
    api = APIClient().get("/api/plain/")
    page = APIClient().get("/plain/")

    assert (api.status_code, api["Content-Type"]) == (403, "application/problem+json")
    assert api.json()["code"] == "permission_denied"
    assert (page.status_code, page["Content-Type"].split(";")[0]) == (403, "text/html")


def test_unknown_page_path_is_an_html_404():
    response = APIClient().get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_rules_error_to_problem_prefixes_pointers_and_keeps_each_error():
    error = RulesError.combine(
        [
            RulesError("invalid_house_rule", "Unknown key 'x'.", "/x"),
            RulesError("invalid_house_rule", "'rob' must be a boolean.", "/rob"),
        ]
    )

    problem = rules_error_to_problem(error, pointer_prefix="/house_rules")

    assert problem.status_code == 400
    assert problem.code == "invalid_house_rule"
    assert problem.errors == [
        {"code": "invalid_house_rule", "detail": "Unknown key 'x'.", "pointer": "/house_rules/x"},
        {
            "code": "invalid_house_rule",
            "detail": "'rob' must be a boolean.",
            "pointer": "/house_rules/rob",
        },
    ]


def test_game_over_rules_error_is_a_409():
    problem = rules_error_to_problem(RulesError("game_over", "The game is over."))

    assert problem.status_code == 409
    assert problem.errors == [{"code": "game_over", "detail": "The game is over.", "pointer": ""}]


def test_flatten_keeps_leaf_codes_and_list_indexes():
    detail = exceptions.ValidationError(
        {"tricks": {2: {1: ["Not a card."]}}, "seats": [{}, {"id": ["Unknown."]}]}
    ).detail

    assert flatten_validation_detail(detail) == [
        {"code": "invalid", "detail": "Not a card.", "pointer": "/tricks/2/1"},
        {"code": "invalid", "detail": "Unknown.", "pointer": "/seats/1/id"},
    ]


def test_schema_documents_problem_responses():
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    schema = json.loads(response.content)
    problem = {"schema": {"$ref": "#/components/schemas/Problem"}}
    token = schema["paths"]["/api/auth/token/"]["post"]["responses"]
    assert token["400"]["content"] == {"application/problem+json": problem}
    assert token["429"]["content"] == {"application/problem+json": problem}
    revoke = schema["paths"]["/api/auth/devices/{device_token_id}/"]["delete"]["responses"]
    assert sorted(revoke) == ["204", "401", "403", "404"]
    assert revoke["404"]["content"] == {"application/problem+json": problem}
    assert sorted(schema["components"]["schemas"]["Problem"]["properties"]) == [
        "code",
        "detail",
        "errors",
        "status",
        "title",
        "type",
    ]


def test_api_docs_page_needs_no_cdn():
    response = APIClient().get("/api/docs/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn." not in page
