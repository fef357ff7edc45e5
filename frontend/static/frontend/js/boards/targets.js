// Keyboard and pointer handling shared by the boards: a grid of targets
// (cells or columns) with one tab stop, arrow keys to move, Enter or Space to
// play, and typing a move (a digit) to play it at once.

export class Targets {
  /**
   * @param {Element} root      element holding the targets (gets the key handler)
   * @param {number} columns    targets per row, for up/down arrows
   * @param {function} onPlay   called with the move of an activated legal target
   */
  constructor(root, columns, onPlay) {
    this.root = root;
    this.columns = columns;
    this.onPlay = onPlay;
    this.nodes = [];
    this.focusIndex = 0;
    root.addEventListener("keydown", (event) => this.keydown(event));
    root.addEventListener("click", (event) => {
      const node = event.target.closest("[data-move]");
      if (!node || !this.root.contains(node)) return;
      if (this.nodes.includes(node)) this.focusIndex = this.nodes.indexOf(node); // the focus comes back here after a redraw
      this.activate(node);
    });
  }

  /** Register the target nodes in move order and give the roving tab stop to one. */
  set(nodes) {
    this.nodes = nodes;
    if (this.focusIndex >= nodes.length) this.focusIndex = 0;
    const legal = nodes.findIndex((n) => n.classList.contains("legal"));
    if (!nodes[this.focusIndex]?.classList.contains("legal") && legal >= 0 && !this.root.contains(document.activeElement)) {
      this.focusIndex = legal;
    }
    nodes.forEach((node, i) => node.setAttribute("tabindex", i === this.focusIndex ? "0" : "-1"));
  }

  activate(node) {
    // Disabled targets are passed on too: the page explains why nothing happens.
    this.onPlay(node.dataset.move);
  }

  moveFocus(index, { preventScroll = false } = {}) {
    if (!this.nodes.length) return;
    this.focusIndex = (index + this.nodes.length) % this.nodes.length;
    this.nodes.forEach((node, i) => node.setAttribute("tabindex", i === this.focusIndex ? "0" : "-1"));
    this.nodes[this.focusIndex].focus({ preventScroll });
  }

  keydown(event) {
    const index = this.nodes.indexOf(event.target.closest("[data-move]"));
    const at = index >= 0 ? index : this.focusIndex;
    switch (event.key) {
      case "ArrowLeft": this.moveFocus(at - 1); break;
      case "ArrowRight": this.moveFocus(at + 1); break;
      case "ArrowUp": this.moveFocus(this.nodes.length > this.columns ? at - this.columns : at - 1); break;
      case "ArrowDown": this.moveFocus(this.nodes.length > this.columns ? at + this.columns : at + 1); break;
      case "Home": this.moveFocus(0); break;
      case "End": this.moveFocus(this.nodes.length - 1); break;
      case "Enter":
      case " ":
        if (this.nodes[at]) this.activate(this.nodes[at]);
        break;
      default: {
        const node = this.nodes.find((n) => n.dataset.move === event.key);
        if (!node || event.ctrlKey || event.metaKey || event.altKey) return;
        this.focusIndex = this.nodes.indexOf(node);
        this.moveFocus(this.focusIndex);
        this.activate(node);
      }
    }
    event.preventDefault();
  }

  /** Give the focus back to the board's tab stop (after a redraw): the page does not scroll. */
  focus() {
    this.moveFocus(this.focusIndex, { preventScroll: true });
  }
}
