// Chat in the match room (docs/wire.md, "Chat in the match room").
//
// A socket reads one room: the players' when this page's person is seated, the spectators'
// otherwise; the server says which in the `state` frame's `chat`, with the room's recent
// lines, so a reload keeps them. New lines come as `chat` frames, lines staff hid go with
// `chat_deleted`, and staff muting or unmuting this person comes live as `chat_muted` or
// `chat_unmuted` on every page they have open. The log is a polite live region: screen readers
// read each new line once, without interrupting (while the panel is folded, the page's own
// polite region does).
// Authors are always people: bots never chat.

import { ApiError, api } from "../api.js";
import { announce, h } from "../dom.js";
import { guestBadge, isGuest } from "../players.js";

const NARROW = "(max-width: 860px)"; // one column: the chat sits below the board, folded
const ROOM_NOTES = {
  players: "Only the players read this chat.",
  spectators: "Spectators' room: the players do not see it.",
};

export function createChat({ store, socket }) {
  const $ = (id) => document.getElementById(id);
  const panel = $("chat");
  const toggle = $("chat-toggle");
  const body = $("chat-body");
  const log = $("chat-log");
  const form = $("chat-form");
  const input = $("chat-input");
  const refusedBox = $("chat-refused");
  const asGuest = $("chat-as-guest");
  const errorLine = $("chat-error");
  let chat = null; // {room, messages, refused} as the server last said
  let unread = 0;
  let sent = null; // the text we sent, kept in the input until it comes back or is refused
  let errorTimer = null;
  let focusWhenOpen = false; // after "Chat as a guest": the box, once the server lets us post

  setOpen(!window.matchMedia(NARROW).matches);

  function onFrame(frame) {
    switch (frame.type) {
      case "state":
        if (frame.chat) setChat(frame.chat);
        break;
      case "chat_history":
        setChat(frame.chat);
        break;
      case "chat":
        addMessage(frame.message);
        break;
      case "chat_deleted":
        removeMessage(frame.id);
        break;
      case "chat_muted":
        setMuted({ code: "chat_muted", message: frame.message });
        break;
      case "chat_unmuted":
        setMuted(null);
        break;
      case "error":
        if (String(frame.code).startsWith("chat_")) refused(frame);
        break;
      default:
        break;
    }
  }

  function setChat(next) {
    const firstTime = chat === null;
    chat = { ...next, messages: (next.messages || []).filter(isPerson) };
    const kept = new Map([...log.children].map((li) => [li.dataset.id, li]));
    log.replaceChildren(...chat.messages.map((m) => kept.get(String(m.id)) || line(m)));
    if (firstTime) scrollToEnd();
    render();
    if (focusWhenOpen && !chat.refused) {
      focusWhenOpen = false;
      input.focus();
    }
  }

  function addMessage(message) {
    if (!chat || !isPerson(message) || message.room !== chat.room) return;
    if (chat.messages.some((m) => m.id === message.id)) return;
    chat.messages.push(message);
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    log.append(line(message));
    if (mine(message) && sent !== null && input.value.trim() === sent) {
      input.value = "";
      sent = null;
    }
    if (mine(message) || atEnd) scrollToEnd();
    if (body.hidden && !mine(message)) {
      // A folded log is hidden from screen readers too: the page's polite region says the line.
      unread += 1;
      announce(`Chat: ${message.author.name}${isGuest(message.author) ? " (guest)" : ""} says: ${message.text}`);
    }
    render();
  }

  function removeMessage(id) {
    if (!chat) return;
    chat.messages = chat.messages.filter((m) => m.id !== id);
    log.querySelector(`[data-id="${Number(id)}"]`)?.remove();
    render();
  }

  /** Staff muted this person, or lifted it: told live, the box goes or comes back at once. A room
   *  closed to us for another reason (bots only, no player yet) stays as the server said. */
  function setMuted(refusal) {
    if (!chat || (chat.refused && chat.refused.code !== "chat_muted")) return;
    chat.refused = refusal;
    announce(refusal ? sentence(refusal.message) : "You may chat again.");
    render();
  }

  /** One line of the log: "Alice: good luck", the author's seat colour in the players' room. */
  function line(message) {
    const li = document.createElement("li");
    li.className = "chat-line";
    if (message.seat !== null && message.seat !== undefined) li.classList.add(`seat-${message.seat}`);
    if (mine(message)) li.classList.add("mine");
    li.dataset.id = String(message.id);
    const author = document.createElement("span");
    author.className = "chat-author";
    author.textContent = mine(message) ? "You" : message.author.name;
    if (!mine(message) && isGuest(message.author)) author.append(" ", guestBadge());
    author.append(":");
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = message.text; // text, never HTML
    const at = new Date(message.at);
    if (!Number.isNaN(at.getTime())) li.title = at.toLocaleTimeString();
    li.append(author, " ", text);
    return li;
  }

  /** A bot never appears as an author, whatever a frame says. */
  function isPerson(message) {
    return Boolean(message && message.author && message.author.is_ai === false);
  }

  function mine(message) {
    return Boolean(store.player && String(message.author.id) === String(store.player.id));
  }

  function render() {
    // Against bots alone there is nobody to talk to: no panel at all.
    panel.hidden = !chat || (chat.refused && chat.refused.code === "chat_closed");
    if (panel.hidden) return;
    $("chat-title").textContent = chat.room === "players" ? "Chat" : "Spectators' chat";
    $("chat-room-note").textContent = ROOM_NOTES[chat.room] || "";
    $("chat-empty").hidden = chat.messages.length > 0;
    const blocked = chat.refused;
    form.hidden = Boolean(blocked);
    refusedBox.hidden = !blocked;
    $("chat-refused-text").textContent = blocked ? sentence(blocked.message) : "";
    asGuest.hidden = !(blocked && blocked.code === "chat_no_player");
    const badge = $("chat-unread");
    badge.hidden = unread === 0;
    badge.textContent = unread ? `${unread} new` : "";
  }

  function setOpen(open) {
    toggle.setAttribute("aria-expanded", String(open));
    body.hidden = !open;
    if (open) {
      unread = 0;
      scrollToEnd();
    }
    if (chat) render();
  }

  function scrollToEnd() {
    log.scrollTop = log.scrollHeight;
  }

  function showError(text) {
    errorLine.textContent = sentence(text);
    window.clearTimeout(errorTimer);
    errorTimer = window.setTimeout(() => { errorLine.textContent = ""; }, 8000);
  }

  /** The server refused our message: say why; the text stays in the input to send again. */
  function refused(frame) {
    sent = null;
    showError(frame.message || "Your message was not sent.");
    if (["chat_muted", "chat_no_player", "chat_closed"].includes(frame.code) && chat) {
      chat.refused = { code: frame.code, message: frame.message };
      render();
    }
  }

  toggle.addEventListener("click", () => setOpen(body.hidden));

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (!socket.send({ type: "chat", text })) {
      showError("Not connected: your message was not sent. It is still in the box.");
      return;
    }
    sent = text;
    errorLine.textContent = "";
  });

  // A visitor has no player yet: one is made for this browser, and the socket opens again as it.
  asGuest.addEventListener("click", async () => {
    asGuest.disabled = true;
    try {
      const me = await api("/api/pairing/ready/", { method: "POST", body: {} });
      store.player = { id: String(me.id), name: me.name, is_guest: me.is_guest };
      const who = document.getElementById("player-name"); // the header names the new guest, as seats.js does
      if (who) who.replaceChildren(me.name, " ", ...(me.is_guest ? [h("span", { class: "tag" }, "guest")] : []));
      focusWhenOpen = true;
      socket.restart();
    } catch (error) {
      showError(error instanceof ApiError ? error.message : "Could not join the chat.");
    } finally {
      asGuest.disabled = false;
    }
  });

  return { onFrame, render };
}

/** The server's words ("you are muted ...") as a sentence on the page. */
function sentence(text) {
  const words = String(text || "").trim();
  if (!words) return "";
  return words[0].toUpperCase() + words.slice(1) + (/[.!?]$/.test(words) ? "" : ".");
}
