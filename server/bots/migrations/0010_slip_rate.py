"""The slip rate has one name everywhere: the field, the seats' bot snapshots and the wire say `slip_rate`."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

OLD, NEW = "error_rate", "slip_rate"


def _rename_key(apps: StateApps, old: str, new: str) -> None:
    """Seats keep the profile as it was when the match was made: their snapshots follow the field's name."""
    Seat = apps.get_model("matches", "Seat")
    for seat in Seat.objects.filter(bot_snapshot__has_key=old).iterator():
        snapshot = dict(seat.bot_snapshot)
        snapshot[new] = snapshot.pop(old)
        seat.bot_snapshot = snapshot
        seat.save(update_fields=["bot_snapshot"])


def snapshots_say_slip_rate(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename_key(apps, OLD, NEW)


def snapshots_say_error_rate(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename_key(apps, NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0009_algorithm_from_catalogue"),
        ("matches", "0009_stats_say_search_version"),
    ]

    operations = [
        migrations.RenameField(model_name="botprofile", old_name=OLD, new_name=NEW),
        migrations.RunPython(snapshots_say_slip_rate, snapshots_say_error_rate),
    ]
