"""A match's game options, chosen at creation (backgammon's cube, Jacoby rule, match length)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("matches", "0009_stats_say_search_version")]

    operations = [
        migrations.AddField(model_name="match", name="options", field=models.JSONField(blank=True, default=dict)),
    ]
