"""The REST API of the clubs app (serializers, filters, views, URLs); nothing else imports it."""
