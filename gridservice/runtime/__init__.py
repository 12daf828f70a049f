"""The service's HTTP runtime: the connection, per-request middleware, problem details, paging, the page cache, versions and worker processes."""
