from django.urls import path

from server.matches.consumers import MatchConsumer

websocket_urlpatterns = [path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi())]  # type: ignore[arg-type]  # an ASGI app, as Channels routes them; django-stubs expects a view
