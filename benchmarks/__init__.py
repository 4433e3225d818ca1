"""The benchmark harness behind `delve bench` (see README.md here)."""
