// A WebSocket that reconnects with backoff and keeps a match's event version.
//
// Frames that change a match carry `v`, which only grows (docs/design.md §5).  The
// socket remembers the last `v` it handed on, reconnects with `?v=N` so the
// server replays what was missed, drops frames it has already seen, and asks
// for `sync` when it sees a gap.  While the connection is down the page's
// reconnect banner says so, with a countdown and a "Retry now" button.
//
// A frame the server lost leaves no gap until the next frame, so match sockets
// also hear a heartbeat, `{"type": "heartbeat", "v", "interval_ms"}`, every
// few seconds (docs/wire.md): when its `v` is ahead of ours (and stays ahead a
// moment, so a frame still on its way is not mistaken for a lost one) we ask
// for `sync`.  With `watchdog`, a socket that hears nothing at all for about two
// heartbeat intervals is taken for dead and replaced.

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 10000;
const HEARTBEAT_MS = 12000; // until the server's first heartbeat says its interval
const WATCHDOG_BEATS = 2.5; // this many intervals without a frame: the socket is dead
const BEHIND_GRACE_MS = 1500; // a heartbeat ahead of us: wait this long for the frame in flight
const SYNC_TIMEOUT_MS = 5000; // a sync unanswered this long may be asked again

export class LiveSocket {
  /**
   * @param {string} path   e.g. "/ws/matches/12/"
   * @param {object} options
   *   onFrame(frame)        every frame to act on, in order
   *   onOpen({reconnected}), onDown()  connection up (again) / lost
   *   onFatal(event)        the server refused for good (close codes 4400-4499)
   *   versioned             track `v` and replay on reconnect (match sockets)
   *   banner                element shown while disconnected
   *   watchdog              reconnect when the server's heartbeats stop (match sockets)
   */
  constructor(path, { onFrame, onOpen, onDown, onFatal, versioned = false, banner = null, watchdog = false } = {}) {
    this.path = path;
    this.onFrame = onFrame || (() => {});
    this.onOpen = onOpen || (() => {});
    this.onDown = onDown || (() => {});
    this.onFatal = onFatal || (() => {});
    this.versioned = versioned;
    this.banner = banner;
    this.watchdog = watchdog;
    this.heartbeatMs = HEARTBEAT_MS;
    this.watchdogTimer = null;
    this.behindTimer = null;
    this.syncTimer = null;
    this.v = null;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.countdown = null;
    this.closed = false;
    this.syncPending = false;
    this.everOpened = false;
    if (banner) {
      const retry = banner.querySelector(".banner-retry");
      if (retry) retry.addEventListener("click", () => this.reconnectNow());
    }
    window.addEventListener("online", () => this.reconnectNow());
    // Leaving the page closes the socket on purpose: no banner, no reconnect.
    window.addEventListener("pagehide", () => this.close());
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) this.connect(); // back from the back-forward cache
    });
  }

  get connected() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.versioned && this.v !== null ? `?v=${this.v}` : "";
    return `${scheme}//${window.location.host}${this.path}${query}`;
  }

  connect() {
    this.closed = false;
    window.clearTimeout(this.timer);
    this.disarmWatchdog();
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (error) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      const reconnected = this.everOpened;
      this.attempt = 0;
      this.syncPending = false;
      this.everOpened = true;
      this.hideBanner();
      this.armWatchdog();
      this.onOpen({ reconnected });
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      this.armWatchdog();
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(frame);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.disarmWatchdog();
      if (this.closed) return;
      if (event.code >= 4400 && event.code < 4500) {
        this.closed = true;
        this.hideBanner();
        this.onFatal(event);
        return;
      }
      this.onDown();
      this.scheduleReconnect();
    });
  }

  receive(frame) {
    if (frame.type === "heartbeat") {
      this.heard(frame);
      return;
    }
    if (this.versioned) {
      if (frame.type === "state") {
        this.syncPending = false;
        window.clearTimeout(this.syncTimer);
        const v = frame.match && typeof frame.match.v === "number" ? frame.match.v : frame.v;
        // A state older than what this page has applied (a sync's answer that crossed newer
        // frames) would take the board back a move: versions only grow, so it is dropped.
        if (typeof v === "number" && this.v !== null && v < this.v) return;
        if (typeof v === "number") this.v = v;
      } else if (typeof frame.v === "number") {
        if (this.v !== null && frame.v <= this.v) return; // seen already (a replay overlap)
        if (this.v !== null && frame.v > this.v + 1) {
          this.sync(); // missed something: a fresh state frame will bring us level
          return;
        }
        this.v = frame.v;
      }
    }
    this.onFrame(frame);
  }

  /** A heartbeat: the server's latest version, and how often to expect the next. */
  heard(frame) {
    if (typeof frame.interval_ms === "number" && frame.interval_ms > 0 && frame.interval_ms !== this.heartbeatMs) {
      this.heartbeatMs = frame.interval_ms;
      this.armWatchdog();
    }
    if (!this.versioned || typeof frame.v !== "number" || this.v === null || frame.v <= this.v) return;
    const ahead = frame.v;
    window.clearTimeout(this.behindTimer);
    this.behindTimer = window.setTimeout(() => {
      if (this.v !== null && this.v < ahead) this.sync(); // a frame was lost on its way: catch up
    }, BEHIND_GRACE_MS);
  }

  /**
   * Ask the server for a fresh state frame (once until it arrives, or until
   * SYNC_TIMEOUT_MS passed; `force` asks again anyway).
   */
  sync({ force = false } = {}) {
    if (this.syncPending && !force) return;
    if (!this.send({ type: "sync" })) return;
    this.syncPending = true;
    window.clearTimeout(this.syncTimer);
    this.syncTimer = window.setTimeout(() => { this.syncPending = false; }, SYNC_TIMEOUT_MS);
  }

  armWatchdog() {
    if (!this.watchdog) return;
    window.clearTimeout(this.watchdogTimer);
    this.watchdogTimer = window.setTimeout(() => this.drop(), this.heartbeatMs * WATCHDOG_BEATS);
  }

  disarmWatchdog() {
    window.clearTimeout(this.watchdogTimer);
    window.clearTimeout(this.behindTimer);
  }

  /**
   * Give up on the current connection (it has gone quiet, or an answer it owes
   * never came) and connect again, as if it had closed.
   */
  drop() {
    const old = this.ws;
    if (this.closed || !old) return;
    this.ws = null;
    this.disarmWatchdog();
    try {
      old.close(4000, "no frames");
    } catch {
      // closing a socket that is already closing
    }
    this.onDown();
    this.scheduleReconnect();
  }

  /** Send a frame; false when the connection is down (the caller may tell the user). */
  send(frame) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  scheduleReconnect() {
    if (this.closed) return;
    // Full jitter (anywhere from 50 ms to the backoff): when a web process restarts, its
    // sockets come back spread over the whole interval instead of its last half, so a
    // thousand pages do not reconnect in the same quarter of a second (docs/scaling.md).
    const base = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** this.attempt);
    const delay = Math.round(50 + Math.random() * (base - 50));
    this.attempt += 1;
    this.showBanner(delay);
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.closed || this.connected) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.connect();
  }

  showBanner(delay) {
    if (!this.banner) return;
    const text = this.banner.querySelector(".banner-text");
    const until = Date.now() + delay;
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      if (text) text.textContent = left > 0
        ? `Connection lost. Reconnecting in ${left} s…`
        : "Connection lost. Reconnecting…";
    };
    tick();
    window.clearInterval(this.countdown);
    this.countdown = window.setInterval(tick, 500);
    this.banner.hidden = false;
  }

  hideBanner() {
    window.clearInterval(this.countdown);
    if (this.banner) this.banner.hidden = true;
  }

  /**
   * Open a new connection now.  With `fresh` the server is asked for a full
   * state frame instead of a replay (e.g. after taking a seat, so the frame
   * says which seat is ours).
   */
  restart({ fresh = true } = {}) {
    if (fresh) this.v = null;
    const old = this.ws;
    this.ws = null;
    if (old) old.close(1000);
    this.connect();
  }

  /** Stop for good (page leaving). */
  close() {
    this.closed = true;
    window.clearTimeout(this.timer);
    this.disarmWatchdog();
    this.hideBanner();
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
