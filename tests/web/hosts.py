"""The host names the web tests' apps serve (Settings.allowed_hosts): Starlette's TestClient
asks for ``testserver``, which no real server answers to (issue 31: DNS rebinding)."""

TEST_HOSTS = ("testserver",)
