"""Routes of the sign-in pages under /accounts/: the login page (with a second factor), its code
step and the two-factor page. Included before Django's own ``django.contrib.auth.urls``, whose
login route this one replaces (same path, same name)."""

from django.urls import path

from web import two_factor_pages

urlpatterns = [
    path("login/", two_factor_pages.SignInView.as_view(), name="login"),
    path("login/code/", two_factor_pages.sign_in_code, name="login-code"),
    path("two-factor/", two_factor_pages.two_factor_page, name="two-factor"),
]
