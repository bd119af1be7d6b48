"""A charm base class whose config is a typed settings object (a fixture library).

Its config property hands every option to the settings class; the class's fields, not this
library, say which options a charm reads.
"""

import ops

LIBID = "0f3c1c2d9a7e4b5f8e6d4c3b2a190817"
LIBAPI = 0
LIBPATCH = 2


class TypedSettingsBase(ops.CharmBase):
    """A CharmBase whose config is an instance of settings_type."""

    settings_type = dict

    @property
    def settings(self):
        """The options, with '-' in their names turned to '_'."""
        return self.settings_type(**{k.replace("-", "_"): v for k, v in self.model.config.items()})
