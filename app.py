"""The Grid Site Screener, served: `streamlit run app.py` serves the app's script
(`screener.py`: page config, navigation, the data-source sidebar) through `st.App`, whose
middleware lets a link to one of its pages connect without a first try at the wrong address
(`components.server.page_links`) and a browser keep a component's scripts between tabs
(`components.server.component_files`).

Where the app embeds the demo service and its database is not built yet (a first start), the
build starts here, as the server starts, in a process of its own: it runs on another core
while the first page's code loads (`components.connection.start_demo_build`). The embedded
service starts here too, in a thread, while the browser loads the page
(`components.connection.start_service_early`)."""

from __future__ import annotations

import streamlit as st
from starlette.middleware import Middleware

from components import connection
from components.server.component_files import ComponentFilesRevalidated
from components.server.map_rows import RowsServed
from components.server.page_links import AppRootInPages

app = st.App(
    "screener.py",
    middleware=[
        Middleware(RowsServed),
        Middleware(AppRootInPages),
        Middleware(ComponentFilesRevalidated),
    ],
)
connection.start_demo_build()
connection.start_service_early()
