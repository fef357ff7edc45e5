from django.db import migrations


def seed(apps, schema_editor):
    from server.bots.seed import seed_profiles

    seed_profiles(apps.get_model("bots", "BotProfile"))


class Migration(migrations.Migration):
    dependencies = [("bots", "0001_initial")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
