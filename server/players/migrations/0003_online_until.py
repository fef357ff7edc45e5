from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_last_seen"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="online_until",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
    ]
