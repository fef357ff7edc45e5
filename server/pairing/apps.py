from django.apps import AppConfig


class PairingConfig(AppConfig):
    name = "server.pairing"
    label = "pairing"
