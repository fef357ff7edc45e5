"""One word per idea in a move's stats: ``search_version`` (was ``engine``) and a hint's ``profile`` (was ``engine``)."""

from typing import Any

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

BATCH = 2000


def _renamed(stats: dict[str, Any], forward: bool) -> dict[str, Any]:
    stats = dict(stats)
    old, new = ("engine", "search_version") if forward else ("search_version", "engine")
    if old in stats:
        stats[new] = stats.pop(old)
    hint = stats.get("hint")
    if isinstance(hint, dict):
        old, new = ("engine", "profile") if forward else ("profile", "engine")
        if old in hint:
            hint = dict(hint)
            hint[new] = hint.pop(old)
            stats["hint"] = hint
    return stats


def _rename(apps: StateApps, forward: bool) -> None:
    Move = apps.get_model("matches", "Move")
    batch = []
    for move in Move.objects.filter(stats__isnull=False).only("id", "stats").iterator(chunk_size=BATCH):
        renamed = _renamed(move.stats, forward) if isinstance(move.stats, dict) else move.stats
        if renamed != move.stats:
            move.stats = renamed
            batch.append(move)
        if len(batch) >= BATCH:
            Move.objects.bulk_update(batch, ["stats"])
            batch = []
    Move.objects.bulk_update(batch, ["stats"])


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename(apps, forward=True)


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename(apps, forward=False)


class Migration(migrations.Migration):
    dependencies = [("matches", "0008_move_notation")]

    operations = [migrations.RunPython(forwards, backwards)]
