from typing import Any

from django.core.management.base import BaseCommand

from server.bots.models import BotProfile
from server.bots.seed import seed_profiles


class Command(BaseCommand):
    help = "Create or update the seeded bot profiles."

    def handle(self, *args: Any, **options: Any) -> None:
        count = seed_profiles(BotProfile)
        self.stdout.write(f"{count} bot profiles seeded")
