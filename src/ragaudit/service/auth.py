"""API keys: the bearer-token check with roles, and the first admin key."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable

from fastapi import HTTPException, Request

from ragaudit._vocab import Role
from ragaudit.service._observe import event
from ragaudit.service.settings import ServiceSettings
from ragaudit.service.store import Store
from ragaudit.service.worker import Service


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def require(*roles: Role) -> Callable[[Request], Awaitable[tuple[str, Role]]]:
    """Dependency: a valid key whose role is one of ``roles`` (admin always passes)."""

    async def check(request: Request) -> tuple[str, Role]:
        service: Service = request.app.state.service
        key = _bearer(request)
        found = await asyncio.to_thread(service.store.lookup_key, key) if key else None
        if found is None:
            raise HTTPException(
                401,
                "missing or invalid API key: send Authorization: Bearer <key>",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if found[1] != "admin" and found[1] not in roles:
            raise HTTPException(403, f"role {found[1]!r} may not do this; needs one of {', '.join(roles)}")
        return found

    return check


def ensure_admin(store: Store, settings: ServiceSettings) -> None:
    """Make sure an admin key exists: ``RAGAUDIT_ADMIN_KEY`` (a changed value revokes the old key), else a new one."""
    if settings.admin_key:
        if store.lookup_key(settings.admin_key) is not None:
            return
        # A new value: the key named "admin" (the old value, or a generated one) stops working now.
        revoked = store.revoke_key("admin")
        store.create_key("admin", "admin", settings.admin_key)
        event("admin key taken from RAGAUDIT_ADMIN_KEY", replaced_previous=revoked)
        return
    if store.has_admin():
        return
    key = store.create_key("admin", "admin")
    # Shown once, on first start, to whoever started the server; stored only hashed.
    print(f"ragaudit: created the first admin API key (shown once, store it now): {key}", file=sys.stderr, flush=True)
