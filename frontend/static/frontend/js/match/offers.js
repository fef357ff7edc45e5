// Takebacks and draw offers: the "Take back" and "Offer draw" buttons, the offer panel
// with its answers, and what they say to screen readers (the takeback_request,
// draw_offer, accept and decline frames, and the offer and offer_answered frames back).
// Also "Claim draw", for the player to move when the game's state names a draw the rules
// let them claim (`state.claimable_draw`, chess: threefold repetition, the 50-move rule).
// And in games that let a seat resign for less than the match (the catalogue's
// `resignation_levels`, backgammon: a single game, a gammon, a backgammon, times the cube),
// "Resign for points…" opens a choice of the levels (resign_offer); the server says what the
// offer pays (`offer.points`, `offer.says`), shown to both sides.

import { announce, h } from "../dom.js";
import { isBot, playerWords } from "../players.js";
import { capitalise } from "./announcements.js";

const ERROR_TEXT = {
  nothing_to_take_back: "There is no move of yours to take back.",
  offer_not_allowed: "That is not possible in this match.",
  offer_pending: "An offer is already waiting for an answer.",
  no_offer: "There is no offer to answer any more.",
  no_draw_to_claim: "There is no draw to claim in this position.",
};
const OFFER_WORDS = { takeback: "to take back their last move", draw: "a draw" };
const LEVEL_WORDS = { single: "a single game", gammon: "a gammon", backgammon: "a backgammon" };
const OFFLINE = "Not connected; try again once the connection is back.";
const ANSWER_SHOWN_MS = 8000; // how long the answer to our offer stays in the panel

export function createOffers({ store, socket, errors, catalogue, render: renderRoom }) {
  const panel = h("div", { id: "offer-panel", class: "offer-panel", role: "status", "data-testid": "offer-panel", hidden: true });
  const takebackButton = h("button", { type: "button", id: "takeback-button", "data-testid": "takeback-button", hidden: true, onclick: () => send("takeback_request") }, "Take back");
  const drawButton = h("button", { type: "button", id: "draw-button", "data-testid": "draw-button", hidden: true, onclick: () => send("draw_offer") }, "Offer draw");
  const claimButton = h("button", { type: "button", id: "claim-draw-button", "data-testid": "claim-draw-button", hidden: true, onclick: () => send("claim_draw") }, "Claim draw");
  const resignButton = h("button", { type: "button", id: "resign-offer-button", "data-testid": "resign-offer-button", hidden: true, onclick: () => { choosing = !choosing; renderRoom(); } }, "Resign for points…");
  let answer = null; // {text, timer}: another player's answer to our offer, shown for a while
  let choosing = false; // the levels to resign at are shown

  function onFrame(frame) {
    const m = store.match || {};
    switch (frame.type) {
      case "takeback":
        announceTakeback(frame);
        break;
      case "offer":
        m.offer = frame.offer;
        announceOffer(frame.offer);
        break;
      case "offer_answered":
        m.offer = frame.offer ?? null;
        announceAnswer(frame);
        break;
      case "game_over":
        m.offer = null;
        break;
      case "error":
        if (ERROR_TEXT[frame.code]) errors.show(`${ERROR_TEXT[frame.code]} ${frame.message || ""}`.trim());
        break;
      default:
        break;
    }
  }

  function send(type, fields = {}) {
    if (!socket.send({ type, ...fields })) errors.show(OFFLINE);
  }

  function levels(m) {
    const game = catalogue && catalogue.info(m.game);
    return (game && game.resignation_levels) || [];
  }

  function render() {
    if (!store.match) return;
    renderButtons(store.match);
    renderPanel(store.match);
  }

  function others(m) {
    return (m.seats || []).filter((seat) => seat.index !== store.you.seat);
  }

  function renderButtons(m) {
    const seat = store.you.seat;
    const live = m.status === "active" && seat !== null;
    const humansOnly = others(m).every((s) => s.player && !isBot(s.player));
    const anyHuman = others(m).some((s) => s.player && !isBot(s.player));
    const moved = (m.moves || []).some((move) => move.seat === seat);
    takebackButton.hidden = !(live && moved);
    takebackButton.textContent = anyHuman ? "Ask to take back" : "Take back";
    takebackButton.disabled = Boolean(m.offer) || !socket.connected;
    drawButton.hidden = !(live && humansOnly);
    drawButton.disabled = Boolean(m.offer) || !socket.connected;
    const claimable = m.state && typeof m.state.claimable_draw === "string" ? m.state.claimable_draw : "";
    claimButton.hidden = !(live && claimable && m.to_move === seat);
    claimButton.textContent = claimable ? `Claim draw (${claimable})` : "Claim draw";
    claimButton.disabled = !socket.connected;
    const resignable = live && levels(m).length > 0 && !(m.state && m.state.result);
    resignButton.hidden = !resignable;
    resignButton.disabled = Boolean(m.offer) || !socket.connected;
    if (!resignable || m.offer) choosing = false;
    resignButton.setAttribute("aria-expanded", String(choosing));
  }

  function renderChoice(m) {
    // The points each level pays (the cube, the Jacoby rule, a match's score) are the server's to say:
    // the offer carries them once made.
    const cube = m.state && m.state.cube ? m.state.cube.value : null;
    panel.dataset.kind = "resign-choice";
    panel.replaceChildren(
      h("span", {}, `Resign this game${cube ? ` at cube ${cube}` : ""}, if your opponent accepts:`),
      ...levels(m).map((level) =>
        h("button", { type: "button", "data-testid": `resign-${level}`, onclick: () => { choosing = false; send("resign_offer", { level }); } },
          capitalise(LEVEL_WORDS[level] || level))),
      h("button", { type: "button", "data-testid": "resign-cancel", onclick: () => { choosing = false; renderRoom(); } }, "Cancel"),
    );
  }

  function renderPanel(m) {
    const offer = m.status === "active" ? m.offer : null;
    if (!offer && choosing) {
      panel.hidden = false;
      renderChoice(m);
      return;
    }
    panel.hidden = !offer && !answer;
    if (!offer) {
      panel.dataset.kind = answer ? "answer" : "";
      panel.replaceChildren(...(answer ? [h("span", { "data-testid": "offer-answer" }, answer.text)] : []));
      return;
    }
    const seat = store.you.seat;
    panel.dataset.kind = offer.kind;
    if (offer.seat === seat) {
      panel.replaceChildren(
        h("span", { "data-testid": "own-offer" }, ownOfferWords(offer)),
        h("button", { type: "button", "data-testid": "withdraw-button", onclick: () => send("decline") }, "Withdraw"),
      );
      return;
    }
    const mine = seat !== null && (offer.awaiting || []).includes(seat);
    panel.replaceChildren(
      h("span", {}, offerWords(offer)),
      mine ? h("button", { type: "button", class: "primary", "data-testid": "accept-button", onclick: () => send("accept") }, "Accept") : null,
      mine ? h("button", { type: "button", "data-testid": "decline-button", onclick: () => send("decline") }, "Decline") : null,
    );
  }

  function who(seat) {
    return capitalise(playerWords(store.seatPlayer(seat)));
  }

  function offerWords(offer) {
    if (offer.kind === "resign") return `${who(offer.seat)} offers to resign ${resignTerms(offer)}.`;
    return `${who(offer.seat)} ${offer.kind === "draw" ? "offers" : "asks"} ${OFFER_WORDS[offer.kind] || offer.kind}.`;
  }

  function ownOfferWords(offer) {
    if (offer.kind === "resign") return `You offered to resign ${resignTerms(offer)}. Waiting for an answer…`;
    return offer.kind === "draw" ? "You offered a draw. Waiting for an answer…" : "You asked to take back your last move. Waiting for an answer…";
  }

  /** "a gammon: 4 points (2 points x cube 2 = 4)", in the server's words. */
  function resignTerms(offer) {
    const level = LEVEL_WORDS[offer.level] || offer.level;
    const counted = typeof offer.says === "string" && offer.says.includes(": ") ? offer.says.slice(offer.says.indexOf(": ") + 2) : "";
    const points = `${offer.points} point${offer.points === 1 ? "" : "s"}`;
    return counted ? `${level}: ${points} (${counted})` : `${level}: ${points}`;
  }

  function offerName(kind) {
    return { draw: "draw offer", takeback: "takeback", resign: "resignation" }[kind] || kind;
  }

  function announceOffer(offer) {
    if (!offer || offer.seat === store.you.seat) return;
    announce(offerWords(offer));
  }

  function announceAnswer(frame) {
    const you = store.you.seat;
    if (frame.cancelled) {
      if (frame.seat === you && you !== null) {
        const name = { draw: "draw offer", takeback: "takeback request", resign: "resignation offer" }[frame.kind] || "offer";
        showAnswer(`Your ${name} lapsed: ${frame.cancelled}.`);
      }
      return;
    }
    const by = frame.by === you ? "You" : who(frame.by);
    if (frame.by === frame.seat) {
      announce(frame.by === you ? "You withdrew your offer." : `${by} withdrew the offer.`);
      return;
    }
    const words = `${by} ${frame.accepted ? "accepted" : "declined"} the ${offerName(frame.kind)}.`;
    announce(words);
    // Our offer answered by someone else: said on screen too, not only to screen readers.
    if (frame.seat === you && you !== null) showAnswer(words);
  }

  function showAnswer(text) {
    if (answer) window.clearTimeout(answer.timer);
    answer = {
      text,
      timer: window.setTimeout(() => {
        answer = null;
        renderRoom();
      }, ANSWER_SHOWN_MS),
    };
  }

  function announceTakeback(frame) {
    const you = store.you.seat;
    announce(`${frame.seat === you ? "You" : who(frame.seat)} took back a move.${store.match && store.match.to_move === you ? " Your move." : ""}`);
  }

  return { panel, buttons: [takebackButton, drawButton, claimButton, resignButton], onFrame, render };
}
