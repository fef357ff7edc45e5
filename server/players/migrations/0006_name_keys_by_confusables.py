"""Accounts' name keys recomputed: `name_skeleton` now reads names through Unicode's confusables.

Two accounts made before whose names now look alike keep both names; the later one's key gets
its id (as in 0005), so the constraint holds and a new account can take neither look.
"""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def recompute_account_keys(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from server.players.names import name_skeleton

    Player = apps.get_model("players", "Player")
    seen, changed = set(), []
    for player in Player.objects.filter(is_guest=False).order_by("pk").only("pk", "name", "name_key"):
        key = name_skeleton(player.name)
        new_key = key if key not in seen else f"{key}#{player.pk}"
        seen.add(key)
        if new_key != player.name_key:
            changed.append((player, new_key))
    # Two passes: a row's new key may be another changed row's old one, and the constraint holds throughout.
    for player, _ in changed:
        player.name_key = f"#{player.pk}"
        player.save(update_fields=["name_key"])
    for player, new_key in changed:
        player.name_key = new_key
        player.save(update_fields=["name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0005_account_names"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(blank=True, db_index=True, default="", max_length=255),
        ),
        migrations.RunPython(recompute_account_keys, migrations.RunPython.noop),
    ]
