"""Game.game is Game.variant (issue 23): a state-only rename; the column stays "game"."""

from django.db import migrations, models


def _variant():
    return models.CharField(
        choices=[
            ("25", "Twenty-Five"),
            ("45", "Forty-Five"),
            ("55", "Fifty-Five"),
            ("110", "One Hundred and Ten"),
            ("220", "Two Hundred and Twenty"),
            ("auction45", "Auction Forty-Fives"),
        ],
        db_column="game",
        max_length=16,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_hand_acceptance"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(model_name=model, old_name="game", new_name="variant")
                for model in ("game", "historicalgame")
            ]
            + [
                migrations.AlterField(model_name=model, name="variant", field=_variant())
                for model in ("game", "historicalgame")
            ],
            database_operations=[],
        ),
    ]
