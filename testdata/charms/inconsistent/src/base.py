"""Behaviour common to the relay charm flavours: status helpers and shutdown."""

import logging
from typing import Optional

import ops

logger = logging.getLogger(__name__)

SERVICE = "relayd"


class RelayBase(ops.CharmBase):
    """Base class of the relay charm: handlers every flavour shares.

    Subclasses observe `stop` with `self._on_stop`; the method lives here, so an
    observe call in the subclass resolves through the base class.
    """

    container_name = "relay"

    @property
    def container(self) -> ops.Container:
        return self.unit.get_container(self.container_name)

    def service_running(self) -> bool:
        if not self.container.can_connect():
            return False
        services = self.container.get_services(SERVICE)
        return bool(services) and services[SERVICE].is_running()

    def block(self, message: str) -> None:
        logger.warning("blocked: %s", message)
        self.unit.status = ops.BlockedStatus(message)

    def leader_data(self, relation: Optional[ops.Relation]) -> Optional[ops.RelationDataContent]:
        if relation is None or not self.unit.is_leader():
            return None
        return relation.data[self.app]

    def _on_stop(self, event: ops.StopEvent) -> None:
        if self.service_running():
            self.container.stop(SERVICE)
        logger.info("relay stopped")
