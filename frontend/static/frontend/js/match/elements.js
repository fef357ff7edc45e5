// The room's fixed elements, from frontend/templates/frontend/match.html.

export function roomElements() {
  const $ = (id) => document.getElementById(id);
  return {
    room: $("match-room"),
    title: $("match-title"),
    status: $("status"),
    thinking: $("thinking"),
    board: $("board"),
    boardHelp: $("board-help"),
    viewing: $("viewing-note"),
    result: $("result"),
    moveForm: $("move-form"),
    moveInput: $("move-input"),
    error: $("error"),
    seats: $("seats"),
    invite: $("invite"),
    inviteLink: $("invite-link"),
    resign: $("resign-button"),
    rematch: $("rematch-button"),
    newMatch: $("new-match"),
    moveList: $("move-list"),
    botQueued: $("bot-queued"),
    banner: $("reconnect-banner"),
  };
}
