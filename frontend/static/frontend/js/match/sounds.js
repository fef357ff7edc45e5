// The room's sounds: a move, a capture, a check or threat, the game's end.  They are made
// with the Web Audio API (no sound files).  The switch is remembered in localStorage; and
// whatever it says, nothing is played (no AudioContext is even made) before the player has
// clicked or pressed a key on the page: browsers refuse sound that starts on its own.
//
// Which sound a move makes is the board module's call: an optional export
// `moveSound(move, state, seat)` answers "capture", "check" (a check, or a threat such as
// three in a row with the fourth cell free) or null for a plain move.  A board without it
// is read by the common notations: "x" (chess) or "*" (a backgammon hit) is a capture,
// a trailing "+" or "#" a check.

const STORAGE_KEY = "plyground.sound";

// Each sound is a few short notes: [start s, frequency Hz, duration s, {type, to (Hz), gain}].
const SOUNDS = {
  move: [[0, 520, 0.07, { type: "triangle", to: 380 }]],
  capture: [[0, 300, 0.12, { type: "square", to: 110, gain: 0.08 }], [0, 900, 0.04, { type: "triangle" }]],
  check: [[0, 660, 0.1, {}], [0.11, 880, 0.16, {}]],
  win: [[0, 523, 0.12, {}], [0.12, 659, 0.12, {}], [0.24, 784, 0.3, {}]],
  loss: [[0, 392, 0.14, {}], [0.14, 330, 0.14, {}], [0.28, 262, 0.34, {}]],
  draw: [[0, 440, 0.14, {}], [0.18, 440, 0.26, {}]],
};

export function createSounds({ store, boardHost }) {
  const button = document.getElementById("sound-switch");
  let wanted = readPreference();
  let interacted = false; // autoplay rules: no sound before the player's first gesture
  let context = null;

  function readPreference() {
    try {
      return window.localStorage.getItem(STORAGE_KEY) !== "off";
    } catch {
      return true; // storage refused (private mode): on for this page
    }
  }

  function remember() {
    try {
      window.localStorage.setItem(STORAGE_KEY, wanted ? "on" : "off");
    } catch {
      // not remembered; the switch still works for this page
    }
  }

  /** The AudioContext, made on a gesture only; null where the browser has none. */
  function audio() {
    if (!interacted || !wanted) return null;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context ||= new Context();
    if (context.state === "suspended") context.resume();
    return context;
  }

  function play(kind) {
    const ctx = audio();
    if (!ctx || !SOUNDS[kind]) return;
    for (const [start, frequency, duration, { type = "sine", to = null, gain = 0.18 }] of SOUNDS[kind]) {
      const t0 = ctx.currentTime + start;
      const oscillator = ctx.createOscillator();
      const envelope = ctx.createGain();
      oscillator.type = type;
      oscillator.frequency.setValueAtTime(frequency, t0);
      if (to) oscillator.frequency.exponentialRampToValueAtTime(to, t0 + duration);
      envelope.gain.setValueAtTime(0.0001, t0);
      envelope.gain.exponentialRampToValueAtTime(gain, t0 + 0.006);
      envelope.gain.exponentialRampToValueAtTime(0.0001, t0 + duration);
      oscillator.connect(envelope).connect(ctx.destination);
      oscillator.start(t0);
      oscillator.stop(t0 + duration + 0.02);
    }
  }

  function moveKind(frame) {
    if (frame.seat < 0) return "move"; // dice
    const judged = boardHost.moveSound(frame.move, frame.state, frame.seat);
    if (judged !== undefined) return judged || "move";
    const text = String(frame.move);
    if (/[+#]$/.test(text)) return "check";
    if (/[x*]/.test(text)) return "capture";
    return "move";
  }

  function endKind() {
    const result = store.match.result || {};
    const you = store.you.seat;
    if (result.winner === null || result.winner === undefined) return "draw";
    if (you === null) return "win"; // a spectator hears that someone won
    return result.winner === you ? "win" : "loss";
  }

  /** After the store took the frame in. */
  function onFrame(frame) {
    if (frame.type === "move" && store.match) play(moveKind(frame));
    else if (frame.type === "game_over" && store.match && store.match.status === "finished") play(endKind());
  }

  function render() {
    button.setAttribute("aria-pressed", String(wanted));
    button.title = wanted
      ? (interacted ? "Sound is on: click to turn it off" : "Sound is on from your first click or key press")
      : "Sound is off: click to turn it on";
  }

  button.addEventListener("click", () => {
    wanted = !wanted;
    remember();
    render();
    if (wanted) play("move"); // this click is a gesture: the player hears what "on" means
  });
  // The first gesture anywhere on the page lets sound play from then on.
  const unlock = () => {
    interacted = true;
    render();
  };
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { capture: true, once: true });

  render();
  return { onFrame, play, render };
}
