"""Routes under /api/auth/."""

from django.urls import path

from accounts import two_factor_api, views

urlpatterns = [
    path("register/", views.RegisterView.as_view(), name="auth-register"),
    path("token/", views.TokenView.as_view(), name="auth-token"),
    path("token/code/", two_factor_api.TokenCodeView.as_view(), name="auth-token-code"),
    path("logout/", views.LogoutView.as_view(), name="auth-logout"),
    path("password/", views.PasswordView.as_view(), name="auth-password"),
    path("devices/", views.DeviceListView.as_view(), name="auth-devices"),
    path(
        "devices/<int:device_token_id>/",
        views.DeviceDetailView.as_view(),
        name="auth-device-detail",
    ),
    path("me/", views.MeView.as_view(), name="auth-me"),
]
