"""The link between a game and its tournament match moves to tournaments (``MatchGame``).

Schema first (the table, and ``Match.games`` through it), then the data: one ``MatchGame`` per
game whose ``tournament_match`` is set. ``games.0002`` then drops ``Game.tournament_match``; it
depends on this migration, so the column is read before it goes. Reversible: the way back copies
the links into the column again (restored by reversing ``games.0002`` first).
"""

import django.db.models.deletion
from django.db import migrations, models


def copy_links(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    MatchGame = apps.get_model("tournaments", "MatchGame")
    links = Game.objects.filter(tournament_match__isnull=False).values_list(
        "pk", "tournament_match_id"
    )
    MatchGame.objects.bulk_create(
        (MatchGame(game_id=game_id, match_id=match_id) for game_id, match_id in links.iterator()),
        batch_size=1000,
    )


def copy_links_back(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    MatchGame = apps.get_model("tournaments", "MatchGame")
    for game_id, match_id in MatchGame.objects.values_list("game_id", "match_id").iterator():
        Game.objects.filter(pk=game_id).update(tournament_match_id=match_id)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0001_initial"),
        ("tournaments", "0002_game_type_labels"),
    ]

    operations = [
        migrations.CreateModel(
            name="MatchGame",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="match_link", to="games.game")),
                ("match", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="match_games", to="tournaments.match")),
            ],
            options={
                "ordering": ["match_id", "game_id"],
            },
        ),
        migrations.AddField(
            model_name="match",
            name="games",
            field=models.ManyToManyField(blank=True, related_name="+", through="tournaments.MatchGame", to="games.game"),
        ),
        migrations.RunPython(copy_links, copy_links_back),
    ]
