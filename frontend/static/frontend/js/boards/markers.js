/**
 * Move markers a page draws over a board (the analysis page's best move, from the board
 * module's `moveMarker`), kept when the board redraws itself.
 */

/**
 * Replaces the children of a board's `svg` with `children`.  While the same view is shown
 * (`sameView`), the markers a page appended stay: each is drawn again by `remake(move)` for
 * the layout just set (the board turned upright or flipped), with the page's classes.
 */
export function replaceKeepingMarkers(svg, sameView, children, remake) {
  const kept = sameView ? [...svg.querySelectorAll(":scope > .move-marker")] : [];
  svg.replaceChildren(...children);
  for (const old of kept) {
    const again = remake(old.dataset.move);
    if (!again) continue;
    again.setAttribute("class", old.getAttribute("class"));
    svg.append(again);
  }
}
