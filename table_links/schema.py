"""The OpenAPI description of table-link authentication (drf-spectacular extension)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class TableLinkScheme(OpenApiAuthenticationExtension):
    target_class = "table_links.authentication.TableLinkAuthentication"
    name = "tableLink"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Table <token or short code>` from a table link: reads and scores "
            "one table's games only (every other route is 404).",
        }
