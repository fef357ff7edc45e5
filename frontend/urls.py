from django.urls import path

from frontend import views

app_name = "frontend"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("matches/<int:match_id>/", views.match_room, name="match"),
    path("bots/<slug:slug>/", views.bot_page, name="bot"),
]
