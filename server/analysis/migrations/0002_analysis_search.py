"""`Analysis.engine` is named `search` in the code; the column keeps its name (no schema change)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("analysis", "0001_initial")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField("analysis", "engine", "search"),
                migrations.AlterField("analysis", "search", models.JSONField(default=dict, db_column="engine")),
            ],
        ),
    ]
