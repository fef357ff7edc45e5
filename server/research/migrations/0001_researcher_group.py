"""The "researcher" group: its members (and staff) may download the research exports."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

RESEARCHER_GROUP = "researcher"  # as server.research.permissions.RESEARCHER_GROUP


def create_group(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.get_or_create(name=RESEARCHER_GROUP)


def remove_group(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.filter(name=RESEARCHER_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(create_group, remove_group)]
