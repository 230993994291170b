# A game of a club night started at one of its physical tables keeps that table's number.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('settlements', '0002_pot_at_the_door'),
    ]

    operations = [
        migrations.AddField(
            model_name='nightgame',
            name='table_number',
            field=models.PositiveSmallIntegerField(blank=True, help_text='1-based: the physical table of the night the game is played at (empty: a game started elsewhere, linked when the night closed).', null=True),
        ),
        migrations.AddIndex(
            model_name='nightgame',
            index=models.Index(fields=['night', 'table_number'], name='settlements_night_table'),
        ),
        migrations.AddConstraint(
            model_name='nightgame',
            constraint=models.CheckConstraint(condition=models.Q(('table_number__isnull', True), ('table_number__gte', 1), _connector='OR'), name='settlements_night_table_from_one'),
        ),
    ]
