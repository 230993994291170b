"""Halls for club nights: a hall link and a hall's settings name a tournament or a night.

HallSettings was keyed by its tournament; it gets its own ``id`` (the tournament's primary key
is dropped first, then ``id`` is added as an identity column, which numbers the rows already
there), keeping every row; ``tournament`` stays one-to-one, now nullable beside ``night``.
"""

import django.db.models.deletion
from django.db import migrations, models

# Whatever the key's name (the initial table's or the one a backwards migration made).
DROP_PRIMARY_KEY = """
DO $$
DECLARE key_name text;
BEGIN
    SELECT conname INTO key_name FROM pg_constraint
    WHERE conrelid = 'hall_hallsettings'::regclass AND contype = 'p';
    EXECUTE format('ALTER TABLE hall_hallsettings DROP CONSTRAINT %I', key_name);
END $$;
"""



def drop_primary_key(apps, schema_editor):
    """PostgreSQL only: SQLite (the demo's database) rebuilds the table on the AlterField and
    AddField below, moving the primary key with them. ``params=None``: the block's ``%I`` is
    PostgreSQL's, not a placeholder (psycopg refuses it when it formats the statement)."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_PRIMARY_KEY, params=None)


EVENT_XOR = models.Q(
    models.Q(("night__isnull", True), ("tournament__isnull", False)),
    models.Q(("night__isnull", False), ("tournament__isnull", True)),
    _connector="OR",
)


class Migration(migrations.Migration):
    dependencies = [
        ("hall", "0001_initial"),
        ("settlements", "0004_night_attendance"),
    ]

    operations = [
        # The tournament stops being the key: AlterField leaves the primary key where it was
        # (backwards, AlterField makes the tournament the key again by itself).
        migrations.RunPython(drop_primary_key, reverse_code=migrations.RunPython.noop),
        migrations.AlterField(
            model_name="hallsettings",
            name="tournament",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="hall_settings",
                to="tournaments.tournament",
            ),
        ),
        migrations.AddField(
            model_name="hallsettings",
            name="id",
            field=models.BigAutoField(
                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="hallsettings",
            name="night",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="hall_settings",
                to="settlements.night",
            ),
        ),
        migrations.AddField(
            model_name="halllink",
            name="night",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="hall_links",
                to="settlements.night",
            ),
        ),
        migrations.AlterField(
            model_name="halllink",
            name="tournament",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="hall_links",
                to="tournaments.tournament",
            ),
        ),
        migrations.AddConstraint(
            model_name="halllink",
            constraint=models.CheckConstraint(condition=EVENT_XOR, name="hall_link_event"),
        ),
        migrations.AddConstraint(
            model_name="halllink",
            constraint=models.UniqueConstraint(
                condition=models.Q(("revoked_at__isnull", True)),
                fields=("night",),
                name="hall_one_live_link_per_night",
            ),
        ),
        migrations.AddConstraint(
            model_name="hallsettings",
            constraint=models.CheckConstraint(condition=EVENT_XOR, name="hall_settings_event"),
        ),
    ]
