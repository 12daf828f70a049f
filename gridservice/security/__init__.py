"""Who a request speaks for: bearer tokens, principals, rate limits and the token cache."""
