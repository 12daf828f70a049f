// The clickable map of the point picker (components/click_map.py).
//
// A click places the pin here, at once, and reports the clicked point to the app, which
// reruns the picker and fills in the latitude and longitude. The map is drawn by deck.gl from
// the deck JSON pydeck writes; it is built again only when that JSON changes (a new view, a
// new shading), never for a click: a click changes the pin layer and nothing else, so the
// browser draws one new frame for it.
/* global deck */
"use strict";

const PROTOCOL_VERSION = 1;
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
let pinSpec = null; // the pin layer's spec (the app's colours and size), its row moved here
let pinKey = null;
let pinAt = null; // "latitude,longitude" of the pin drawn
let viewKey = null;

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

function pinLayers(latitude, longitude) {
  if (!pinSpec || latitude === null || longitude === null) return [];
  const row = { ...(pinSpec.data && pinSpec.data[0]), latitude, longitude };
  return converter.convert({ layers: [{ ...pinSpec, data: [row] }] }).layers;
}

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
  // the pin moves at once (the app's run that follows sends the same pin back), in a task
  // of its own: the map's frame and the app share the page's thread, and a frame drawn
  // before the app has read the message would hold the point back
  pinAt = `${latitude},${longitude}`;
  setTimeout(() => {
    if (pinAt === `${latitude},${longitude}`) {
      deckgl.setProps({ layers: [...baseLayers, ...pinLayers(latitude, longitude)] });
    }
  }, 0);
}

function render(args) {
  if (typeof deck === "undefined") {
    problem("The map could not load its drawing library.");
    return;
  }
  converter = converter || makeConverter();
  const height = args.height || 460;
  container.style.height = `${height}px`;
  send("streamlit:setFrameHeight", { height });

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
  const newPinAt = row ? `${row.latitude},${row.longitude}` : null;
  // the answer to a click: the pin the click drew already stands there
  if (!specChanged && deckgl && newPinAt === pinAt) return;
  pinAt = newPinAt;
  const layers = [...baseLayers, ...(row ? pinLayers(row.latitude, row.longitude) : [])];

  if (!deckgl) {
    deckgl = new deck.Deck({
      parent: container,
      width: "100%",
      height: "100%",
      initialViewState: props.initialViewState,
      views: props.views,
      layers,
      getCursor: ({ isDragging }) => (isDragging ? "grabbing" : "crosshair"),
    });
    viewKey = JSON.stringify(props.initialViewState);
    return;
  }
  const update = { layers };
  if (props) {
    // a new view (a typed point, a click past the surroundings, "Whole region") jumps
    // there; the same view kept over new shading leaves the user's pan and zoom alone
    const newViewKey = JSON.stringify(props.initialViewState);
    if (newViewKey !== viewKey) {
      update.initialViewState = props.initialViewState;
      viewKey = newViewKey;
    }
  }
  deckgl.setProps(update);
}

window.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || message.type !== "streamlit:render") return;
  try {
    render(message.args || {});
  } catch (error) {
    problem(`The map could not be drawn: ${error.message}`);
    console.error(error);
  }
});

send("streamlit:componentReady", { apiVersion: PROTOCOL_VERSION });
