"""The API's token exchange for an account with two factors, and the token answer itself.

What it does: ``token_response`` issues a device token and answers it (both the password-only
login of an account without a second factor, ``accounts.views.TokenView``, and the second step
here). ``challenge_response`` is what ``POST /api/auth/token/`` answers when the password was
right but the account has a second factor: 401 ``second_factor_required`` with a ``challenge``
(signed, ``accounts.two_factor.CHALLENGE_SECONDS`` long). ``TokenCodeView``
(``POST /api/auth/token/code/``) takes the challenge and a code (the authenticator's, or a
recovery code) and issues the token. A wrong code counts as a failed login (django-axes:
``accounts.two_factor_lockout``): after the limit, 429 ``locked_out``.

What it does not do: set up or turn off the second factor (the account pages,
``web.two_factor_pages``).
"""

from __future__ import annotations

from django.contrib.auth import user_logged_in
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services, token_activity, two_factor, two_factor_lockout
from accounts.lockout import lockout_response
from accounts.serializers import TokenOutput
from accounts.sessions import address_of
from config.problems import Problem, problem_document, problem_response
from config.serializers import ProblemSerializer, StrictFieldsMixin


def token_response(request: Request, user, device: str) -> Response:
    """Issue ``user`` a token for ``device`` and answer it (200, ``TokenOutput``)."""
    device_token, token = services.issue_device_token(user=user, device=device)
    django_request = request._request
    # The sign-in is the token's first use: its address now, not at its first request.
    token_activity.note_sign_in(device_token, address_of(django_request))
    # As for a session login: records last_login and lets django-axes reset the failures.
    # Without the session: django-axes would create one (a database row and a cookie) to
    # hash its key into the access log, and a token login has no session.
    session = django_request.session
    del django_request.session
    try:
        user_logged_in.send(sender=user.__class__, request=django_request, user=user)
    finally:
        django_request.session = session
    request.auth = device_token
    output = {"token": token, "expiry": device_token.expiry, "device": device_token, "user": user}
    return Response(TokenOutput(output, context={"request": request}).data)


def challenge_response(user, device: str) -> Response:
    """401 ``second_factor_required`` carrying the challenge for the second step."""
    document = problem_document(
        Problem(
            code="second_factor_required",
            detail=gettext(
                "This account signs in with two factors: send the challenge and a code from "
                "the authenticator app (or a recovery code) to /api/auth/token/code/."
            ),
        )
    )
    document["challenge"] = two_factor.make_challenge(user, device)
    document["challenge_expires_in"] = two_factor.CHALLENGE_SECONDS
    return problem_response(document, {"WWW-Authenticate": 'Token realm="api"'})


class TokenCodeInput(StrictFieldsMixin, serializers.Serializer):
    challenge = serializers.CharField(
        max_length=500, help_text="The `challenge` of the 401 `second_factor_required` answer."
    )
    code = serializers.CharField(
        max_length=32,
        help_text="The authenticator app's 6-digit code, or one of the recovery codes "
        "(each works once).",
    )


CHALLENGE_DOCUMENT = inline_serializer(
    "SecondFactorRequired",
    {
        "type": serializers.CharField(),
        "title": serializers.CharField(),
        "status": serializers.IntegerField(),
        "detail": serializers.CharField(),
        "code": serializers.CharField(),
        "errors": serializers.ListField(child=serializers.DictField()),
        "challenge": serializers.CharField(),
        "challenge_expires_in": serializers.IntegerField(help_text="Seconds."),
    },
)


class TokenCodeView(APIView):
    """Log in, second step: exchange the challenge and a code for a device token."""

    may_conflict = False  # no state of the server refuses it (config.schema: no 409)

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=TokenCodeInput,
        responses={
            200: TokenOutput,
            (400, "application/problem+json"): OpenApiResponse(
                ProblemSerializer, description="Bad input or a wrong code (`invalid_code`)."
            ),
            (401, "application/problem+json"): OpenApiResponse(
                ProblemSerializer, description="The challenge is forged or expired."
            ),
            (429, "application/problem+json"): OpenApiResponse(
                ProblemSerializer, description="Locked out after too many failures."
            ),
        },
        operation_id="token_code",
        summary="Log in with the second factor (after 401 second_factor_required)",
    )
    def post(self, request: Request) -> Response:
        serializer = TokenCodeInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, device = two_factor.read_challenge(serializer.validated_data["challenge"])
        django_request = request._request
        if two_factor_lockout.locked_out(django_request, user):
            return lockout_response(django_request)
        if two_factor.verify_code(user, serializer.validated_data["code"]) is None:
            if two_factor_lockout.count_wrong_code(django_request, user):
                return lockout_response(django_request)
            raise two_factor.wrong_code()
        return token_response(request, user, device)
