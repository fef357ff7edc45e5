from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "server.chat"
    label = "chat"
