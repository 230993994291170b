# Drops Game.tournament_match: tournaments.0003 has copied each link into tournaments.MatchGame.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
        ('tournaments', '0003_match_game'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='game',
            name='tournament_match',
        ),
        migrations.RemoveField(
            model_name='historicalgame',
            name='tournament_match',
        ),
    ]
