"""A vendored library: a relation-bound requirer that registers its own handler."""

import ops

LIBID = "7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f"
LIBAPI = 1
LIBPATCH = 0


class FeedReadyEvent(ops.RelationEvent):
    pass


class FeedEvents(ops.ObjectEvents):
    feed_ready = ops.EventSource(FeedReadyEvent)


class FeedRequires(ops.Object):
    on = FeedEvents()  # pyright: ignore

    def __init__(self, charm: ops.CharmBase, relation_name: str = "weather"):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_feed_changed)

    def _on_feed_changed(self, event: ops.RelationChangedEvent) -> None:
        self.on.feed_ready.emit(event.relation)
