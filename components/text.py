"""Text from the service, the URL or the user, made safe for Streamlit's markdown.

The one escaper of the app: every ASCII punctuation character is backslash-escaped, so no
link, emphasis, HTML, directive, emoji code or formula can come from the text; and every web
or mail address is shown inside a code span, so none becomes a live link.
"""

from __future__ import annotations

import re
import string

_PUNCTUATION = set(string.punctuation)

# What GitHub-flavoured markdown makes a link of, whatever its escaping (its autolinks are
# found in the text after escapes are resolved): a web or mail address, to the next blank.
_ADDRESS = re.compile(
    r"(?:https?://|www\.|mailto:|xmpp:)\S*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+\S*", re.IGNORECASE
)


def _code_span(text: str) -> str:
    """Return text as an inline code span: shown literally, never a link."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _backslashed(text: str) -> str:
    return "".join("\\" + ch if ch in _PUNCTUATION else ch for ch in text)


def _literal_line(line: str) -> str:
    pieces, start = [], 0
    for address in _ADDRESS.finditer(line):
        pieces.append(_backslashed(line[start : address.start()]))
        pieces.append(_code_span(address.group()))
        start = address.end()
    pieces.append(_backslashed(line[start:]))
    return "".join(pieces)


def escape_markdown(text: str) -> str:
    """Return text that Streamlit's markdown shows literally: punctuation escaped, addresses
    in code spans, lines kept."""
    # Leading blanks would start a code block; a bare newline would be folded away.
    lines = [line.strip() for line in str(text).splitlines()]
    return "  \n".join(_literal_line(line) for line in lines if line)
