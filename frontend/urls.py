from django.urls import path

from frontend import account_views, research_views, views

app_name = "frontend"

# Accounts and profiles (frontend/account_views.py).
account_views_urls = [
    path("signup/", account_views.signup, name="signup"),
    path("login/", account_views.LoginView.as_view(), name="login"),
    path("logout/", account_views.LogoutView.as_view(), name="logout"),
    path("account/", account_views.account, name="account"),
    path("account/password/", account_views.password_change, name="password_change"),
    path("account/email/<str:token>/", account_views.email_confirm, name="email_confirm"),
    path("account/research/", research_views.research, name="research"),
    path("account/password/done/", account_views.password_change_done, name="password_change_done"),
    path("password-reset/", account_views.password_reset, name="password_reset"),
    path("password-reset/sent/", account_views.password_reset_done, name="password_reset_done"),
    path("password-reset/<uidb64>/<token>/", account_views.password_reset_confirm, name="password_reset_confirm"),
    path("password-reset/done/", account_views.password_reset_complete, name="password_reset_complete"),
    path("players/<str:name>/", account_views.profile, name="profile"),
]

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("matches/<int:match_id>/", views.match_room, name="match"),
    path("matches/<int:match_id>/analysis/", views.analysis_page, name="analysis"),
    path("bots/<slug:slug>/", views.bot_page, name="bot"),
    path("leaderboards/", views.leaderboards_page, name="leaderboards"),
    path("tournaments/", views.tournaments_page, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    *account_views_urls,
]
