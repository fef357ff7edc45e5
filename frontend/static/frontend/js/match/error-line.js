// The message line under the board.

export function createErrorLine(node) {
  let timer = null;

  /** Show `text`; `sticky` stays until the player plays again (a move they must redo). */
  function show(text, { sticky = false } = {}) {
    node.textContent = text;
    window.clearTimeout(timer);
    if (!sticky) timer = window.setTimeout(clear, 8000);
  }

  function clear() {
    node.textContent = "";
  }

  return { show, clear };
}
