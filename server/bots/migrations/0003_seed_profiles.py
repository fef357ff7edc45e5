from django.db import migrations


def seed(apps, schema_editor):
    from server.bots.seed import seed_profiles

    seed_profiles(apps.get_model("bots", "BotProfile"))


class Migration(migrations.Migration):
    dependencies = [("bots", "0002_search_settings_and_adaptive_strength")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
