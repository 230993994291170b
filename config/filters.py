"""The ordering filter of every API list (``?ordering=``).

What it does: ``OrderingFilter`` is DRF's, except that a view without ``ordering_fields``
accepts no ordering at all (the parameter is ignored) instead of guessing the fields from a
serializer class: the API's list views build their output without one, and DRF's guess raised
``ImproperlyConfigured`` (a 500 for any ``?ordering=`` on such a view). Unknown fields are
ignored, as DRF does, and the list keeps its default order.

What it does not do: filter rows (``django_filters`` does, per view).
"""

from __future__ import annotations

from rest_framework import filters


class OrderingFilter(filters.OrderingFilter):
    def get_default_valid_fields(self, queryset, view, context=None):
        return []
