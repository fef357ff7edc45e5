"""The "researcher" group: its members (and staff) may download the research exports."""

from django.db import migrations

RESEARCHER_GROUP = "researcher"  # as server.research.permissions.RESEARCHER_GROUP


def create_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name=RESEARCHER_GROUP)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=RESEARCHER_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(create_group, remove_group)]
