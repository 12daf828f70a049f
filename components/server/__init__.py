"""The app's server-side pieces: ASGI middlewares around Streamlit's own server (component
files revalidated, map rows served by address, page links at the app's root)."""
