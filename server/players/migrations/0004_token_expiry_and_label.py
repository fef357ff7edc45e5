from datetime import timedelta

from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

import server.players.names


def expire_from_creation(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Tokens issued before expiry existed expire API_TOKEN_DAYS after they were issued."""
    ApiToken = apps.get_model("players", "ApiToken")
    lifetime = timedelta(days=settings.API_TOKEN_DAYS)
    for token in ApiToken.objects.filter(expires_at__isnull=True).only("pk", "created_at"):
        ApiToken.objects.filter(pk=token.pk).update(expires_at=token.created_at + lifetime)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_online_until"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="label",
            field=models.CharField(blank=True, help_text="the owner's word for where it is used", max_length=40),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(db_index=True, null=True),
        ),
        migrations.RunPython(expire_from_creation, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(db_index=True),
        ),
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(max_length=40, validators=[server.players.names.validate_person_name]),
        ),
    ]
