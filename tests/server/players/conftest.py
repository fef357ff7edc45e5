from __future__ import annotations

import pytest
from django.core.cache import caches


@pytest.fixture(autouse=True)
def fresh_throttles():
    """The forms' throttles count per address in the cache: each test starts from none."""
    for cache in caches.all():
        cache.clear()
    yield
    for cache in caches.all():
        cache.clear()
