"""A seek's game options: seeks pair only with the same ones (backgammon's cube, match length)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("pairing", "0001_initial")]

    operations = [
        migrations.AddField(model_name="seek", name="options", field=models.JSONField(blank=True, default=dict)),
    ]
