"""The chaos test: servers killed at random while pages and bots play (issue 14).

``python -m tests.chaos --kills 100`` (``make chaos``) is the long run; tests/chaos/test_chaos.py
runs a short one inside ``make test``.
"""
