# A table link may open table N of a club night (settlements.Night), as of an event.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('settlements', '0003_night_tables'),
        ('tables', '0002_event_tables'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='tablelink',
            name='tables_link_one_table_v2',
        ),
        migrations.AddField(
            model_name='tablelink',
            name='night',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='settlements.night'),
        ),
        migrations.AlterField(
            model_name='tablelink',
            name='table_number',
            field=models.PositiveSmallIntegerField(blank=True, help_text='1-based: table N of the event (every round) or of the club night (every game).', null=True),
        ),
        migrations.AlterField(
            model_name='tablelink',
            name='expires_at',
            field=models.DateTimeField(blank=True, help_text='Empty: until the event or the night closes (its table).', null=True),
        ),
        migrations.AddConstraint(
            model_name='tablelink',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('expires_at__isnull', False), ('game__isnull', False), ('match__isnull', True), ('night__isnull', True), ('table_number__isnull', True), ('tournament__isnull', True)), models.Q(('expires_at__isnull', False), ('game__isnull', True), ('match__isnull', False), ('night__isnull', True), ('table_number__isnull', True), ('tournament__isnull', True)), models.Q(('game__isnull', True), ('match__isnull', True), ('night__isnull', True), ('table_number__isnull', False), ('tournament__isnull', False)), models.Q(('game__isnull', True), ('match__isnull', True), ('night__isnull', False), ('table_number__isnull', False), ('tournament__isnull', True)), _connector='OR'), name='tables_link_one_table_v3'),
        ),
    ]
