"""Text from the service, the URL or the user, made safe for Streamlit's markdown.

The one escaper of the app: every ASCII punctuation character is backslash-escaped, so no
link, emphasis, HTML, directive, emoji code or formula can come from the text.
"""

from __future__ import annotations

import string

_PUNCTUATION = set(string.punctuation)


def escape_markdown(text: str) -> str:
    """Return text that Streamlit's markdown shows literally: punctuation escaped, lines kept."""
    escaped = "".join("\\" + ch if ch in _PUNCTUATION else ch for ch in str(text))
    # Leading blanks would start a code block; a bare newline would be folded away.
    lines = [line.strip() for line in escaped.splitlines()]
    return "  \n".join(line for line in lines if line)
