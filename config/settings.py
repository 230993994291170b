"""The one settings module of Jink, driven by environment variables.

What it does: reads the environment (and a ``.env`` file when present) and configures Django,
DRF, Celery (its broker here; the rest, with beat's schedule, in ``config.settings_celery``,
imported here), the cache and the security headers. With nothing set it needs nothing installed:
SQLite in ``db.sqlite3``, an in-process cache, and Celery tasks run in process (eager). Setting
``DATABASE_URL`` selects PostgreSQL (or any database django-environ understands) and
``REDIS_URL`` selects Redis as the Celery broker, result store and cache, with real workers.

What it does not do: pick the test database (``tests/conftest.py`` does, through the same
variables) or contain secrets.

Safe by default: ``DEBUG`` is off unless ``DJANGO_DEBUG=true``, and outside debug there is no
default ``SECRET_KEY`` — startup refuses with ``ImproperlyConfigured``. Outside debug, HTTPS is
assumed (redirects, secure cookies, HSTS) unless ``DJANGO_HTTPS=false``.

Variables (all listed in ``.env.example``):
- ``DJANGO_SECRET_KEY``, ``DJANGO_DEBUG``, ``DJANGO_ALLOWED_HOSTS`` (comma-separated),
  ``DATABASE_URL``, ``REDIS_URL``;
- ``DATABASE_POOLER``: ``transaction`` when ``DATABASE_URL`` is a pooler in transaction mode
  (PgBouncer): the web processes only; Celery workers and beat connect to PostgreSQL directly
  (docs/operations.md, "Past one machine");
- ``DJANGO_HTTPS`` (default: not debug), ``DJANGO_CSRF_TRUSTED_ORIGINS``,
  ``DJANGO_TRUST_X_FORWARDED_PROTO`` (behind a TLS-terminating proxy), ``DJANGO_HSTS_SECONDS``;
- ``DJANGO_STATIC_MANIFEST`` (hashed static file names, default: not debug; needs collectstatic);
- ``DJANGO_TOKEN_DAYS`` (device token lifetime), ``DJANGO_LOGIN_FAILURE_LIMIT`` and
  ``DJANGO_LOGIN_COOLOFF_MINUTES`` (lockouts), ``DJANGO_REGISTER_RATE`` (sign-up throttle);
- ``DJANGO_ENV_FILE``: the env file to read (default ``.env`` beside manage.py; empty: none).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
_env_file = os.environ.get("DJANGO_ENV_FILE", str(BASE_DIR / ".env"))
if _env_file and Path(_env_file).is_file():
    # Values already in the environment win over the file.
    environ.Env.read_env(_env_file)

DEBUG = env.bool("DJANGO_DEBUG", default=False)

SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it to a long random value (for example the output "
            "of `python -c 'import secrets; print(secrets.token_urlsafe(50))'`), or set "
            "DJANGO_DEBUG=true for local development only (`make demo` does)."
        )
    # Development only: DEBUG is on, so this key never protects real data.
    SECRET_KEY = "django-insecure-jink-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    # Two-factor sign-in (accounts.two_factor): TOTP devices and recovery codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "health_check",
    "simple_history",
    "csp",
    "outbox",
    "django_htmx",
    "accounts",
    "clubs",
    "tournaments",
    "games",
    "practice",
    "settlements",
    "seasons",
    "webhooks",
    "table_links",  # label "tables"
    "hall",
    "federations",
    "exchange",
    "rankings",
    "leagues",
    "web",
    "scale",  # the history generator (manage.py generate_history): no models, no routes
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.ResponseHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The pages' language: the switch on the page (a cookie), else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A NUL character in a query parameter or form field: 400 before any view (no text holds one).
    "config.middleware.NulBytesMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): the session was signed in with a second factor.
    "django_otp.middleware.OTPMiddleware",
    # Staff without a verified second factor are sent to set one up before the admin.
    "accounts.two_factor_middleware.AdminSecondFactorMiddleware",
    # A signed-in browser's "last seen", at most once a minute (accounts.sessions).
    "accounts.sessions.SessionActivityMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # A table link reaches only its table's API routes (tables app).
    "table_links.middleware.TableLinkBoundaryMiddleware",
    # Last, as django-axes requires: it turns a lockout into the lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Database: SQLite unless DATABASE_URL says otherwise.
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db_url("DATABASE_URL")}
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Behind a pooler in transaction mode a server connection is ours only for one transaction:
# no server-side cursors (one outlives the transaction that declared it, in autocommit), and no
# session state (config.singleton refuses its session lock). Prepared statements are off already:
# Django binds parameters on the client (no server_side_binding) and its psycopg backend sets
# prepare_threshold=None unless OPTIONS says otherwise.
DATABASE_POOLER = env.str("DATABASE_POOLER", default="")
if DATABASE_POOLER not in ("", "transaction"):
    raise ImproperlyConfigured(
        f"DATABASE_POOLER={DATABASE_POOLER!r}: leave it empty, or 'transaction' for PgBouncer's "
        "pool_mode = transaction"
    )
if DATABASE_POOLER:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True

# Redis: broker, result store and cache when REDIS_URL is set; otherwise everything in process.
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "jink",
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    # No broker installed: run tasks in process so the embedded setup behaves like the real one.
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

# Celery's serialisation, time limits and broker timeouts, the standings lane and beat's schedule:
# config/settings_celery.py (read after the env file above; every upper-case name there is a
# setting here).
from config.settings_celery import *  # noqa: E402, F403

# Who hears of a game's changes, and who may refuse a change of a finished game's result: every
# subscriber and check of games.changes, in one place, as dotted paths (games imports none of
# them). A subscriber is called after the commit with a games.changes.GameChange, in this order
# (config.announce: one that raises is logged and the next still runs); a check is called
# before the commit with a games.changes.ProposedResultChange and refuses by raising.
JINK_GAME_CHANGE_SUBSCRIBERS: list[str] = [
    "tournaments.game_hooks.progress_match_of_game",
    "settlements.subscribers.on_game_change",
    "seasons.subscribers.on_game_change",
    "webhooks.subscribers.on_game_change",
]
JINK_GAME_CHANGE_CHECKS: list[str] = [
    "tournaments.game_hooks.check_match_allows_result_change",
]
# The app that keeps a game's tournament match (games.match_links): games reads it only here.
JINK_GAME_MATCH_LINKS: str | None = "tournaments.game_hooks.MATCH_LINKS"
# The same, one floor up (tournaments.changes): rounds drawn, matches decided, standings moved,
# tournaments closed.
JINK_TOURNAMENT_CHANGE_SUBSCRIBERS: list[str] = [
    "settlements.subscribers.on_tournament_change",
    "webhooks.subscribers.on_tournament_change",
]
# Called after the commit of each settle-up version stored, with a
# settlements.changes.SettlementStored.
JINK_SETTLEMENT_SUBSCRIBERS: list[str] = [
    "settlements.subscribers.on_settlement_stored",  # the version's results e-mails
    "webhooks.subscribers.on_settlement",
    "rankings.subscribers.on_settlement",
]
# What the results message after an event adds per player (settlements.mails): each path is
# called with club_id, player_ids and game_ids and returns player id -> figures.
JINK_RESULTS_MAIL_FIGURES: list[str] = ["seasons.results.results_figures"]
# What /health/workers/ asks, per kind of stored result, for the age (seconds) of the oldest one
# behind its data (None: none behind).
JINK_STALE_SNAPSHOT_AGES: dict[str, str] = {
    "standings": "tournaments.snapshots.oldest_stale_age",
    "seasons": "seasons.league_table.oldest_stale_age",
    "ratings": "seasons.ratings.oldest_unrated_age",
    # A committed change whose subscribers have not all run, past its due time (config.announce).
    "announcements": "config.announce.oldest_due_age",
}
# Webhook endpoints are https:// only; plain http to the loopback address is allowed in debug
# (and by the tests, which run a receiver on 127.0.0.1), never otherwise.
JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP = env.bool("JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP", default=DEBUG)
# Seconds between a failed webhook attempt and the next (webhooks.delivery.RETRY_DELAYS when
# unset; the fault tests use short ones).
JINK_WEBHOOK_RETRY_DELAYS = [
    int(value) for value in env.list("JINK_WEBHOOK_RETRY_DELAYS", default=[])
] or None

# E-mail (settle-ups): the console in debug (make demo prints them), SMTP from the environment
# otherwise (DJANGO_EMAIL_BACKEND, EMAIL_HOST, ...). Tests use Django's in-memory outbox.
EMAIL_BACKEND = env.str(
    "DJANGO_EMAIL_BACKEND",
    default="django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="jink@localhost")
# The site's address as the e-mails link to it (the results message's "turn these off" link).
JINK_SITE_URL = env.str("JINK_SITE_URL", default="http://localhost:8000").rstrip("/")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    # First, as django-axes requires: refuses logins while locked out and counts failures.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The pages and the API's problem texts in English and French (locale/fr/LC_MESSAGES: the .po and
# its compiled .mo are committed, so nothing needs gettext at run time; `make messages` rebuilds).
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
CELERY_TIMEZONE = TIME_ZONE

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files served at the site's root by WhiteNoise: /favicon.ico (scripts/make_favicon.py).
WHITENOISE_ROOT = BASE_DIR / "static" / "root"
# A refused form (its CSRF token missing or stale) gets the site's own page, in the reader's
# language, with a way back (config.views; a problem document under /api/).
CSRF_FAILURE_VIEW = "config.views.csrf_failure"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env.bool("DJANGO_STATIC_MANIFEST", default=not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Security. Outside debug the site is assumed to be served over HTTPS.
HTTPS = env.bool("DJANGO_HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
TRUST_X_FORWARDED_PROTO = env.bool("DJANGO_TRUST_X_FORWARDED_PROTO", default=False)
if TRUST_X_FORWARDED_PROTO:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# Django's database store over accounts.BrowserSession: keys stored hashed, and each signed-in
# browser listed on the account page, where it can be ended (accounts.sessions_store).
SESSION_ENGINE = "accounts.sessions_store"
X_FRAME_OPTIONS = "DENY"
# A strict Content-Security-Policy on every response (django-csp): scripts, styles, fonts and
# images from this site's own origin only, nothing inline (no <script> blocks, no style
# attributes, no event handler attributes), no eval, no plugins, no framing, forms post only
# here. Pages use static ES modules and htmx (django-htmx) from /static/. The one narrower
# exception is the Swagger UI at /api/docs/ (config.urls): its vendored bundle sets inline
# styles, so that page alone allows 'unsafe-inline' styles (never scripts).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'none'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    }
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # knox's device tokens, recording each token's last use and address at most once a
        # minute (accounts.token_activity).
        "accounts.token_activity.ActivityTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        # A table link ("Authorization: Table <token>"): one table's games only (tables app).
        # Last, so that 401s still name Token (DRF asks the first class for WWW-Authenticate).
        "table_links.authentication.TableLinkAuthentication",
    ],
    # Closed by default; every view states its own permissions (clubs.permissions).
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.Pagination",  # sets its own page size
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "config.filters.OrderingFilter",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["config.parsers.GuardedJSONParser"],
    "EXCEPTION_HANDLER": "config.problems.problem_exception_handler",
    # OPTIONS is refused (405): the OpenAPI schema at /api/schema/ describes every endpoint, and
    # DRF's metadata would introspect input serializers that views build per method.
    "DEFAULT_METADATA_CLASS": None,
    "DEFAULT_SCHEMA_CLASS": "config.schema.ProblemAutoSchema",
    # Per address: sign-ups (the page and the API share it); per account: verification resends.
    "DEFAULT_THROTTLE_RATES": {
        "register": env.str("DJANGO_REGISTER_RATE", default="20/hour"),
        "verify_email": env.str("JINK_VERIFY_EMAIL_RATE", default="3/hour"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

REST_KNOX = {
    "TOKEN_TTL": timedelta(days=env.int("DJANGO_TOKEN_DAYS", default=30)),
    "AUTH_HEADER_PREFIX": "Token",
    # Expiry is fixed at login; a lost tablet's token dies on schedule even if it is used.
    "AUTO_REFRESH": False,
}
# One token per user and device, with the device's name (accounts.models.DeviceToken).
KNOX_TOKEN_MODEL = "accounts.DeviceToken"
# Knox's own migrations create a table for its swapped-out token model, with a foreign key to
# the users that breaks flushing the database (transactional tests). Knox has no other model.
MIGRATION_MODULES = {"knox": None}

# Guessing table codes (table_links.guessing): failed look-ups allowed per client address per
# window.
TABLE_CODE_GUESSES = env.int("JINK_TABLE_CODE_GUESSES", default=10)
TABLE_CODE_WINDOW_SECONDS = env.int("JINK_TABLE_CODE_WINDOW_SECONDS", default=600)
# Self check-in at the door (web.door): names a client address may pick per window.
DOOR_PICKS = env.int("JINK_DOOR_PICKS", default=30)
DOOR_PICKS_WINDOW_SECONDS = env.int("JINK_DOOR_PICKS_WINDOW_SECONDS", default=600)

AXES_FAILURE_LIMIT = env.int("DJANGO_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("DJANGO_LOGIN_COOLOFF_MINUTES", default=15))
# Lock the pair (account, address): a stranger cannot lock a member out from elsewhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
# The token endpoint takes JSON; axes reads the username from the credentials it is given.
AXES_USERNAME_FORM_FIELD = "username"
# Two-factor sign-in (accounts.two_factor): the name authenticator apps show; django-otp's own
# throttling is off because wrong codes count as failed logins in django-axes, one mechanism.
OTP_TOTP_ISSUER = "Jink"
OTP_TOTP_THROTTLE_FACTOR = 0
OTP_STATIC_THROTTLE_FACTOR = 0
if TRUST_X_FORWARDED_PROTO:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]

SPECTACULAR_SETTINGS = {
    "TITLE": "Jink API",
    "DESCRIPTION": (
        "Scores, games and tournaments for the Spoil Five family of card games (25, 45, "
        "55/110/220 and Auction Forty-Fives). Errors are RFC 9457 problem details "
        "(`application/problem+json`) with a stable `code` and a JSON `pointer` per error. "
        "Authenticate with `Authorization: Token <token>` from `POST /api/auth/token/`."
    ),
    "VERSION": "1.0.0",
    # 3.1: a nullable reference is a oneOf with null, which strict validators accept (3.0's
    # allOf + nullable is ignored by them).
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.postprocess_schema",
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/",
    # One schema name per shared choice set (drf-spectacular warns on ambiguous names).
    "ENUM_NAME_OVERRIDES": {"GameEnum": "clubs.models.GAME_CHOICES"},
    # Swagger UI from the installed sidecar package, not a CDN: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {
        # django-axes logs every attempt at INFO; warnings (lockouts) are what matter.
        "axes": {"level": "WARNING"},
    },
}
