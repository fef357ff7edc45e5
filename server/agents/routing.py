from django.urls import path

from server.agents.consumers import AgentEventsConsumer

websocket_urlpatterns = [path("ws/agents/", AgentEventsConsumer.as_asgi())]  # type: ignore[arg-type]  # an ASGI app, as Channels routes them; django-stubs expects a view
