from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def seed(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from server.bots.seed import seed_profiles

    seed_profiles(apps.get_model("bots", "BotProfile"))


class Migration(migrations.Migration):
    dependencies = [("bots", "0002_search_settings_and_adaptive_strength")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
