"""The `upstream` relation: where the relay pulls messages from."""

import logging
from typing import Optional

import aclclient
import ops

logger = logging.getLogger(__name__)

# Endpoints whose departures make the handler forget the broker. "mirror" is not declared
# by this charm: a loop over a collection may name more than the code ever uses, so it is
# no finding, and "upstream" links.
FORGET_ON = ("upstream", "mirror")

# Options forwarded upstream when they are set; "upstream-zone" is none of this charm's, and
# forwarded() skips what the config lacks, so it is no finding either.
FORWARDED = ["queue-depth", "upstream-zone"]


class UpstreamHandler(ops.Object):
    """Tracks the upstream broker address and the token to talk to it."""

    def __init__(self, charm: ops.CharmBase):
        super().__init__(charm, "upstream")
        self._charm = charm
        charm.framework.observe(charm.on.upstream_relation_changed, self._on_upstream_changed)
        charm.framework.observe(charm.on.upstream_relation_broken, self._on_upstream_broken)
        for endpoint in FORGET_ON:
            charm.framework.observe(charm.on[endpoint].relation_departed, self._on_upstream_departed)

    @property
    def address(self) -> Optional[str]:
        relation = self._charm.model.get_relation("upstream")
        if relation is None or relation.app is None:
            return None
        return relation.data[relation.app].get("address")

    def get_config_value(self, key: str) -> str:
        """An option as a string: the options read through here are read where it is called;
        one call passes a name only known at run time (prefixed)."""
        return str(self._charm.config.get(key) or "")  # want unresolved=config-read

    def batch_size(self) -> int:
        """Messages to ask upstream for at a time; the option's name is misspelt."""
        return int(self.get_config_value("upstream-batch") or 100)  # want check=undeclared-config

    def prefixed(self, name: str) -> str:
        return self.get_config_value(name.lower())

    def token(self) -> Optional[str]:
        uri = self.get_config_value("upstream-token")
        if not uri:
            return None
        secret = self._charm.model.get_secret(id=str(uri))
        return secret.get_content(refresh=True).get("token")

    def may_read(self, user: str) -> bool:
        """Whether upstream's ACL service lets user read; its "relation" is an ACL's, not Juju's."""
        request = aclclient.CheckRequest(user=f"user:{user}", relation="reader", object="topic:events")
        return bool(aclclient.check(request).allowed)

    def compression(self) -> str:
        """Compression to ask upstream for."""
        choice = self._charm.config.get("upstream-compression", "none")  # want check=undeclared-config
        return str(choice).lower()

    def forwarded(self) -> dict:
        """The options forwarded upstream: those that are set."""
        out = {}
        for key in FORWARDED:
            if key in self._charm.config:
                out[key] = self._charm.config[key]
        return out

    def _on_upstream_departed(self, event: ops.RelationDepartedEvent) -> None:
        logger.info("an upstream unit left")

    def _on_upstream_changed(self, event: ops.RelationChangedEvent) -> None:
        if self.address:
            logger.info("upstream broker at %s", self.address)

    def _on_upstream_broken(self, event: ops.RelationBrokenEvent) -> None:
        logger.warning("upstream removed; the relay idles until a new one joins")
