"""One word per idea in a move's stats: ``search_version`` (was ``engine``) and a hint's ``profile`` (was ``engine``)."""

from django.db import migrations

BATCH = 2000


def _renamed(stats: dict, forward: bool) -> dict:
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


def _rename(apps, forward: bool) -> None:
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


def forwards(apps, schema_editor) -> None:
    _rename(apps, forward=True)


def backwards(apps, schema_editor) -> None:
    _rename(apps, forward=False)


class Migration(migrations.Migration):
    dependencies = [("matches", "0008_move_notation")]

    operations = [migrations.RunPython(forwards, backwards)]
