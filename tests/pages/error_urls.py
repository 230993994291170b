"""The site's URLs plus one page that fails (for the 500 page's tests): ``/boom/`` and
``/clubs/<slug>/boom/`` raise, as a bug in a page would."""

from django.urls import path

from config.urls import handler400, handler403, handler404, handler500, urlpatterns  # noqa: F401


def fail(request, slug=None):
    raise RuntimeError("a page failed")


urlpatterns = [
    path("boom/", fail),
    path("clubs/<slug:slug>/boom/", fail),
    *urlpatterns,
]
