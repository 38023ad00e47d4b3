"""Which callback URLs the service may POST to (no SSRF): http(s) only, no credentials, public hosts.

A caller chooses ``callback_url``; without checks the server would POST wherever it is told: its own
admin API on loopback, cloud metadata at 169.254.169.254, internal services. So a URL must be
``http``/``https`` with a host and no ``user:password@``, and every address its host resolves to
must be public, unless the operator allows it in ``RAGAUDIT_CALLBACK_ALLOW``: a comma-separated list
of host names (``hooks.internal``) and IP networks (``10.0.0.0/8``, ``127.0.0.1``). The check runs
when the job is submitted (a clear 422) and again just before the POST (DNS may have changed).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], Sequence[str]]

MAX_URL_CHARS = 2_000


class CallbackURLError(ValueError):
    """A callback URL the service will not call; the message says why and what to do."""


@dataclass(frozen=True)
class CallbackPolicy:
    """Hosts and networks allowed beyond the public internet (from ``RAGAUDIT_CALLBACK_ALLOW``)."""

    hosts: frozenset[str] = frozenset()
    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(cls, setting: str | None) -> CallbackPolicy:
        """Read ``"hooks.internal, 10.0.0.0/8, 127.0.0.1"``; a bad network is a clear error."""
        hosts: set[str] = set()
        networks: list[IPNetwork] = []
        for raw in (setting or "").split(","):
            entry = raw.strip().lower()
            if not entry:
                continue
            if entry[0].isdigit() or ":" in entry:
                try:
                    networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
                except ValueError:
                    raise CallbackURLError(
                        f"RAGAUDIT_CALLBACK_ALLOW entry {raw.strip()!r} is not an IP address or network (e.g. 10.0.0.0/8)"
                    ) from None
            else:
                hosts.add(entry.rstrip("."))
        return cls(frozenset(hosts), tuple(networks))

    def allows(self, address: IPAddress) -> bool:
        """Whether ``address`` is public or inside an allowed network."""
        if any(address in net for net in self.networks if net.version == address.version):
            return True
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            return self.allows(address.ipv4_mapped)
        return address.is_global and not address.is_multicast


def _resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def check_callback_url(url: str, policy: CallbackPolicy, *, resolve: Resolver | None = _resolve) -> httpx.URL:
    """The parsed URL when the service may POST to it, else :class:`CallbackURLError`.

    ``resolve=None`` checks only what the URL itself says (scheme, credentials, a literal address).
    """
    if len(url) > MAX_URL_CHARS:
        raise CallbackURLError(f"callback_url has {len(url):,} characters, over the limit of {MAX_URL_CHARS:,}")
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise CallbackURLError(f"callback_url {url[:200]!r} is not a valid URL ({exc})") from None
    if parsed.scheme not in ("http", "https"):
        raise CallbackURLError(f"callback_url must be http or https, not {parsed.scheme or 'no scheme'!r}")
    if parsed.userinfo:
        raise CallbackURLError("callback_url must not carry credentials (user:password@); use a token in the path")
    host = parsed.host.lower().rstrip(".")
    if not host:
        raise CallbackURLError(f"callback_url {url[:200]!r} has no host")
    if host in policy.hosts:
        return parsed
    try:
        literal: IPAddress | None = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    elif resolve is None:
        return parsed
    else:
        try:
            addresses = [ipaddress.ip_address(a.split("%")[0]) for a in resolve(host, parsed.port or 443)]
        except (OSError, UnicodeError, ValueError):
            raise CallbackURLError(f"callback_url host {host!r} does not resolve") from None
    refused = [str(a) for a in addresses if not policy.allows(a)]
    if refused:
        raise CallbackURLError(
            f"callback_url host {host!r} is a private, loopback or reserved address ({', '.join(refused[:3])}); "
            "the operator can allow it with RAGAUDIT_CALLBACK_ALLOW"
        )
    return parsed
