from django.conf import settings
from django.contrib import admin
from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView

from server.agents.api import (
    BotAccountListView,
    BotConsentView,
    BotTokenDetailView,
    BotTokenListView,
    ChallengeCreateView,
    ChallengeDetailView,
    HouseGameView,
    MeasurementDetailView,
    MeasurementExportView,
    MeasurementListView,
)
from server.analysis.api import AnalysisView, HintView
from server.bots.api import AlgorithmListView, BotDetailView, BotListView
from server.http.converters import IdConverter
from server.matches.api import (
    GameListView,
    MatchClaimDrawView,
    MatchDetailView,
    MatchJoinView,
    MatchListView,
    MatchPgnView,
    MatchPositionsView,
    MatchRecordView,
    MatchResignOfferView,
    MatchResignView,
    MatchResumeView,
)
from server.pairing.api import PairingReadyView
from server.players.api import ConsentView, GuestView, MeView
from server.players.profiles_api import HistoryView, ProfileView
from server.players.tokens_api import TokenDetailView, TokenListView, TokenRotateView
from server.ratings.api import LeaderboardView, MatchRatingsView, PlayerRatingsView
from server.research.api import ExportEstimateView, GamesExportView, MovesExportView
from server.tournaments.api import (
    TournamentDetailView,
    TournamentJoinView,
    TournamentListView,
    TournamentWithdrawView,
)

# Ids in paths fit a BigAutoField: a larger number is a 404, never an overflow in the database.
register_converter(IdConverter, "id")
handler404 = "server.http.http_errors.not_found"  # JSON under /api/, as the views' own 404s

api = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("players/guest/", GuestView.as_view(), name="player-guest"),
    path("players/me/", MeView.as_view(), name="player-me"),
    path("players/me/consent/", ConsentView.as_view(), name="player-consent"),
    path("pairing/ready/", PairingReadyView.as_view(), name="pairing-ready"),
    path("agents/", BotAccountListView.as_view(), name="agents"),
    path("agents/games/", HouseGameView.as_view(), name="agent-games"),
    path("agents/challenges/<id:challenge_id>/", ChallengeDetailView.as_view(), name="agent-challenge"),
    path("agents/<str:name>/tokens/", BotTokenListView.as_view(), name="agent-tokens"),
    path("agents/<str:name>/tokens/<id:token_id>/", BotTokenDetailView.as_view(), name="agent-token"),
    path("agents/<str:name>/challenges/", ChallengeCreateView.as_view(), name="agent-challenges"),
    path("agents/measurements/<id:measurement_id>/", MeasurementDetailView.as_view(), name="agent-measurement"),
    path(
        "agents/measurements/<id:measurement_id>/export/<str:fmt>/",
        MeasurementExportView.as_view(),
        name="agent-measurement-export",
    ),
    path("agents/<str:name>/consent/", BotConsentView.as_view(), name="agent-consent"),
    path("agents/<str:name>/measurements/", MeasurementListView.as_view(), name="agent-measurements"),
    path("players/me/tokens/", TokenListView.as_view(), name="player-tokens"),
    path("players/me/tokens/<id:token_id>/", TokenDetailView.as_view(), name="player-token"),
    path("players/me/tokens/<id:token_id>/rotate/", TokenRotateView.as_view(), name="player-token-rotate"),
    path("players/<str:name>/ratings/", PlayerRatingsView.as_view(), name="player-ratings"),
    path("leaderboards/<slug:game>/", LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:name>/", ProfileView.as_view(), name="player-profile"),
    path("players/<str:name>/matches/", HistoryView.as_view(), name="player-history"),
    path("games/", GameListView.as_view(), name="games"),
    path("algorithms/", AlgorithmListView.as_view(), name="algorithms"),
    path("bots/", BotListView.as_view(), name="bots"),
    path("bots/<slug:slug>/", BotDetailView.as_view(), name="bot-detail"),
    path("matches/", MatchListView.as_view(), name="matches"),
    path("matches/<id:match_id>/", MatchDetailView.as_view(), name="match-detail"),
    path("matches/<id:match_id>/join/", MatchJoinView.as_view(), name="match-join"),
    path("matches/<id:match_id>/positions/", MatchPositionsView.as_view(), name="match-positions"),
    path("matches/<id:match_id>/resign/", MatchResignView.as_view(), name="match-resign"),
    path("matches/<id:match_id>/resign-offer/", MatchResignOfferView.as_view(), name="match-resign-offer"),
    path("matches/<id:match_id>/claim-draw/", MatchClaimDrawView.as_view(), name="match-claim-draw"),
    path("matches/<id:match_id>/ratings/", MatchRatingsView.as_view(), name="match-ratings"),
    path("matches/<id:match_id>/pgn/", MatchPgnView.as_view(), name="match-pgn"),
    path("matches/<id:match_id>/record/", MatchRecordView.as_view(), name="match-record"),
    path("matches/<id:match_id>/resume/", MatchResumeView.as_view(), name="match-resume"),
    path("matches/<id:match_id>/analysis/", AnalysisView.as_view(), name="match-analysis"),
    path("matches/<id:match_id>/hint/", HintView.as_view(), name="match-hint"),
    path("exports/games.jsonl", GamesExportView.as_view(), name="export-games"),
    path("exports/moves.csv", MovesExportView.as_view(), name="export-moves"),
    path("exports/estimate/", ExportEstimateView.as_view(), name="export-estimate"),
    path("tournaments/", TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<id:tournament_id>/", TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<id:tournament_id>/join/", TournamentJoinView.as_view(), name="tournament-join"),
    path("tournaments/<id:tournament_id>/withdraw/", TournamentWithdrawView.as_view(), name="tournament-withdraw"),
]

urlpatterns = [
    path(settings.ADMIN_PATH, admin.site.urls),
    path("api/", include(api)),
    path("", include("frontend.urls")),
]
