"""The web app: FastAPI with WebSockets, tables stored as set-up plus actions."""
