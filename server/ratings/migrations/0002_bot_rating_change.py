import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0011_bots_on_the_people_scale"),
        ("matches", "0001_initial"),
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="BotRatingChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "score",
                    models.FloatField(
                        help_text="the bot's points against the people of the match: 1 win, 0.5 draw, 0 loss"
                    ),
                ),
                ("rating_before", models.FloatField()),
                ("deviation_before", models.FloatField()),
                ("rating_after", models.FloatField()),
                ("deviation_after", models.FloatField()),
                ("at", models.DateTimeField()),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="bot_rating_changes",
                        to="matches.match",
                    ),
                ),
                (
                    "profile",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="rating_changes", to="bots.botprofile"
                    ),
                ),
            ],
            options={
                "ordering": ["at", "pk"],
                "constraints": [
                    models.UniqueConstraint(fields=("match", "profile"), name="one_bot_change_per_match")
                ],
            },
        ),
    ]
