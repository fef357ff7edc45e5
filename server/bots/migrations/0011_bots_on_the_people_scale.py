"""Bots move onto the people's Glicko-2 scale (server/bots/placement.py).

A measured Elo (random mover 0) becomes a rating 600 points higher with the same 95%
interval, and a deviation of half that interval over 1.96 (at least 60).  The figures are
written here rather than read from `placement`, so that this migration means what it meant
the day it ran.
"""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

RANDOM_MOVER_RATING = 600.0
Z95 = 1.959964
MIN_DEVIATION = 60.0
START_VOLATILITY = 0.06


def to_people_scale(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    BotProfile = apps.get_model("bots", "BotProfile")
    for profile in BotProfile.objects.filter(rating__isnull=False):
        profile.rating += RANDOM_MOVER_RATING
        if profile.rating_low is not None and profile.rating_high is not None:
            spread = (profile.rating_high - profile.rating_low) / 2 / Z95
            profile.rating_low += RANDOM_MOVER_RATING
            profile.rating_high += RANDOM_MOVER_RATING
        else:
            spread = 0.0
        profile.deviation = max(spread, MIN_DEVIATION)
        profile.volatility = START_VOLATILITY
        profile.save(update_fields=["rating", "rating_low", "rating_high", "deviation", "volatility"])


def to_bots_scale(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    BotProfile = apps.get_model("bots", "BotProfile")
    for profile in BotProfile.objects.filter(rating__isnull=False):
        profile.rating -= RANDOM_MOVER_RATING
        if profile.rating_low is not None and profile.rating_high is not None:
            profile.rating_low -= RANDOM_MOVER_RATING
            profile.rating_high -= RANDOM_MOVER_RATING
        profile.save(update_fields=["rating", "rating_low", "rating_high"])


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0010_slip_rate"),
    ]

    operations = [
        migrations.AddField(
            model_name="botprofile",
            name="deviation",
            field=models.FloatField(
                blank=True, help_text="the rating's uncertainty (RD), in rating points", null=True
            ),
        ),
        migrations.AddField(
            model_name="botprofile",
            name="volatility",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="botprofile",
            name="unmeasured_since",
            field=models.DateField(
                blank=True,
                help_text="its settings changed after its rating was measured; empty once measured again",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="botprofile",
            name="rating",
            field=models.FloatField(blank=True, help_text="Glicko-2, the scale people are rated on", null=True),
        ),
        migrations.AlterField(
            model_name="botprofile",
            name="rating_low",
            field=models.FloatField(blank=True, help_text="calibration's 95% interval, low end", null=True),
        ),
        migrations.AlterField(
            model_name="botprofile",
            name="rating_high",
            field=models.FloatField(blank=True, help_text="calibration's 95% interval, high end", null=True),
        ),
        migrations.RunPython(to_people_scale, to_bots_scale),
    ]
