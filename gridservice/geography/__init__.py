"""Where a point is: Census county and state outlines, ISO market boundaries and the polygon index."""
