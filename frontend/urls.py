from django.urls import path

from frontend import views

app_name = "frontend"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("matches/<int:match_id>/", views.match_room, name="match"),
    path("matches/<int:match_id>/analysis/", views.analysis_page, name="analysis"),
    path("bots/<slug:slug>/", views.bot_page, name="bot"),
    path("leaderboards/", views.leaderboards_page, name="leaderboards"),
]
