"""A request-body size limit that holds whatever the framing (Content-Length or chunked)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyLimit:
    """ASGI middleware: 413 for a body over ``max_bytes``.

    A declared ``Content-Length`` over the limit is refused before anything is read; otherwise the
    bytes are counted as they arrive (a chunked upload has no length to check), and reading stops
    with 413 as soon as the count passes the limit, so no more than ``max_bytes`` is ever buffered.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _too_large(self) -> str:
        return f"request body over {self.max_bytes:,} bytes; send less (the limit is RAGAUDIT_MAX_REQUEST_BYTES)"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared length, then count the streamed bytes."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await JSONResponse({"detail": self._too_large()}, status_code=413)(scope, receive, send)
                return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # Raised inside the route's body read: FastAPI passes HTTPException through as 413.
                    raise HTTPException(413, self._too_large())
            return message

        await self.app(scope, counted, send)
