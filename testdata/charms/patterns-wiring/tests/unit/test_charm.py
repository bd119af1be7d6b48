"""Unit tests: code here is never linked (this fake charm observes an undeclared endpoint)."""

import ops
from ops import testing

from charm import TidepoolCharm


class FakeCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.framework.observe(self.on.nowhere_relation_changed, self._on_nowhere)

    def _on_nowhere(self, event):
        pass


def test_install():
    ctx = testing.Context(TidepoolCharm)
    ctx.run(ctx.on.install(), testing.State())
