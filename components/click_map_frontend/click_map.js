// The clickable map of the point picker (components/click_map.py).
//
// A click places the pin here, at once, and reports the clicked point to the app, which
// reruns the picker and fills in the latitude and longitude. The map is drawn by deck.gl from
// the deck JSON pydeck writes; it is built again only when that JSON changes (a new view, a
// new shading), never for a click. The pin is an element over the map, drawn as the app's
// pin layer would be (its colours and sizes), moved with the view after each frame of the
// map: a click moves it without a new WebGL frame, which costs a software-rendering browser
// a quarter of a CPU-second.
/* global deck */
"use strict";

const PROTOCOL_VERSION = 1;
// deck.gl, as pydeck ships it: served by the app from the installed pydeck package
// (components/click_map.py declares it as the "deck_bundle" component). Loaded after this
// script has told Streamlit it is ready, so the map's place says "Loading the map…" while a
// first visit fetches its 4 MB, instead of staying blank.
const DECK_BUNDLE = "../components.click_map.deck_bundle/index.js";
const session = Math.random().toString(36).slice(2);
let clicks = 0;

function send(type, data) {
  window.parent.postMessage({ isStreamlitMessage: true, type, ...data }, "*");
}

const container = document.getElementById("map");
let converter = null;
let deckgl = null;
let deckJson = null; // the JSON of what is drawn, but for the pin
let baseLayers = [];
let pinSpec = null; // the pin layer's spec (the app's colours and size)
let pinKey = null;
let pin = null; // {latitude, longitude} of the pin shown
let viewKey = null;

const pinElement = document.createElement("div");
pinElement.id = "pin";
pinElement.hidden = true;

function problem(message) {
  const box = document.createElement("div");
  box.id = "problem";
  box.textContent = message;
  container.replaceChildren(box);
}

function makeConverter() {
  const classes = {};
  for (const name of Object.keys(deck)) {
    if (name[0] === name[0].toUpperCase() && name[0] !== "_") classes[name] = deck[name];
  }
  return new deck.JSONConverter({
    configuration: { classes, enumerations: { COORDINATE_SYSTEM: deck.COORDINATE_SYSTEM } },
  });
}

function rgba(colour, fallback) {
  if (!Array.isArray(colour)) return fallback;
  const [r, g, b, a = 255] = colour;
  return `rgba(${r}, ${g}, ${b}, ${a / 255})`;
}

// Place the pin element where the pin stands in the map's current view, sized as deck.gl
// sizes a scatterplot point: its radius in metres, in pixels between the layer's bounds.
function showPin() {
  const viewport = deckgl && deckgl.getViewports()[0];
  if (!pin || !pinSpec || !viewport) {
    pinElement.hidden = true;
    return;
  }
  const [x, y] = viewport.project([pin.longitude, pin.latitude]);
  const metres = typeof pinSpec.getRadius === "number" ? pinSpec.getRadius : 0;
  const perPixel = viewport.metersPerPixel || Infinity;
  const radius = Math.min(
    pinSpec.radiusMaxPixels || Infinity,
    Math.max(pinSpec.radiusMinPixels || 0, metres / perPixel),
  );
  const line = pinSpec.stroked ? pinSpec.lineWidthMinPixels || 1 : 0;
  const style = pinElement.style;
  style.width = style.height = `${2 * radius}px`;
  style.marginLeft = style.marginTop = `${-radius - line / 2}px`;
  style.background = rgba(pinSpec.getFillColor, "rgb(214, 39, 40)");
  style.border = line ? `${line}px solid ${rgba(pinSpec.getLineColor, "white")}` : "none";
  style.transform = `translate(${x}px, ${y}px)`;
  pinElement.dataset.at = `${pin.latitude},${pin.longitude}`;
  pinElement.hidden = false;
}

// deck.gl asks for an animation frame 60 times a second for as long as the map is open, even
// when nothing on it changes: a browser drawing in software spends 0.15 to 0.45 of a
// core on those frames while the map sits still (docs/BENCHMARKS.md). Once the map has had
// nothing to draw, load or move for IDLE_FRAMES frames, its next frame is held back until
// something can change it: a pointer, wheel or key on the map, a new render from the app,
// a resize. Held, deck.gl draws nothing and shows its last frame. The map's element says
// which it is in `data-frames` ("running" or "held"), and counts the frames it drew in
// `data-drawn`.
const IDLE_FRAMES = 30;
const nativeFrame = window.requestAnimationFrame.bind(window);
const nativeCancel = window.cancelAnimationFrame.bind(window);
let idleFrames = 0;
// frames held back: id -> callback (negative ids, never the browser's own)
const held = new Map();
let lastHeld = 0;

function mapBusy() {
  if (!deckgl || !deckgl.isInitialized) return true;
  if (deckgl.needsRedraw({ clearRedrawFlags: false })) return true;
  return (deckgl.props.layers || []).some((layer) => layer && !layer.isLoaded);
}

function sayFrames(state) {
  if (container.dataset.frames !== state) container.dataset.frames = state;
}

window.requestAnimationFrame = (callback) => {
  idleFrames = mapBusy() ? 0 : idleFrames + 1;
  if (idleFrames <= IDLE_FRAMES) return nativeFrame(callback);
  lastHeld -= 1;
  held.set(lastHeld, callback);
  sayFrames("held");
  return lastHeld;
};
window.cancelAnimationFrame = (id) => {
  if (id < 0) held.delete(id);
  else nativeCancel(id);
};

function wake() {
  idleFrames = 0;
  sayFrames("running");
  const callbacks = [...held.values()];
  held.clear();
  for (const callback of callbacks) nativeFrame(callback);
}
for (const name of ["pointerdown", "pointermove", "pointerup", "wheel", "keydown", "touchstart"]) {
  container.addEventListener(name, wake, { capture: true, passive: true });
}
window.addEventListener("resize", wake);

function round5(value) {
  return Math.round(value * 1e5) / 1e5;
}

// A click is read from the page's own events, not deck.gl's: deck.gl holds every click
// 300 ms to tell it from a double click. A press that moved the map is a drag, not a click.
const DRAG_PX = 4;
let pressedAt = null;
container.addEventListener("pointerdown", (event) => {
  pressedAt = [event.clientX, event.clientY];
});
container.addEventListener("click", (event) => {
  if (!deckgl || !pressedAt) return;
  const moved = Math.hypot(event.clientX - pressedAt[0], event.clientY - pressedAt[1]);
  pressedAt = null;
  if (moved > DRAG_PX) return;
  const bounds = container.getBoundingClientRect();
  const viewport = deckgl.getViewports()[0];
  if (!viewport) return;
  const [longitude, latitude] = viewport.unproject([
    event.clientX - bounds.left,
    event.clientY - bounds.top,
  ]);
  placePin(round5(latitude), round5(longitude));
});

function placePin(latitude, longitude) {
  clicks += 1;
  send("streamlit:setComponentValue", {
    value: { latitude, longitude, click: `${session}:${clicks}` },
    dataType: "json",
  });
  // the pin moves at once; the app's run that follows sends the same pin back
  pin = { latitude, longitude };
  showPin();
}

// deck.gl's loading: "loading", then "loaded" or "failed"; the last render's arguments wait
// for it
let deckState = "loading";
let waiting = null;

function loadDeck() {
  const script = document.createElement("script");
  script.src = DECK_BUNDLE;
  const settle = (state) => {
    deckState = state;
    if (waiting) drawSafely(waiting);
  };
  script.onload = () => settle(typeof deck === "undefined" ? "failed" : "loaded");
  script.onerror = () => settle("failed");
  document.head.appendChild(script);
}

function render(args) {
  const height = args.height || 460;
  container.style.height = `${height}px`;
  send("streamlit:setFrameHeight", { height });
  if (deckState === "loading") {
    waiting = args;
    if (!document.getElementById("loading")) {
      const note = document.createElement("div");
      note.id = "loading";
      note.setAttribute("role", "status");
      note.textContent = "Loading the map…";
      container.replaceChildren(note);
    }
    return;
  }
  draw(args);
}

function draw(args) {
  waiting = null;
  if (deckState === "failed") {
    problem("The map could not load its drawing library.");
    return;
  }
  converter = converter || makeConverter();

  const spec = args.deck;
  const specChanged = spec !== deckJson;
  const newPinKey = JSON.stringify(args.pin || null);
  if (!specChanged && newPinKey === pinKey) return;

  let props = null;
  if (specChanged) {
    props = converter.convert(JSON.parse(spec));
    baseLayers = (props.layers || []).filter((layer) => layer);
    deckJson = spec;
  }
  pinSpec = args.pin || null;
  pinKey = newPinKey;
  const row = pinSpec && pinSpec.data && pinSpec.data[0];
  pin = row ? { latitude: row.latitude, longitude: row.longitude } : null;

  if (!deckgl) {
    deckgl = new deck.Deck({
      parent: container,
      width: "100%",
      height: "100%",
      initialViewState: props.initialViewState,
      views: props.views,
      layers: baseLayers,
      getCursor: ({ isDragging }) => (isDragging ? "grabbing" : "crosshair"),
      // the pin follows the view: placed again after every frame of the map (the first
      // frame also ends "Loading the map…")
      onAfterRender: () => {
        container.dataset.drawn = Number(container.dataset.drawn || 0) + 1;
        document.getElementById("loading")?.remove();
        showPin();
      },
    });
    container.appendChild(pinElement);
    viewKey = JSON.stringify(props.initialViewState);
    return;
  }
  if (props) {
    const update = { layers: baseLayers };
    // a new view (a typed point, a click past the surroundings, "Whole region") jumps
    // there; the same view kept over new shading leaves the user's pan and zoom alone
    const newViewKey = JSON.stringify(props.initialViewState);
    if (newViewKey !== viewKey) {
      update.initialViewState = props.initialViewState;
      viewKey = newViewKey;
    }
    deckgl.setProps(update);
  }
  showPin();
}

function drawSafely(args, step = draw) {
  wake();
  try {
    step(args);
  } catch (error) {
    problem(`The map could not be drawn: ${error.message}`);
    console.error(error);
  }
}

window.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || message.type !== "streamlit:render") return;
  drawSafely(message.args || {}, render);
});

send("streamlit:componentReady", { apiVersion: PROTOCOL_VERSION });
loadDeck();
