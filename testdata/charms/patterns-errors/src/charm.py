#!/usr/bin/env python3
"""Squall: seeded disagreements between code and YAML, each through an indirect pattern."""

import ops
from charms.feedlib.v1.feeds import FeedRequires

import names
from alerts import AlertsHandler
from base import SquallBase
from lock import PeerLock
from settings import read_settings


class SquallCharm(SquallBase):
    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        self.feed = FeedRequires(self, relation_name=names.FEED)
        self.forecast = FeedRequires(self, relation_name=names.FORECAST)  # want check=undeclared-relation
        self.framework.observe(self.feed.on.feed_ready, self._on_feed_ready)
        self.framework.observe(self.on[names.ARCHIVE].relation_changed, self._on_archive_changed)
        self.framework.observe(self.on["squall-peers"].relation_changed, self._on_peers_changed)
        self.framework.observe(getattr(self.on, "purge_action"), self._on_refresh)  # want check=undeclared-action
        self.framework.observe(self.on.refresh_action, self._on_refresh)
        self.framework.observe(self.on.cache_storage_attached, self._on_cache_attached)
        self.framework.observe(self.on["scratch"].storage_detaching, self._on_cache_attached)  # want check=undeclared-storage
        self.alerts = AlertsHandler(self)
        self.lock = PeerLock(self)
        if self.config.get("interval"):
            self.framework.observe(self.on.radar_pebble_ready, self._on_cache_attached)  # want check=undeclared-container severity=warning

    def _on_feed_ready(self, event: ops.RelationEvent) -> None:
        settings = read_settings(self.config)
        event.relation.data[self.unit]["interval"] = str(settings["interval"])

    def _on_archive_changed(self, event: ops.RelationChangedEvent) -> None:
        archive = self.model.get_relation(names.ARCHIVE)
        self.model.get_relation(names.FORECAST)  # want check=undeclared-relation
        event.relation.data[self.unit]["ok"] = str(bool(archive))

    def _on_cache_attached(self, event: ops.StorageEvent) -> None:
        pass

    def _on_refresh(self, event: ops.ActionEvent) -> None:
        feed = event.params.get("feed")
        verbose = event.params["verbose"]  # want check=undeclared-action-param
        event.set_results({"feed": feed, "verbose": verbose})

    def _relation_for(self, name: str) -> None:
        self.framework.observe(self.on[name].relation_departed, self._on_archive_changed)  # want unresolved=observe
        self.model.get_relation(name)  # want unresolved=lookup
        self.config[f"{name}-interval"]  # want unresolved=config-read
        self.config.get(name + "-threshold", 0)  # want unresolved=config-read
        PeerLock(self, peer_relation_name=name)  # want unresolved=library


if __name__ == "__main__":  # pragma: nocover
    ops.main(SquallCharm)
