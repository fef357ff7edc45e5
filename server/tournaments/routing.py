from django.urls import path

from server.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi())]  # type: ignore[arg-type]  # an ASGI app, as Channels routes them; django-stubs expects a view
