"""The ``/api/auth/`` endpoints: register, token (login), logout, devices and me.

What it does: thin views over ``accounts.services`` and ``accounts.selectors``. The token
endpoint authenticates through ``django.contrib.auth.authenticate`` so that django-axes counts
failures and refuses locked-out attempts (429, code ``locked_out``). For an account with two
factors it issues no token on the password alone: 401 ``second_factor_required`` with a challenge
for ``/api/auth/token/code/`` (``accounts.two_factor_api``).

``PasswordView`` changes the password and ends the other devices' tokens and browser sessions.

What it does not do: session login for the pages (``django.contrib.auth.urls``).
"""

from __future__ import annotations

from django.contrib.auth import (
    authenticate,
    update_session_auth_hash,
    user_logged_out,
)
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts import selectors, services, two_factor, two_factor_api
from accounts.lockout import lockout_response
from accounts.models import DeviceToken
from accounts.serializers import (
    DeviceOutput,
    MeOutput,
    PasswordChangeInput,
    RegisterInput,
    TokenInput,
    TokenOutput,
    UserOutput,
)
from accounts.token_activity import ActivityTokenAuthentication
from config.problems import Problem
from config.serializers import ProblemSerializer


class RegisterView(APIView):
    """Create an account. Anyone may; sign-ups are throttled per address."""

    may_conflict = False  # no state of the server refuses it (config.schema: no 409)

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "register"

    @extend_schema(request=RegisterInput, responses={201: UserOutput}, operation_id="register")
    def post(self, request: Request) -> Response:
        serializer = RegisterInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.register_user(**serializer.validated_data)
        return Response(UserOutput(user).data, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """Log in: exchange a username and password for a device token."""

    may_conflict = False  # no state of the server refuses it (config.schema: no 409)

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=TokenInput,
        responses={
            200: TokenOutput,
            (400, "application/problem+json"): OpenApiResponse(
                ProblemSerializer, description="Bad input or wrong username/password."
            ),
            (401, "application/problem+json"): OpenApiResponse(
                two_factor_api.CHALLENGE_DOCUMENT,
                description="Right password, and the account has two factors: "
                "`second_factor_required` with a `challenge` for /api/auth/token/code/.",
            ),
            (429, "application/problem+json"): OpenApiResponse(
                ProblemSerializer, description="Locked out after too many failures."
            ),
        },
        operation_id="token",
    )
    def post(self, request: Request) -> Response:
        serializer = TokenInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        # The plain Django request: django-axes marks it when the attempt is locked out.
        django_request = request._request
        user = authenticate(django_request, username=data["username"], password=data["password"])
        if getattr(django_request, "axes_locked_out", False):
            return lockout_response(django_request)
        if user is None:
            raise Problem(
                code="invalid_credentials",
                detail=gettext("Unable to log in with the username and password given."),
                pointer="",
            )
        if two_factor.has_second_factor(user):
            return two_factor_api.challenge_response(user, data["device"])
        return two_factor_api.token_response(request, user, data["device"])


class LogoutView(APIView):
    """Revoke the token this request was made with."""

    may_conflict = False  # no state of the server refuses it (config.schema: no 409)

    authentication_classes = [ActivityTokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, operation_id="logout")
    def post(self, request: Request) -> Response:
        request.auth.delete()
        user_logged_out.send(
            sender=request.user.__class__, request=request._request, user=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordView(APIView):
    """Change my password; every other device's token and every other browser session is ended,
    this one keeps working (a browser's session is renewed under the new password)."""

    may_conflict = False  # no state of the server refuses it (config.schema: no 409)

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PasswordChangeInput,
        responses={204: OpenApiResponse(description="Changed; other devices' tokens revoked.")},
        operation_id="change_password",
        summary="Change my password (revokes the tokens of my other devices)",
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        by_token = isinstance(request.auth, DeviceToken)
        session = getattr(request._request, "session", None)
        services.change_password(
            user=request.user,
            keep_device_token=request.auth if by_token else None,
            keep_session_key=None if by_token or session is None else session.session_key,
            **serializer.validated_data,
        )
        if not by_token and session is not None:
            # The session holds a hash of the old password: renew it, or it would end too.
            update_session_auth_hash(request._request, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeviceListView(generics.ListAPIView):
    """My devices that hold an unexpired token."""

    permission_classes = [IsAuthenticated]
    serializer_class = DeviceOutput
    filter_backends: list = []

    def get_queryset(self):
        return selectors.list_device_tokens(user=self.request.user)


class DeviceDetailView(APIView):
    """Revoke one of my devices (a lost tablet)."""

    may_conflict = False  # no state of the server refuses it (config.schema: no 409)

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None}, operation_id="revoke_device")
    def delete(self, request: Request, device_token_id: int) -> Response:
        services.revoke_device_token(user=request.user, device_token_id=device_token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    """Who I am, and my roles in clubs."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MeOutput}, operation_id="me")
    def get(self, request: Request) -> Response:
        user = request.user
        output = {
            "id": user.pk,
            "username": user.username,
            "email": user.email,
            "memberships": selectors.list_memberships(user=user),
        }
        return Response(MeOutput(output).data)
