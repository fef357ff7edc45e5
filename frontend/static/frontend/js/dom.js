// Small DOM helpers shared by the pages.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Make an HTML element: h("button", {class: "x", onclick: fn}, "Label"). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** The children worth inserting: `node.replaceChildren(...present(a, maybe && b))`. */
export function present(...items) {
  return items.flat().filter((item) => item !== null && item !== undefined && item !== false);
}

/** Make an SVG element, same signature as `h`. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Read the JSON blob the page view rendered with `json_script`. */
export function pageData() {
  const node = document.getElementById("page-data");
  return node ? JSON.parse(node.textContent) : {};
}

/** Say something to screen-reader users through the page's live region. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  // A fresh text node after a tick makes screen readers read repeated text too.
  window.setTimeout(() => { region.textContent = text; }, 30);
}

/** "3 min", "2 h", "just now": how long ago an ISO timestamp was. */
export function since(iso, now = Date.now()) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}
