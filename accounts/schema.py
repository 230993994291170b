"""The OpenAPI description of the device-token authentication (drf-spectacular extension).

drf-spectacular describes knox's ``TokenAuthentication`` itself, but matches the class exactly:
its subclass ``accounts.token_activity.ActivityTokenAuthentication`` gets the same scheme, under
the same name, here.
"""

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme


class ActivityTokenScheme(KnoxTokenScheme):
    target_class = "accounts.token_activity.ActivityTokenAuthentication"
