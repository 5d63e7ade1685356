"""Live pages pushed as they change: a small bus that says "table 12 changed" across worker
processes and servers (``bus``), and the server-sent event streams built on it (``streams``)."""
